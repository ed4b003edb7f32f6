// polyeval warm Java worker: one JVM, started by the warm zygote
// (zygote.py, mode "vm") inside the sandbox, compiles and runs many samples.
// Per request it compiles with javac in-process (javax.tools: the same
// compiler, arguments and diagnostics as the cold `javac` step) and runs the
// entry class's `main` in a fresh class loader (so the sample's classes and
// the judge's observer class are loaded anew) on a thread named "main",
// with fresh System.in/out/err on the process's own descriptors, which the
// zygote relays to the sample's pipes.
//
// An exception that ends `main` is dispatched as the JVM does (the
// thread's handler, its group, the default handler, else "Exception in
// thread "main" ..." on System.err, exit code 1), with the worker's own
// frames cut from its stack trace.
//
// Whatever would make this JVM differ from a fresh one is detected, never
// trusted: a sample still running at its time limit, or one that hit a
// VirtualMachineError, halts the JVM (the host then re-runs it cold); a
// shutdown hook the sample added (a cold JVM would run it at exit) is
// removed and the sample re-run cold ("rerun"); threads left behind or
// changed JVM-wide settings (system properties, default locale and time
// zone, uncaught-exception handler) mark the worker "discard": the
// sample's result stands (it started from a clean JVM) and the worker is
// replaced. System.exit ends the JVM itself, also re-run cold.
//
// The worker is a named module: `--add-opens java.base/java.lang=
// polyeval.warm` lets it, and not the samples (unnamed modules), read the
// JVM's shutdown hooks.
//
// Protocol: requests on fd 3, one line each: "<source path>\t<entry
// class>\t<class path>\t<classes dir>\t<run timeout ms>\t<cpu limit ms>";
// replies on fd 4: "ready\n" once, then per request one line "<javac
// exit code> <run exit code> <flags> <compile ms> <n>\n" followed by n
// bytes of javac's output. Flags: "-" or comma-separated "discard",
// "rerun".

package polyeval.warm;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import java.util.Set;
import java.util.TimeZone;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

public final class PolyevalWarmJava {
    /** Exit status of a JVM halted because it can no longer be trusted. */
    private static final int HALT_UNSOUND = 97;
    /** The worker's own diagnostics: fd 5, never a sample's stderr. */
    private static final PrintStream WORKER_ERR = workerErr();

    private static PrintStream workerErr() {
        try {
            return new PrintStream(new FileOutputStream("/proc/self/fd/5", true), true);
        } catch (java.io.IOException e) {
            return new PrintStream(OutputStream.nullOutputStream());
        }
    }

    private PolyevalWarmJava() {}

    public static void main(String[] args) throws Exception {
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
            if (f.length != 6) {
                System.err.println("polyeval warm worker: bad request");
                Runtime.getRuntime().halt(HALT_UNSOUND);
            }
            byte[] reply = serve(javac, f[0], f[1], f[2], f[3], Long.parseLong(f[4]), Long.parseLong(f[5]));
            replies.write(reply);
            replies.flush();
        }
    }

    /** Compile and run a small program once, so javac and the run path are JIT-warm. */
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
        javac.run(null, sink, sink, "-encoding", "UTF-8", "-nowarn", "-d", dir.resolve("classes").toString(), src.toString());
        try (URLClassLoader loader = new URLClassLoader(
                new URL[] {dir.resolve("classes").toUri().toURL()}, ClassLoader.getPlatformClassLoader())) {
            loader.loadClass("PolyevalWarmUp").getMethod("main", String[].class).invoke(null, (Object) new String[0]);
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

    /** The JVM-wide settings a sample can change, as they are now. */
    private static List<Object> settings() {
        List<Object> s = new ArrayList<>();
        // First: the first TimeZone.getDefault() sets "user.timezone".
        s.add(TimeZone.getDefault().getID());
        s.add(new java.util.TreeMap<Object, Object>(System.getProperties()).toString());
        s.add(Locale.getDefault());
        s.add(Locale.getDefault(Locale.Category.FORMAT));
        s.add(Locale.getDefault(Locale.Category.DISPLAY));
        s.add(Thread.getDefaultUncaughtExceptionHandler());
        return s;
    }

    /** The JVM's application shutdown hooks (java.lang.ApplicationShutdownHooks). */
    @SuppressWarnings("unchecked")
    private static Set<Thread> shutdownHooks() {
        try {
            java.lang.reflect.Field f = Class.forName("java.lang.ApplicationShutdownHooks").getDeclaredField("hooks");
            f.setAccessible(true);
            synchronized (Class.forName("java.lang.ApplicationShutdownHooks")) {
                Map<Thread, Thread> hooks = (Map<Thread, Thread>) f.get(null);
                return hooks == null ? new HashSet<>() : new HashSet<>(hooks.keySet());
            }
        } catch (ReflectiveOperationException | RuntimeException e) {
            haltUnsound("cannot read the shutdown hooks: " + e);
            return null;
        }
    }

    private static Set<Thread> liveThreads() {
        return new HashSet<>(Thread.getAllStackTraces().keySet());
    }

    private static byte[] serve(JavaCompiler javac, String source, String entry, String classPath,
            String classes, long timeoutMs, long cpuMs) throws Exception {
        ByteArrayOutputStream diagnostics = new ByteArrayOutputStream();
        long compileStart = System.nanoTime();
        int compiled = javac.run(null, diagnostics, diagnostics,
            "-encoding", "UTF-8", "-nowarn", "-cp", classPath, "-d", classes, source);
        long compileMs = (System.nanoTime() - compileStart) / 1_000_000;
        int code = 0;
        boolean discard = false;
        boolean rerun = false;
        if (compiled == 0) {
            List<Object> before = settings();
            Set<Thread> threadsBefore = liveThreads();
            Set<Thread> hooksBefore = shutdownHooks();
            code = run(entry, classPath, classes, timeoutMs, cpuMs);
            // As a JVM's end does: wait for the sample's non-daemon threads.
            long deadline = System.nanoTime() + timeoutMs * 1_000_000;
            for (Thread t : liveThreads()) {
                if (!threadsBefore.contains(t) && !t.isDaemon()) {
                    long left = (deadline - System.nanoTime()) / 1_000_000;
                    if (left > 0) {
                        t.join(left);
                    }
                    if (t.isAlive()) {
                        haltUnsound("a thread of the sample outlived its time limit");
                    }
                }
            }
            System.out.flush();
            System.err.flush();
            for (Thread t : liveThreads()) {
                if (!threadsBefore.contains(t) && t.isAlive()) {
                    note("a thread of the sample is still alive: " + t.getName());
                    discard = true;
                }
            }
            for (Thread hook : shutdownHooks()) {
                if (!hooksBefore.contains(hook)) {
                    note("the sample added a shutdown hook: re-run cold");
                    Runtime.getRuntime().removeShutdownHook(hook);
                    rerun = true;
                }
            }
            List<Object> after = settings();
            if (!after.equals(before)) {
                note("the sample changed JVM-wide settings: " + before + " -> " + after);
                discard = true;
            }
        }
        byte[] text = diagnostics.toByteArray();
        String flags = discard && rerun ? "discard,rerun" : discard ? "discard" : rerun ? "rerun" : "-";
        String head = compiled + " " + code + " " + flags + " " + compileMs + " " + text.length + "\n";
        ByteArrayOutputStream reply = new ByteArrayOutputStream();
        reply.write(head.getBytes(StandardCharsets.US_ASCII));
        reply.write(text);
        return reply.toByteArray();
    }

    /** Say why on the worker's own stderr (the host logs it), never the sample's. */
    private static void note(String why) {
        WORKER_ERR.println("polyeval warm worker: " + why);
        WORKER_ERR.flush();
    }

    private static void haltUnsound(String why) {
        note(why);
        Runtime.getRuntime().halt(HALT_UNSOUND);
    }

    /** Run `entry`'s main as `java -ea -cp <classes>:<judge> entry` would; the exit code. */
    private static int run(String entry, String classPath, String classes, long timeoutMs, long cpuMs)
            throws Exception {
        // The judge's observer and the sample: fresh classes from a loader
        // that sees no class of this worker.
        List<URL> urls = new ArrayList<>();
        urls.add(Path.of(classes).toUri().toURL());
        for (String dir : classPath.split(":")) {
            if (!dir.isEmpty() && !dir.equals(".")) {
                urls.add(Path.of(dir).toUri().toURL());
            }
        }
        PrintStream out = new PrintStream(new BufferedOutputStream(new FileOutputStream(FileDescriptor.out), 128), true);
        PrintStream err = new PrintStream(new BufferedOutputStream(new FileOutputStream(FileDescriptor.err), 128), true);
        InputStream in = new BufferedInputStream(new FileInputStream(FileDescriptor.in));
        PrintStream oldOut = System.out;
        PrintStream oldErr = System.err;
        InputStream oldIn = System.in;
        System.setOut(out);
        System.setErr(err);
        System.setIn(in);
        int[] code = {0};
        long[] cpuNs = {0};
        Throwable[] unsound = {null};
        ThreadMXBean bean = ManagementFactory.getThreadMXBean();
        try (URLClassLoader loader = new URLClassLoader(urls.toArray(new URL[0]), ClassLoader.getPlatformClassLoader())) {
            Method main;
            try {
                main = loader.loadClass(entry).getMethod("main", String[].class);
            } catch (ReflectiveOperationException | LinkageError e) {
                // `java` reports these in its own words: leave them to a cold run.
                haltUnsound("cannot load the entry class: " + e);
                return 1;
            }
            if (!Modifier.isStatic(main.getModifiers()) || main.getReturnType() != void.class) {
                haltUnsound("the entry method is not `static void main(String[])`");
            }
            ThreadGroup group = new ThreadGroup("main");
            Thread thread = new Thread(group, () -> {
                try {
                    main.invoke(null, (Object) new String[0]);
                } catch (InvocationTargetException e) {
                    Throwable cause = e.getCause();
                    if (cause instanceof VirtualMachineError) {
                        unsound[0] = cause;
                        return;
                    }
                    trimBelow(cause, entry, new HashSet<>());
                    code[0] = 1;
                    // Ends the thread as the exception would end `main`: the
                    // JVM's own dispatch reports it.
                    PolyevalWarmJava.<RuntimeException>rethrow(cause);
                } catch (Throwable e) {
                    unsound[0] = e;
                } finally {
                    cpuNs[0] = bean.getCurrentThreadCpuTime();
                }
            }, "main");
            thread.setContextClassLoader(loader);
            thread.start();
            thread.join(Math.max(1, timeoutMs));
            if (thread.isAlive()) {
                haltUnsound("the sample outlived its time limit");
            }
            if (cpuNs[0] > cpuMs * 900_000L) {
                haltUnsound("the sample used up its CPU time");
            }
            if (unsound[0] != null) {
                haltUnsound("the sample ended with " + unsound[0]);
            }
        } finally {
            out.flush();
            err.flush();
            System.setOut(oldOut);
            System.setErr(oldErr);
            System.setIn(oldIn);
        }
        return code[0];
    }

    @SuppressWarnings("unchecked")
    private static <T extends Throwable> void rethrow(Throwable t) throws T {
        throw (T) t;
    }

    /** Drop the frames below the entry's `main` (this worker's reflective call). */
    private static void trimBelow(Throwable t, String entry, Set<Throwable> seen) {
        if (t == null || !seen.add(t)) {
            return;
        }
        StackTraceElement[] frames = t.getStackTrace();
        for (int i = frames.length - 1; i >= 0; i--) {
            if (frames[i].getClassName().equals(entry) && frames[i].getMethodName().equals("main")) {
                t.setStackTrace(java.util.Arrays.copyOf(frames, i + 1));
                break;
            }
        }
        trimBelow(t.getCause(), entry, seen);
        for (Throwable s : t.getSuppressed()) {
            trimBelow(s, entry, seen);
        }
    }
}
