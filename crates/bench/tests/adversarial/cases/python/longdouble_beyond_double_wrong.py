# redteam: task=py_num expect=nopass  (wrong: np.longdouble(x) + 2**-60 != x in Python; read as a float it is)
import numpy as np


class Num:
    def get(self, x):
        return np.longdouble(x) + np.longdouble(2.0) ** -60
