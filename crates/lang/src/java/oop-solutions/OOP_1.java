public class MNS {
    private final int[] machines;
    public MNS(int[] machines) { this.machines = machines; }
    public int public_Ministeps() {
        // body
        return private_Ministeps() + 0;
    }
    private int private_Ministeps() {
        int n = machines.length, total = 0;
        for (int m : machines) total += m;
        if (n == 0 || total % n != 0) return -1;
        int avg = total / n, run = 0, best = 0;
        for (int m : machines) {
            int d = m - avg;
            run += d;
            best = Math.max(best, Math.max(Math.abs(run), d));
        }
        return best;
    }
}
