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
