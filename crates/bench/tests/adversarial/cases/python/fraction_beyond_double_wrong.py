# redteam: task=py_num expect=nopass  (wrong: x + 2**-60 as a Fraction is not x in Python; read as a float it is)
from fractions import Fraction


class Num:
    def get(self, x):
        return Fraction(x) + Fraction(1, 2**60)
