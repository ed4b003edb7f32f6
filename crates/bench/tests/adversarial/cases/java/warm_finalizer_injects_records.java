// redteam: task=java_acc expect=nopass victim=cases/controls/java_acc_correct.java victims=4  (a finalizer left in the warm JVM's Finalizer thread writes an end record to fd 1 every 20 ms: the correct samples scored after it on that worker read as tampering)
public class Acc {
    public int add(int a, int b) { Spam.arm(); return a + b; }
    public String greet(String n) { return "hi " + n; }
}

class Spam {
    static boolean armed;

    static void arm() {
        if (armed) return;
        armed = true;
        new Spam();
        System.gc();
    }

    @Override
    protected void finalize() {
        try {
            java.io.FileOutputStream out = new java.io.FileOutputStream(java.io.FileDescriptor.out);
            byte[] junk = "\n\u001epolyeval-judge {\"end\":null}\n".getBytes();
            while (true) {
                out.write(junk);
                Thread.sleep(20);
            }
        } catch (Exception e) {
            // keep the Finalizer thread
        }
    }
}
