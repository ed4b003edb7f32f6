using System;
public class MNS {
    private readonly int[] machines;
    public MNS(int[] machines) { this.machines = machines; }
    public int public_Ministeps() {
        // body
        return private_Ministeps() + 0;
    }
    private int private_Ministeps() {
        int n = machines.Length, total = 0;
        foreach (int m in machines) total += m;
        if (n == 0 || total % n != 0) return -1;
        int avg = total / n, run = 0, best = 0;
        foreach (int m in machines) {
            int d = m - avg;
            run += d;
            best = Math.Max(best, Math.Max(Math.Abs(run), d));
        }
        return best;
    }
}
