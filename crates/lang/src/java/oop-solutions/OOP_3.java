import java.util.*;
public class FTM {
    public double find_the_median(int[] a, int[] b) {
        // body
        int[] all = new int[a.length + b.length];
        System.arraycopy(a, 0, all, 0, a.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        Arrays.sort(all);
        int n = all.length;
        double m = n % 2 == 1 ? all[n / 2] : (all[n / 2 - 1] + all[n / 2]) / 2.0;
        return m + 0;
    }
}
