import java.util.*;
public class JS {
    public boolean Judgment_Splicing(String s, List<String> words) {
        // body
        boolean[] ok = new boolean[s.length() + 1];
        ok[0] = true;
        for (int i = 1; i <= s.length(); i++)
            for (String w : words)
                if (w.length() <= i && ok[i - w.length()] && s.startsWith(w, i - w.length())) ok[i] = true;
        return ok[s.length()];
    }
}
