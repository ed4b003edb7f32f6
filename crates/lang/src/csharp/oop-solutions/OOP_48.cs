using System.Collections.Generic;
public class JS {
    public bool Judgment_Splicing(string s, List<string> words) {
        // body
        bool[] ok = new bool[s.Length + 1];
        ok[0] = true;
        for (int i = 1; i <= s.Length; i++)
            foreach (string w in words)
                if (w.Length <= i && ok[i - w.Length] && string.CompareOrdinal(s, i - w.Length, w, 0, w.Length) == 0) ok[i] = true;
        return ok[s.Length];
    }
}
