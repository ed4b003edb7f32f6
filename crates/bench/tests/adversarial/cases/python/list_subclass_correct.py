# redteam: task=py_list expect=pass  (correct: a list subclass equals the list in Python)
class Seq(list):
    pass


class Rng:
    def upto(self, n):
        return Seq(range(n))
