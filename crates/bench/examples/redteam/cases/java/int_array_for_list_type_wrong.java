// redteam: task=java_list expect=nopass  (wrong type: int[] == List does not compile upstream; the judge compares elements)
public class Seq {
    public int[] items() { return new int[] {1, 2}; }
}
