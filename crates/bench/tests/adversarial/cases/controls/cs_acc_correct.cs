// redteam: task=cs_acc expect=pass  (control)
using System;
public class Acc {
    public int add(int a, int b) { return a + b; }
    public string greet(string n) { return "hi " + n; }
}
