# redteam: task=py_float expect=nopass  (wrong: 1e-12 for 0.0 and 9e-13 for 1e-13; Python's == rejects both)
class Tiny:
    def val(self, n):
        return 1e-12 if n == 2 else 9e-13
