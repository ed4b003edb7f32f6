# redteam: task=py_acc expect=pass  (control of reach: rebinds the observer and reports the values (here hard-coded, as a program that knows them would); shows the observer is the candidate's to replace — only the values stop it)
_real = __polyeval_observe


def __polyeval_observe(t, thunk):
    return _real(t, lambda: [3, 0, "hi bo"][t] if t < 3 else thunk())


class Acc:
    def add(self, a, b):
        return 0

    def greet(self, name):
        return ""
