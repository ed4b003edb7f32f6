public class PDIT {
    public boolean Palindromic_integer(long x) {
        // body
        if (x < 0) return false;
        String s = Long.toString(x);
        return new StringBuilder(s).reverse().toString().equals(s);
    }
}
