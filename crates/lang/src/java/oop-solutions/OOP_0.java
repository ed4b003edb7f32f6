import java.util.*;
public class WDS {
    public int without_duplicates(String s) {
        // body
        Map<Character, Integer> last = new HashMap<>();
        int best = 0, start = 0;
        for (int i = 0; i < s.length(); i++) {
            Integer j = last.get(s.charAt(i));
            if (j != null && j >= start) start = j + 1;
            last.put(s.charAt(i), i);
            best = Math.max(best, i - start + 1);
        }
        return best + 0;
    }
}
