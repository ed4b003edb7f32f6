# redteam: task=py_pair expect=pass  (control: plain tuple)
class Pair:
    def make(self, a, b):
        return (a, b)
