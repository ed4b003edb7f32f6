using System;
public class RWO {
    public string Reverse_Word_Order(string s) {
        // body
        string[] words = s.Split((char[])null, StringSplitOptions.RemoveEmptyEntries);
        Array.Reverse(words);
        return string.Join(" ", words);
    }
}
