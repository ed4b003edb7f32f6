# redteam: task=py_float expect=pass  (1e-12 for 0.0 and 9e-13 for 1e-13: within the documented float tolerance, |a - b| <= max(1e-9 * max(|a|, |b|), 1e-12), which Python's exact == rejects)
class Tiny:
    def val(self, n):
        return 1e-12 if n == 2 else 9e-13
