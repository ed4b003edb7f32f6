# redteam: task=py_num expect=pass  (correct: an IntEnum member equals its int in Python)
from enum import IntEnum


class Level(IntEnum):
    LOW = 2
    HIGH = 5


class Num:
    def get(self, x):
        return Level(x)
