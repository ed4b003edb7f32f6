# redteam: task=py_keys expect=pass  (correct: dict.keys() equals a set in Python; also: a set literal on the right-hand side is not judgeable at all)
class Keys:
    def keys(self, s):
        return {c: True for c in s}.keys()
