# redteam: task=py_str expect=pass  (correct: a str-mixin Enum member equals its str in Python)
from enum import Enum


class Word(str, Enum):
    RED = "RED"
    OK = "OK"


class Up:
    def up(self, x):
        return Word(x.upper())
