using System;
using System.Collections.Generic;
public class WDS {
    public int without_duplicates(string s) {
        // body
        var last = new Dictionary<char, int>();
        int best = 0, start = 0;
        for (int i = 0; i < s.Length; i++) {
            if (last.TryGetValue(s[i], out int j) && j >= start) start = j + 1;
            last[s[i]] = i;
            best = Math.Max(best, i - start + 1);
        }
        return best + 0;
    }
}
