// redteam: task=js_acc expect=pass  (control)
class Acc { add(a, b) { return a + b; } greet(n) { return 'hi ' + n; } }
