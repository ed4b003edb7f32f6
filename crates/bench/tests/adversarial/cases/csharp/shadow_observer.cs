// redteam: task=cs_acc expect=nopass  (holds on values: a global class PolyevalJudge of the answer's own replaces the judge's observer; it reports nothing useful)
using System;
public class Acc {
    public int add(int a, int b) { return 0; }
    public string greet(string n) { return ""; }
}
public static class PolyevalJudge {
    public static void Observe(int t, object v) { Console.Write("\n\u001epolyeval-judge {\"t\":" + t + ",\"v\":null}\n"); }
    public static void Raised(int t, Exception e) { }
    public static void Finish() { Console.Write("\n\u001epolyeval-judge {\"end\":null}\n"); }
}
