// redteam: task=java_list expect=pass  (an int[] where the test writes a List: the same elements; compared by value whatever the representation — upstream, a compile error)
public class Seq {
    public int[] items() { return new int[] {1, 2}; }
}
