// polyeval judge observer (C#). Reports values on its own stream over the
// stdout descriptor (Console.SetOut cannot redirect it); expected values are
// compared outside the sandbox.
public static class PolyevalJudge {
    static readonly global::System.IO.Stream Out = global::System.Console.OpenStandardOutput();
    const int MaxDepth = 100;
    const int MaxChars = 64 << 20;

    static void Emit(string json) {
        byte[] b = new global::System.Text.UTF8Encoding(false).GetBytes("\n\u001epolyeval-judge " + json + "\n");
        try {
            Out.Write(b, 0, b.Length);
            Out.Flush();
        } catch (global::System.Exception) {
        }
    }

    static void Str(global::System.Text.StringBuilder sb, string s) {
        sb.Append('"');
        foreach (char c in s) {
            switch (c) {
                case '"': sb.Append("\\\""); break;
                case '\\': sb.Append("\\\\"); break;
                case '\n': sb.Append("\\n"); break;
                case '\r': sb.Append("\\r"); break;
                case '\t': sb.Append("\\t"); break;
                default:
                    if (c < 0x20 || c == 0x7f || char.IsSurrogate(c)) {
                        sb.Append("\\u").Append(((int) c).ToString("x4"));
                    } else {
                        sb.Append(c);
                    }
                    break;
            }
        }
        sb.Append('"');
    }

    static void Dbl(global::System.Text.StringBuilder sb, double d) {
        if (double.IsNaN(d)) { sb.Append("{\"float\":\"nan\"}"); return; }
        if (double.IsInfinity(d)) { sb.Append(d > 0 ? "{\"float\":\"inf\"}" : "{\"float\":\"-inf\"}"); return; }
        string t = d.ToString("R", global::System.Globalization.CultureInfo.InvariantCulture);
        sb.Append(t);
        if (t.IndexOf('.') < 0 && t.IndexOf('E') < 0) sb.Append(".0");
    }

    static bool IsGeneric(global::System.Type t, string prefix) {
        return t.IsGenericType && t.GetGenericTypeDefinition().FullName.StartsWith(prefix);
    }

    static bool IsSet(global::System.Type t) {
        foreach (var i in t.GetInterfaces()) {
            if (i.IsGenericType && i.GetGenericTypeDefinition() == typeof(global::System.Collections.Generic.ISet<>)) return true;
        }
        return false;
    }

    static void Put(global::System.Text.StringBuilder sb, object v, int depth) {
        if (depth > MaxDepth || sb.Length > MaxChars) { sb.Append("{\"truncated\":null}"); return; }
        if (v == null) { sb.Append("null"); return; }
        if (v is bool) { sb.Append((bool) v ? "true" : "false"); return; }
        if (v is char) { sb.Append("{\"char\":").Append((int) (char) v).Append('}'); return; }
        if (v is sbyte || v is byte || v is short || v is ushort || v is int || v is uint || v is long) {
            sb.Append(global::System.Convert.ToInt64(v).ToString(global::System.Globalization.CultureInfo.InvariantCulture));
            return;
        }
        if (v is ulong) {
            ulong u = (ulong) v;
            if (u <= long.MaxValue) sb.Append(u.ToString(global::System.Globalization.CultureInfo.InvariantCulture));
            else sb.Append("{\"int\":\"").Append(u.ToString(global::System.Globalization.CultureInfo.InvariantCulture)).Append("\"}");
            return;
        }
        if (v is global::System.Numerics.BigInteger) {
            sb.Append("{\"int\":\"").Append(((global::System.Numerics.BigInteger) v).ToString(global::System.Globalization.CultureInfo.InvariantCulture)).Append("\"}");
            return;
        }
        if (v is float || v is double) { Dbl(sb, global::System.Convert.ToDouble(v)); return; }
        if (v is decimal) {
            sb.Append("{\"float\":\"").Append(((decimal) v).ToString(global::System.Globalization.CultureInfo.InvariantCulture)).Append("\"}");
            return;
        }
        if (v is string) { Str(sb, (string) v); return; }
        var type = v.GetType();
        if (v is global::System.Collections.IDictionary) {
            sb.Append("{\"map\":[");
            bool first = true;
            foreach (global::System.Collections.DictionaryEntry e in (global::System.Collections.IDictionary) v) {
                if (!first) sb.Append(',');
                first = false;
                sb.Append('[');
                Put(sb, e.Key, depth + 1);
                sb.Append(',');
                Put(sb, e.Value, depth + 1);
                sb.Append(']');
                if (sb.Length > MaxChars) break;
            }
            sb.Append("]}");
            return;
        }
        if (IsGeneric(type, "System.Collections.Generic.KeyValuePair`")) {
            sb.Append("{\"tuple\":[");
            Put(sb, type.GetProperty("Key").GetValue(v, null), depth + 1);
            sb.Append(',');
            Put(sb, type.GetProperty("Value").GetValue(v, null), depth + 1);
            sb.Append("]}");
            return;
        }
        if (IsGeneric(type, "System.Tuple`") || IsGeneric(type, "System.ValueTuple`")) {
            sb.Append("{\"tuple\":[");
            for (int i = 1; i <= 7; i++) {
                object item;
                var f = type.GetField("Item" + i);
                if (f != null) item = f.GetValue(v);
                else {
                    var p = type.GetProperty("Item" + i);
                    if (p == null) break;
                    item = p.GetValue(v, null);
                }
                if (i > 1) sb.Append(',');
                Put(sb, item, depth + 1);
            }
            sb.Append("]}");
            return;
        }
        if (v is global::System.Collections.IEnumerable) {
            bool set = IsSet(type);
            sb.Append(set ? "{\"set\":[" : "[");
            bool first = true;
            foreach (object o in (global::System.Collections.IEnumerable) v) {
                if (!first) sb.Append(',');
                first = false;
                Put(sb, o, depth + 1);
                if (sb.Length > MaxChars) break;
            }
            sb.Append(set ? "]}" : "]");
            return;
        }
        sb.Append("{\"object\":");
        Str(sb, type.FullName ?? type.Name);
        sb.Append('}');
    }

    public static void Observe(int t, object v) {
        var sb = new global::System.Text.StringBuilder();
        sb.Append("{\"t\":").Append(t).Append(",\"v\":");
        try {
            Put(sb, v, 0);
        } catch (global::System.Exception) {
            sb.Length = 0;
            sb.Append("{\"t\":").Append(t).Append(",\"v\":{\"truncated\":null}");
        }
        sb.Append('}');
        Emit(sb.ToString());
    }

    public static void Raised(int t, global::System.Exception e) {
        string message;
        try { message = e.Message ?? ""; } catch (global::System.Exception) { message = ""; }
        if (message.Length > 500) message = message.Substring(0, 500);
        var sb = new global::System.Text.StringBuilder();
        sb.Append("{\"t\":").Append(t).Append(",\"raised\":{\"type\":");
        Str(sb, e.GetType().Name);
        sb.Append(",\"message\":");
        Str(sb, message);
        sb.Append("}}");
        Emit(sb.ToString());
    }

    static void Tamper(string evidence) {
        var sb = new global::System.Text.StringBuilder("{\"tamper\":");
        Str(sb, evidence);
        sb.Append('}');
        Emit(sb.ToString());
    }

    public static void Finish() {
        // polyeval's mono launcher installs exactly one listener that fails
        // the run on a failed Debug.Assert.
        var listeners = global::System.Diagnostics.Trace.Listeners;
        bool ours = false;
        foreach (object l in listeners) {
            if (l != null && l.GetType().Name == "PolyevalFailListener") ours = true;
        }
        if (!ours || listeners.Count != 1) {
            Tamper("Trace.Listeners was changed (the failed-assertion listener is gone or joined)");
        }
        Emit("{\"end\":null}");
    }
}
