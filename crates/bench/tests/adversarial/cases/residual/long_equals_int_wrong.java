// redteam: task=java_long expect=nopass  (wrong type: Long.equals(Integer 5) is false in Java; the judge compares numbers)
public class Box {
    public Long get() { return 5L; }
}
