# redteam: task=py_acc expect=pass  (control)
class Acc:
    def add(self, a, b):
        return a + b

    def greet(self, name):
        return "hi " + name
