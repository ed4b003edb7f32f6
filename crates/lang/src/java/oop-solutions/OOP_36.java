public class CRTP {
    public int climb_rooftop(int n) {
        // body
        int a = 1, b = 1;
        for (int i = 2; i <= n; i++) { int c = a + b; a = b; b = c; }
        return b + 0;
    }
}
