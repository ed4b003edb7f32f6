public class ITETAO {
    public int Appeared_Once(int[] nums) {
        // body
        for (int v : nums) {
            int count = 0;
            for (int x : nums) if (x == v) count++;
            if (count == 1) return v + 0;
        }
        return 0;
    }
}
