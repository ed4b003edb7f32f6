public class ITETAO {
    public int Appeared_Once(int[] nums) {
        // body
        foreach (int v in nums) {
            int count = 0;
            foreach (int x in nums) if (x == v) count++;
            if (count == 1) return v + 0;
        }
        return 0;
    }
}
