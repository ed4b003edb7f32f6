class RVW:
    def reverse_words(self, s):
        return " ".join(reversed(s.split(" ")))

#--------------:
print(RVW().reverse_words("a b") == "b a")
