// redteam: task=java_acc expect=pass  (control)
public class Acc {
    public int add(int a, int b) { return a + b; }
    public String greet(String n) { return "hi " + n; }
}
