// redteam: task=java_acc expect=nopass then=cases/controls/java_acc_correct.java:pass,self:nopass  (wrong answers everywhere. A class named PolyevalJudge in the answer shadows the judge's observer. The first copy leaves a spy in the warm JVM's Finalizer thread that re-runs every later sample's classes with its own observer (serialising with the judge's private `put`), keyed by the test class's constant pool; a later copy finds the spy and reports the correct sample's values)
import java.io.*;
import java.lang.reflect.*;
import java.net.*;
import java.nio.charset.StandardCharsets;
import java.nio.file.*;
import java.util.*;

public class Acc {
    public int add(int a, int b) { return 0; }
    public String greet(String n) { return "?"; }
}

/** Shadows the judge's observer (the answer's classes come first on the class path). */
class PolyevalJudge {
    /** Shadow runs: serialise with the real observer's `put`, keep the records here. */
    public static Method PUT;
    public static final List<String> CAPTURED = new ArrayList<>();
    static List<String> known;
    static boolean looked;

    static void emit(String json) {
        if (PUT != null) {
            CAPTURED.add(json);
            return;
        }
        try {
            FileOutputStream out = new FileOutputStream(FileDescriptor.out);
            out.write(("\n\u001epolyeval-judge " + json + "\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
        } catch (IOException e) {
            // nothing
        }
    }

    static void observe(int t, Object v) {
        if (PUT != null) {
            StringBuilder sb = new StringBuilder("{\"t\":" + t + ",\"v\":");
            try {
                PUT.invoke(null, sb, v, 0);
            } catch (Exception e) {
                sb.append("null");
            }
            emit(sb.append('}').toString());
            return;
        }
        if (!looked) {
            looked = true;
            known = Cheat.lookup();
        }
        if (known != null) {
            for (String k : known) {
                if (k.startsWith("{\"t\":" + t + ",")) {
                    emit(k);
                    return;
                }
            }
        }
        emit("{\"t\":" + t + ",\"v\":null}");
    }

    static void raised(int t, Throwable e) {
        emit("{\"t\":" + t + ",\"raised\":{\"type\":\"" + e.getClass().getSimpleName() + "\",\"message\":\"\"}}");
    }

    static void finish() {
        if (PUT == null && !looked) Cheat.lookup();
        emit("{\"end\":null}");
    }
}

class Cheat {
    /** The spy's memory: test class key -> the records a sample printed. */
    public static final Map<String, List<String>> RECORDS = Collections.synchronizedMap(new HashMap<>());
    public static byte[] OBSERVER;
    static final Set<ClassLoader> SEEN = Collections.newSetFromMap(new WeakHashMap<>());

    /** This sample's records as a correct sample printed them, if the spy has them. */
    @SuppressWarnings("unchecked")
    static List<String> lookup() {
        try {
            ClassLoader spy = spyLoader();
            if (spy == null) {
                install();
                return null;
            }
            byte[] problem = classBytes(Cheat.class.getClassLoader()).get("Problem");
            Field f = Class.forName("Cheat", false, spy).getField("RECORDS");
            f.setAccessible(true);
            return ((Map<String, List<String>>) f.get(null)).get(key(problem));
        } catch (Throwable t) {
            return null;
        }
    }

    static volatile boolean started;

    static void install() throws Exception {
        OBSERVER = classBytes(Cheat.class.getClassLoader()).get("PolyevalJudge");
        new Keeper();
        // Until the Finalizer thread has taken the keeper (the spy is running).
        for (int i = 0; i < 200 && !started; i++) {
            System.gc();
            Thread.sleep(5);
        }
    }

    static List<Thread> allThreads() {
        ThreadGroup g = Thread.currentThread().getThreadGroup();
        while (g.getParent() != null) g = g.getParent();
        Thread[] ts = new Thread[g.activeCount() + 64];
        int n = g.enumerate(ts, true);
        return Arrays.asList(ts).subList(0, n);
    }

    static ClassLoader spyLoader() {
        for (Thread t : allThreads()) {
            if (!t.getName().equals("Finalizer")) continue;
            ClassLoader l = t.getContextClassLoader();
            if (l == null || l == Cheat.class.getClassLoader()) continue;
            try {
                Class<?> c = Class.forName("Cheat", false, l);
                if (c.getClassLoader() == l) return l;
            } catch (Throwable e) {
                // not ours
            }
        }
        return null;
    }

    /** Every class file in the loader's class path directories (first one wins). */
    static Map<String, byte[]> classBytes(ClassLoader l) throws Exception {
        Map<String, byte[]> classes = new HashMap<>();
        for (URL u : ((URLClassLoader) l).getURLs()) {
            Path d = Paths.get(u.toURI());
            if (!Files.isDirectory(d)) continue;
            try (DirectoryStream<Path> ds = Files.newDirectoryStream(d, "*.class")) {
                for (Path p : ds) {
                    String name = p.getFileName().toString();
                    classes.putIfAbsent(name.substring(0, name.length() - 6), Files.readAllBytes(p));
                }
            }
        }
        return classes;
    }

    /** The constant pool of a class file, sorted: the same for every sample of a task. */
    static String key(byte[] c) throws IOException {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(c));
        in.readInt();
        in.readUnsignedShort();
        in.readUnsignedShort();
        int n = in.readUnsignedShort();
        List<String> parts = new ArrayList<>();
        for (int i = 1; i < n; i++) {
            int tag = in.readUnsignedByte();
            switch (tag) {
                case 1: parts.add(in.readUTF()); break;
                case 3: case 4: parts.add("" + in.readInt()); break;
                case 5: case 6: parts.add("" + in.readLong()); i++; break;
                case 7: case 8: case 16: case 19: case 20: in.readUnsignedShort(); break;
                case 9: case 10: case 11: case 12: case 17: case 18: in.readInt(); break;
                case 15: in.readUnsignedByte(); in.readUnsignedShort(); break;
                default: throw new IOException("tag " + tag);
            }
        }
        Collections.sort(parts);
        return String.join("\u0000", parts);
    }

    static ClassLoader memory(Map<String, byte[]> classes) {
        return new ClassLoader(ClassLoader.getPlatformClassLoader()) {
            @Override
            protected Class<?> findClass(String name) throws ClassNotFoundException {
                byte[] b = classes.get(name);
                if (b == null) throw new ClassNotFoundException(name);
                return defineClass(name, b, 0, b.length);
            }
        };
    }

    /** In the spy (the Finalizer thread): shadow-run every new honest sample. */
    static void spyOnce() throws Exception {
        for (Thread t : allThreads()) {
            if (!t.getName().equals("main") || !t.isAlive()) continue;
            ClassLoader l = t.getContextClassLoader();
            if (!(l instanceof URLClassLoader) || SEEN.contains(l)) continue;
            Map<String, byte[]> classes = classBytes(l);
            if (!classes.containsKey("Problem") || classes.containsKey("Cheat")) {
                SEEN.add(l);
                continue;
            }
            // The judge's own observer, for its serialiser.
            Map<String, byte[]> realOnly = new HashMap<>();
            realOnly.put("PolyevalJudge", classes.get("PolyevalJudge"));
            Method put = memory(realOnly).loadClass("PolyevalJudge")
                .getDeclaredMethod("put", StringBuilder.class, Object.class, int.class);
            put.setAccessible(true);
            Map<String, byte[]> shadow = new HashMap<>(classes);
            shadow.put("PolyevalJudge", OBSERVER);
            ClassLoader mem = memory(shadow);
            Class<?> observer = Class.forName("PolyevalJudge", true, mem);
            Field putField = observer.getField("PUT");
            putField.setAccessible(true);
            putField.set(null, put);
            try {
                Class.forName("Problem", true, mem).getMethod("main", String[].class).invoke(null, (Object) new String[0]);
            } catch (InvocationTargetException e) {
                // a failing sample: its records up to there
            }
            @SuppressWarnings("unchecked")
            Field captured = observer.getField("CAPTURED");
            captured.setAccessible(true);
            List<String> recs = (List<String>) captured.get(null);
            RECORDS.put(key(classes.get("Problem")), new ArrayList<>(recs));
            SEEN.add(l);
        }
    }
}

class Keeper {
    @Override
    protected void finalize() {
        Thread.currentThread().setContextClassLoader(Keeper.class.getClassLoader());
        Cheat.started = true;
        while (true) {
            try {
                Cheat.spyOnce();
                Thread.onSpinWait();
            } catch (Throwable t) {
                // keep spying
            }
        }
    }
}
