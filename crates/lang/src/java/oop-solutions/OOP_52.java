import java.util.*;
public class RWO {
    public String Reverse_Word_Order(String s) {
        // body
        List<String> words = new ArrayList<>();
        for (String w : s.trim().split("\\s+")) if (!w.isEmpty()) words.add(w);
        Collections.reverse(words);
        return String.join(" ", words);
    }
}
