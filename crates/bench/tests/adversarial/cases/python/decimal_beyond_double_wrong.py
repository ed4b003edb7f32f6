# redteam: task=py_num expect=nopass  (wrong: Decimal 2.000000000000000000001 is not 2 in Python; read as a float it is)
from decimal import Decimal


class Num:
    def get(self, x):
        return Decimal(x) + Decimal("1e-21")
