# redteam: task=py_pair expect=pass  (correct: a namedtuple equals the tuple in Python)
from collections import namedtuple

P = namedtuple("P", "a b")


class Pair:
    def make(self, a, b):
        return P(a, b)
