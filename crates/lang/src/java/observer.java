// polyeval judge observer (Java). Reports values on a stream of its own over
// the stdout descriptor (System.setOut cannot redirect it); expected values
// are compared outside the sandbox.
final class PolyevalJudge {
    private static final java.io.FileOutputStream OUT =
        new java.io.FileOutputStream(java.io.FileDescriptor.out);
    private static final int MAX_DEPTH = 100;
    private static final int MAX_CHARS = 64 << 20;

    private PolyevalJudge() {}

    private static void emit(String json) {
        byte[] b = ("\n\u001epolyeval-judge " + json + "\n")
            .getBytes(java.nio.charset.StandardCharsets.UTF_8);
        try {
            OUT.write(b);
            OUT.flush();
        } catch (java.io.IOException e) {
            // Nothing to report to: the verdict will miss this record.
        }
    }

    private static void str(StringBuilder sb, String s) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"': sb.append("\\\""); break;
                case '\\': sb.append("\\\\"); break;
                case '\n': sb.append("\\n"); break;
                case '\r': sb.append("\\r"); break;
                case '\t': sb.append("\\t"); break;
                default:
                    if (c < 0x20 || c == 0x7f || Character.isSurrogate(c)) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
            }
        }
        sb.append('"');
    }

    private static void dbl(StringBuilder sb, double d) {
        if (Double.isNaN(d)) { sb.append("{\"float\":\"nan\"}"); return; }
        if (Double.isInfinite(d)) { sb.append(d > 0 ? "{\"float\":\"inf\"}" : "{\"float\":\"-inf\"}"); return; }
        String t = Double.toString(d);
        sb.append(t);
        if (t.indexOf('.') < 0 && t.indexOf('E') < 0) sb.append(".0");
    }

    private static void put(StringBuilder sb, Object v, int depth) {
        if (depth > MAX_DEPTH || sb.length() > MAX_CHARS) { sb.append("{\"truncated\":null}"); return; }
        if (v == null) { sb.append("null"); return; }
        if (v instanceof Boolean) { sb.append(((Boolean) v) ? "true" : "false"); return; }
        if (v instanceof Character) { sb.append("{\"char\":").append((int) (Character) v).append('}'); return; }
        if (v instanceof Byte || v instanceof Short || v instanceof Integer || v instanceof Long) {
            sb.append(((Number) v).longValue());
            return;
        }
        if (v instanceof java.math.BigInteger) {
            sb.append("{\"int\":\"").append(v.toString()).append("\"}");
            return;
        }
        if (v instanceof Float || v instanceof Double) { dbl(sb, ((Number) v).doubleValue()); return; }
        if (v instanceof java.math.BigDecimal) {
            sb.append("{\"float\":\"").append(((java.math.BigDecimal) v).toString()).append("\"}");
            return;
        }
        if (v instanceof String) { str(sb, (String) v); return; }
        Class<?> c = v.getClass();
        if (c.isArray()) {
            int n = java.lang.reflect.Array.getLength(v);
            sb.append('[');
            for (int i = 0; i < n; i++) {
                if (i > 0) sb.append(',');
                put(sb, java.lang.reflect.Array.get(v, i), depth + 1);
                if (sb.length() > MAX_CHARS) break;
            }
            sb.append(']');
            return;
        }
        if (v instanceof java.util.Map) {
            sb.append("{\"map\":[");
            boolean first = true;
            for (Object o : ((java.util.Map<?, ?>) v).entrySet()) {
                java.util.Map.Entry<?, ?> e = (java.util.Map.Entry<?, ?>) o;
                if (!first) sb.append(',');
                first = false;
                sb.append('[');
                put(sb, e.getKey(), depth + 1);
                sb.append(',');
                put(sb, e.getValue(), depth + 1);
                sb.append(']');
                if (sb.length() > MAX_CHARS) break;
            }
            sb.append("]}");
            return;
        }
        if (v instanceof java.util.Collection) {
            boolean set = v instanceof java.util.Set;
            sb.append(set ? "{\"set\":[" : "[");
            boolean first = true;
            for (Object o : (java.util.Collection<?>) v) {
                if (!first) sb.append(',');
                first = false;
                put(sb, o, depth + 1);
                if (sb.length() > MAX_CHARS) break;
            }
            sb.append(set ? "]}" : "]");
            return;
        }
        if (v instanceof java.util.Optional) {
            java.util.Optional<?> o = (java.util.Optional<?>) v;
            if (o.isPresent()) put(sb, o.get(), depth + 1); else sb.append("null");
            return;
        }
        if (v instanceof java.util.Map.Entry) {
            java.util.Map.Entry<?, ?> e = (java.util.Map.Entry<?, ?>) v;
            sb.append("{\"tuple\":[");
            put(sb, e.getKey(), depth + 1);
            sb.append(',');
            put(sb, e.getValue(), depth + 1);
            sb.append("]}");
            return;
        }
        sb.append("{\"object\":");
        str(sb, c.getName());
        sb.append('}');
    }

    static void observe(int t, Object v) {
        StringBuilder sb = new StringBuilder();
        sb.append("{\"t\":").append(t).append(",\"v\":");
        try {
            put(sb, v, 0);
        } catch (RuntimeException | StackOverflowError e) {
            sb.setLength(0);
            sb.append("{\"t\":").append(t).append(",\"v\":{\"truncated\":null}");
        }
        sb.append('}');
        emit(sb.toString());
    }

    static void raised(int t, Throwable e) {
        String message;
        try {
            message = String.valueOf(e.getMessage());
        } catch (RuntimeException x) {
            message = "";
        }
        if (message.length() > 500) message = message.substring(0, 500);
        StringBuilder sb = new StringBuilder();
        sb.append("{\"t\":").append(t).append(",\"raised\":{\"type\":");
        str(sb, e.getClass().getSimpleName());
        sb.append(",\"message\":");
        str(sb, message);
        sb.append("}}");
        emit(sb.toString());
    }

    private static void tamper(String evidence) {
        StringBuilder sb = new StringBuilder("{\"tamper\":");
        str(sb, evidence);
        sb.append('}');
        emit(sb.toString());
    }

    static void finish() {
        if (Thread.getDefaultUncaughtExceptionHandler() != null) {
            tamper("Thread.setDefaultUncaughtExceptionHandler installed a handler");
        }
        if (!(Thread.currentThread().getUncaughtExceptionHandler() instanceof ThreadGroup)) {
            tamper("the main thread has its own uncaught-exception handler");
        }
        emit("{\"end\":null}");
    }
}

// Calls of polyeval's regenerated MultiOOP suites (`polyeval translate`): the
// test passes plain values (numbers, strings, booleans, `list(…)`) and the
// call converts each to the type the candidate declared (int[], long[],
// Integer[], List<Long>, ArrayList<String>, Collection<…>, double, float,
// String, char …), so any reasonable representation compiles and runs. A
// value the declared type cannot hold (0.5 for an int, 2^40 for an int) is
// no fit; a call with no fitting overload throws. Nothing is compared here.
final class PolyevalCall {
    private PolyevalCall() {}

    /** A list argument. */
    static final class Seq {
        final Object[] items;
        Seq(Object[] items) { this.items = items; }
    }

    private static final Object NO_FIT = new Object();

    static Seq list(Object... items) { return new Seq(items); }

    /** `new c(args…)` through the constructor the arguments fit. */
    static Object create(Class<?> c, Object... args) {
        java.lang.reflect.Constructor<?>[] all = c.getDeclaredConstructors();
        java.util.Arrays.sort(all, java.util.Comparator.comparing(java.lang.reflect.Constructor::toGenericString));
        for (java.lang.reflect.Constructor<?> k : all) {
            if (k.isSynthetic() || k.getParameterCount() != args.length) continue;
            Object[] conv = convertAll(args, k.getGenericParameterTypes());
            if (conv == null) continue;
            k.setAccessible(true);
            try {
                return k.newInstance(conv);
            } catch (java.lang.reflect.InvocationTargetException e) {
                throw PolyevalCall.<RuntimeException>sneaky(e.getCause());
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("cannot construct " + c.getName() + ": " + e);
            }
        }
        throw new IllegalArgumentException("no constructor of " + c.getName() + " takes " + describe(args));
    }

    /** `target.name(args…)` through the method (of its class or a superclass) the arguments fit. */
    static Object call(Object target, String name, Object... args) {
        java.util.List<java.lang.reflect.Method> found = new java.util.ArrayList<>();
        for (Class<?> c = target.getClass(); c != null; c = c.getSuperclass()) {
            java.lang.reflect.Method[] ms = c.getDeclaredMethods();
            java.util.Arrays.sort(ms, java.util.Comparator.comparing(java.lang.reflect.Method::toGenericString));
            for (java.lang.reflect.Method m : ms) {
                if (m.getName().equals(name) && !m.isBridge() && !m.isSynthetic()
                    && m.getParameterCount() == args.length) found.add(m);
            }
        }
        for (java.lang.reflect.Method m : found) {
            Object[] conv = convertAll(args, m.getGenericParameterTypes());
            if (conv == null) continue;
            m.setAccessible(true);
            try {
                return m.invoke(target, conv);
            } catch (java.lang.reflect.InvocationTargetException e) {
                throw PolyevalCall.<RuntimeException>sneaky(e.getCause());
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("cannot call " + name + ": " + e);
            }
        }
        throw new IllegalArgumentException(
            (found.isEmpty() ? "no method " : "no overload of ") + name + " takes " + describe(args));
    }

    @SuppressWarnings("unchecked")
    private static <E extends Throwable> E sneaky(Throwable t) throws E {
        throw (E) t;
    }

    private static String describe(Object[] args) {
        StringBuilder sb = new StringBuilder("(");
        for (int i = 0; i < args.length; i++) {
            if (i > 0) sb.append(", ");
            sb.append(args[i] instanceof Seq ? "list" : args[i] == null ? "null" : args[i].getClass().getSimpleName());
        }
        return sb.append(')').toString();
    }

    private static Object[] convertAll(Object[] args, java.lang.reflect.Type[] types) {
        Object[] out = new Object[args.length];
        for (int i = 0; i < args.length; i++) {
            out[i] = convert(args[i], types[i]);
            if (out[i] == NO_FIT) return null;
        }
        return out;
    }

    private static boolean integral(Object v) {
        return v instanceof Integer || v instanceof Long || v instanceof Short || v instanceof Byte;
    }

    private static Object convert(Object v, java.lang.reflect.Type t) {
        if (t instanceof java.lang.reflect.WildcardType) {
            java.lang.reflect.Type[] up = ((java.lang.reflect.WildcardType) t).getUpperBounds();
            return convert(v, up.length > 0 ? up[0] : Object.class);
        }
        if (t instanceof java.lang.reflect.TypeVariable) {
            java.lang.reflect.Type[] up = ((java.lang.reflect.TypeVariable<?>) t).getBounds();
            return convert(v, up.length > 0 ? up[0] : Object.class);
        }
        if (t instanceof java.lang.reflect.GenericArrayType) {
            java.lang.reflect.Type comp = ((java.lang.reflect.GenericArrayType) t).getGenericComponentType();
            return array(v, comp, raw(comp));
        }
        if (t instanceof java.lang.reflect.ParameterizedType) {
            java.lang.reflect.ParameterizedType p = (java.lang.reflect.ParameterizedType) t;
            java.lang.reflect.Type[] targs = p.getActualTypeArguments();
            return collection(v, raw(p.getRawType()), targs.length == 1 ? targs[0] : Object.class);
        }
        if (!(t instanceof Class)) return NO_FIT;
        Class<?> c = (Class<?>) t;
        if (c.isArray()) {
            if (v instanceof String && c == char[].class) return ((String) v).toCharArray();
            return array(v, c.getComponentType(), c.getComponentType());
        }
        if (v instanceof Seq) return collection(v, c, Object.class);
        if (c == int.class || c == Integer.class) {
            if (!integral(v)) return NO_FIT;
            long x = ((Number) v).longValue();
            return x == (int) x ? (Object) (int) x : NO_FIT;
        }
        if (c == long.class || c == Long.class) return integral(v) ? (Object) ((Number) v).longValue() : NO_FIT;
        if (c == short.class || c == Short.class) {
            if (!integral(v)) return NO_FIT;
            long x = ((Number) v).longValue();
            return x == (short) x ? (Object) (short) x : NO_FIT;
        }
        if (c == byte.class || c == Byte.class) {
            if (!integral(v)) return NO_FIT;
            long x = ((Number) v).longValue();
            return x == (byte) x ? (Object) (byte) x : NO_FIT;
        }
        if (c == double.class || c == Double.class) return v instanceof Number ? (Object) ((Number) v).doubleValue() : NO_FIT;
        if (c == float.class || c == Float.class) return v instanceof Number ? (Object) ((Number) v).floatValue() : NO_FIT;
        if (c == java.math.BigInteger.class) return integral(v) ? java.math.BigInteger.valueOf(((Number) v).longValue()) : NO_FIT;
        if (c == java.math.BigDecimal.class) {
            if (integral(v)) return java.math.BigDecimal.valueOf(((Number) v).longValue());
            return v instanceof Number ? java.math.BigDecimal.valueOf(((Number) v).doubleValue()) : NO_FIT;
        }
        if (c == boolean.class || c == Boolean.class) return v instanceof Boolean ? v : NO_FIT;
        if (c == char.class || c == Character.class) {
            return v instanceof String && ((String) v).length() == 1 ? (Object) ((String) v).charAt(0) : NO_FIT;
        }
        if (c == StringBuilder.class) return v instanceof String ? new StringBuilder((String) v) : NO_FIT;
        if (v instanceof String) return c.isAssignableFrom(String.class) ? v : NO_FIT;
        return c.isInstance(v) ? v : NO_FIT;
    }

    private static Class<?> raw(java.lang.reflect.Type t) {
        if (t instanceof Class) return (Class<?>) t;
        if (t instanceof java.lang.reflect.ParameterizedType) return raw(((java.lang.reflect.ParameterizedType) t).getRawType());
        if (t instanceof java.lang.reflect.GenericArrayType) {
            return java.lang.reflect.Array.newInstance(raw(((java.lang.reflect.GenericArrayType) t).getGenericComponentType()), 0).getClass();
        }
        return Object.class;
    }

    private static Object array(Object v, java.lang.reflect.Type elem, Class<?> elemClass) {
        if (!(v instanceof Seq)) return NO_FIT;
        Object[] items = ((Seq) v).items;
        Object out = java.lang.reflect.Array.newInstance(elemClass, items.length);
        for (int i = 0; i < items.length; i++) {
            Object x = convert(items[i], elem);
            if (x == NO_FIT) return NO_FIT;
            java.lang.reflect.Array.set(out, i, x);
        }
        return out;
    }

    /** A list, an ArrayList, a LinkedList, … (whichever `c` is) of `elem`s. */
    @SuppressWarnings("unchecked")
    private static Object collection(Object v, Class<?> c, java.lang.reflect.Type elem) {
        if (!(v instanceof Seq)) {
            return c.isInstance(v) && !(v instanceof java.util.Collection) ? v : NO_FIT;
        }
        java.util.Collection<Object> out;
        if (c.isAssignableFrom(java.util.ArrayList.class)) {
            out = new java.util.ArrayList<>();
        } else if (c.isAssignableFrom(java.util.LinkedList.class)) {
            out = new java.util.LinkedList<>();
        } else if (c.isAssignableFrom(java.util.ArrayDeque.class)) {
            out = new java.util.ArrayDeque<>();
        } else if (c == java.util.Vector.class) {
            out = new java.util.Vector<>();
        } else {
            return NO_FIT;
        }
        for (Object item : ((Seq) v).items) {
            Object x = convert(item, elem);
            if (x == NO_FIT) return NO_FIT;
            out.add(x);
        }
        return out;
    }
}
