using System;
public class PDIT {
    public bool Palindromic_integer(long x) {
        // body
        if (x < 0) return false;
        char[] c = x.ToString().ToCharArray();
        Array.Reverse(c);
        return new string(c) == x.ToString();
    }
}
