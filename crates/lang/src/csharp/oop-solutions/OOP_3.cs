using System;
using System.Linq;
public class FTM {
    public double find_the_median(int[] a, int[] b) {
        // body
        int[] all = a.Concat(b).OrderBy(x => x).ToArray();
        int n = all.Length;
        double m = n % 2 == 1 ? all[n / 2] : (all[n / 2 - 1] + all[n / 2]) / 2.0;
        return m + 0;
    }
}
