// polyeval warm Java worker: one JVM, started by the warm zygote
// (zygote.py, mode "vm", role "compiles") inside the sandbox, compiles every
// sample with javac in-process (javax.tools: the same compiler, arguments
// and diagnostics as the cold `javac` step); the zygote then runs the
// program with the cold run's own command, in a JVM of its own. Samples
// never run in this JVM, and it is out of their reach: not dumpable (prctl,
// through the foreign linker), no attach listener, no signal handlers of
// its own (-XX:+DisableAttachMechanism -Xrs).
//
// Protocol: requests on fd 3, one line each: "<token>\t<source path>\t<class
// path>\t<classes dir>"; replies on fd 4: "ready\n"
// once, then per request one line "<token> <javac exit code> 0 <flags>
// <compile ms> <n>\n" followed by n bytes of javac's output, flags "-" or
// "unsound" (javac crashed).

package polyeval.warm;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import jdk.incubator.foreign.CLinker;
import jdk.incubator.foreign.FunctionDescriptor;

public final class PolyevalWarmJava {
    private static final int PR_SET_DUMPABLE = 4;

    private PolyevalWarmJava() {}

    public static void main(String[] args) throws Throwable {
        if (setDumpable(0) != 0) {
            System.err.println("polyeval warm worker: cannot make the JVM non-dumpable");
            System.exit(2);
        }
        InputStream requests = new BufferedInputStream(new FileInputStream("/proc/self/fd/3"));
        OutputStream replies = new FileOutputStream("/proc/self/fd/4", true);
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        if (javac == null) {
            System.err.println("polyeval warm worker: no system Java compiler");
            System.exit(2);
        }
        if (args.length > 0) {
            warmUp(javac, Path.of(args[0]));
        }
        replies.write("ready\n".getBytes(StandardCharsets.US_ASCII));
        replies.flush();
        String line;
        while ((line = readLine(requests)) != null) {
            String[] f = line.split("\t", -1);
            if (f.length != 4) {
                System.err.println("polyeval warm worker: bad request");
                System.exit(2);
            }
            replies.write(compile(javac, f[0], f[1], f[2], f[3]));
            replies.flush();
        }
    }

    /** prctl(PR_SET_DUMPABLE, value): 0 on success. */
    private static int setDumpable(long value) throws Throwable {
        CLinker linker = CLinker.getInstance();
        MethodHandle prctl = linker.downcallHandle(
            CLinker.systemLookup().lookup("prctl").orElseThrow(),
            MethodType.methodType(int.class, int.class, long.class, long.class, long.class, long.class),
            FunctionDescriptor.of(CLinker.C_INT, CLinker.C_INT, CLinker.C_LONG, CLinker.C_LONG,
                CLinker.C_LONG, CLinker.C_LONG));
        return (int) prctl.invokeExact(PR_SET_DUMPABLE, value, 0L, 0L, 0L);
    }

    /** Compile a small program a few times, so javac is JIT-warm. */
    private static void warmUp(JavaCompiler javac, Path dir) throws Exception {
        Files.createDirectories(dir);
        Path src = dir.resolve("PolyevalWarmUp.java");
        Files.writeString(src,
            "import java.util.*;\npublic class PolyevalWarmUp {\n"
            + "  interface Shape { double area(); }\n"
            + "  static class Sq implements Shape { double s; Sq(double s) { this.s = s; } public double area() { return s * s; } }\n"
            + "  public static void main(String[] a) {\n"
            + "    List<Shape> l = new ArrayList<>(List.of(new Sq(2)));\n"
            + "    Map<String, Integer> m = new HashMap<>();\n    m.put(\"x\", 1);\n"
            + "    assert l.get(0).area() == 4.0 : \"area\";\n"
            + "    String.format(\"%d %s\", m.get(\"x\"), Arrays.toString(new int[]{1}));\n  }\n}\n");
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        for (int i = 0; i < 2; i++) {
            javac.run(null, sink, sink, "-encoding", "UTF-8", "-nowarn", "-d",
                dir.resolve("classes").toString(), src.toString());
        }
    }

    private static String readLine(InputStream in) throws Exception {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int c;
        while ((c = in.read()) != -1) {
            if (c == '\n') {
                return line.toString(StandardCharsets.UTF_8);
            }
            line.write(c);
        }
        return null;
    }

    private static byte[] compile(JavaCompiler javac, String token, String source, String classPath,
            String classes) throws Exception {
        ByteArrayOutputStream diagnostics = new ByteArrayOutputStream();
        long start = System.nanoTime();
        int compiled = javac.run(null, diagnostics, diagnostics,
            "-encoding", "UTF-8", "-nowarn", "-cp", classPath, "-d", classes, source);
        long ms = (System.nanoTime() - start) / 1_000_000;
        byte[] text = diagnostics.toByteArray();
        // Exit codes past 1 (a system error, javac crashed): this compiler
        // can no longer vouch for itself, nor for this compile.
        String flags = compiled > 1 ? "unsound" : "-";
        String head = token + " " + compiled + " 0 " + flags + " " + ms + " " + text.length + "\n";
        ByteArrayOutputStream reply = new ByteArrayOutputStream();
        reply.write(head.getBytes(StandardCharsets.US_ASCII));
        reply.write(text);
        return reply.toByteArray();
    }
}
