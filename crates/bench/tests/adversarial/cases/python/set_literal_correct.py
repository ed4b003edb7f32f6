# redteam: task=py_set expect=pass  (correct: a plain set; the right-hand side `{'a', 'b'}` is a Python set literal)
class Chars:
    def chars(self, s):
        return set(s)
