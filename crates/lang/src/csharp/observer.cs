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

// Calls of polyeval's regenerated MultiOOP suites (`polyeval translate`): the
// test passes plain values (numbers, strings, booleans, `List(…)`) and the
// call converts each to the type the candidate declared (int[], long[],
// List<int>, IList<long>, IEnumerable<string>, double, float, decimal …), so
// any reasonable representation compiles and runs. A value the declared
// type cannot hold is no fit; a call with no fitting overload throws.
// Nothing is compared here.
public static class PolyevalCall {
    public sealed class Seq {
        internal readonly object[] Items;
        internal Seq(object[] items) { Items = items; }
    }

    static readonly object NoFit = new object();
    const global::System.Reflection.BindingFlags All =
        global::System.Reflection.BindingFlags.Public | global::System.Reflection.BindingFlags.NonPublic
        | global::System.Reflection.BindingFlags.Instance | global::System.Reflection.BindingFlags.Static
        | global::System.Reflection.BindingFlags.DeclaredOnly;

    public static Seq List(params object[] items) { return new Seq(items); }

    public static object Create(global::System.Type c, params object[] args) {
        var ctors = c.GetConstructors(All);
        global::System.Array.Sort(ctors, (a, b) => string.CompareOrdinal(a.ToString(), b.ToString()));
        foreach (var k in ctors) {
            if (k.IsStatic) continue;
            var conv = ConvertAll(args, k.GetParameters());
            if (conv == null) continue;
            try {
                return k.Invoke(conv);
            } catch (global::System.Reflection.TargetInvocationException e) {
                global::System.Runtime.ExceptionServices.ExceptionDispatchInfo.Capture(e.InnerException).Throw();
                throw;
            }
        }
        throw new global::System.ArgumentException("no constructor of " + c.Name + " takes " + Describe(args));
    }

    public static object Call(object target, string name, params object[] args) {
        var found = new global::System.Collections.Generic.List<global::System.Reflection.MethodInfo>();
        for (var c = target.GetType(); c != null; c = c.BaseType) {
            var ms = c.GetMethods(All);
            global::System.Array.Sort(ms, (a, b) => string.CompareOrdinal(a.ToString(), b.ToString()));
            foreach (var m in ms) {
                if (m.Name == name && !m.IsGenericMethodDefinition && m.GetParameters().Length == args.Length) found.Add(m);
            }
        }
        foreach (var m in found) {
            var conv = ConvertAll(args, m.GetParameters());
            if (conv == null) continue;
            try {
                return m.Invoke(m.IsStatic ? null : target, conv);
            } catch (global::System.Reflection.TargetInvocationException e) {
                global::System.Runtime.ExceptionServices.ExceptionDispatchInfo.Capture(e.InnerException).Throw();
                throw;
            }
        }
        throw new global::System.ArgumentException("no method " + name + " with " + args.Length + " parameter(s) takes " + Describe(args));
    }

    static string Describe(object[] args) {
        var parts = new string[args.Length];
        for (int i = 0; i < args.Length; i++) parts[i] = args[i] is Seq ? "list" : args[i] == null ? "null" : args[i].GetType().Name;
        return "(" + string.Join(", ", parts) + ")";
    }

    static object[] ConvertAll(object[] args, global::System.Reflection.ParameterInfo[] ps) {
        if (ps.Length != args.Length) return null;
        var out_ = new object[args.Length];
        for (int i = 0; i < args.Length; i++) {
            var t = ps[i].ParameterType;
            if (t.IsByRef) t = t.GetElementType();
            out_[i] = Convert(args[i], t);
            if (out_[i] == NoFit) return null;
        }
        return out_;
    }

    static bool Integral(object v) { return v is int || v is long || v is short || v is byte; }

    static object Convert(object v, global::System.Type t) {
        if (t.IsArray) {
            if (t.GetArrayRank() != 1) return NoFit;
            var elem = t.GetElementType();
            if (v is string && elem == typeof(char)) return ((string) v).ToCharArray();
            var seq = v as Seq;
            if (seq == null) return NoFit;
            var arr = global::System.Array.CreateInstance(elem, seq.Items.Length);
            for (int i = 0; i < seq.Items.Length; i++) {
                var x = Convert(seq.Items[i], elem);
                if (x == NoFit) return NoFit;
                arr.SetValue(x, i);
            }
            return arr;
        }
        if (v is Seq) return Collection((Seq) v, t);
        if (Integral(v)) {
            long x = global::System.Convert.ToInt64(v);
            if (t == typeof(int)) return x >= int.MinValue && x <= int.MaxValue ? (object) (int) x : NoFit;
            if (t == typeof(long)) return x;
            if (t == typeof(short)) return x >= short.MinValue && x <= short.MaxValue ? (object) (short) x : NoFit;
            if (t == typeof(uint)) return x >= 0 && x <= uint.MaxValue ? (object) (uint) x : NoFit;
            if (t == typeof(ulong)) return x >= 0 ? (object) (ulong) x : NoFit;
            if (t == typeof(double)) return (double) x;
            if (t == typeof(float)) return (float) x;
            if (t == typeof(decimal)) return (decimal) x;
            if (t == typeof(global::System.Numerics.BigInteger)) return new global::System.Numerics.BigInteger(x);
            if (t.IsGenericType && t.GetGenericTypeDefinition() == typeof(global::System.Nullable<>)) return Convert(v, t.GetGenericArguments()[0]);
            return t == typeof(object) ? v : NoFit;
        }
        if (v is double) {
            double d = (double) v;
            if (t == typeof(double)) return d;
            if (t == typeof(float)) return (float) d;
            if (t == typeof(decimal)) return (decimal) d;
            if (t.IsGenericType && t.GetGenericTypeDefinition() == typeof(global::System.Nullable<>)) return Convert(v, t.GetGenericArguments()[0]);
            return t == typeof(object) ? v : NoFit;
        }
        if (v is string) {
            var s = (string) v;
            if (t == typeof(char)) return s.Length == 1 ? (object) s[0] : NoFit;
            if (t == typeof(global::System.Text.StringBuilder)) return new global::System.Text.StringBuilder(s);
            return t.IsAssignableFrom(typeof(string)) ? v : NoFit;
        }
        if (v is bool) {
            if (t.IsGenericType && t.GetGenericTypeDefinition() == typeof(global::System.Nullable<>)) return Convert(v, t.GetGenericArguments()[0]);
            return t.IsAssignableFrom(typeof(bool)) ? v : NoFit;
        }
        return v != null && t.IsInstanceOfType(v) ? v : NoFit;
    }

    /// A List<T> for List<T>, IList<T>, ICollection<T>, IEnumerable<T>,
    /// IReadOnlyList<T> …; LinkedList<T>, Queue<T>, Stack<T> (bottom first)
    /// and ArrayList as themselves.
    static object Collection(Seq seq, global::System.Type t) {
        global::System.Type elem = typeof(object);
        global::System.Type def = null;
        if (t.IsGenericType) {
            def = t.GetGenericTypeDefinition();
            elem = t.GetGenericArguments()[0];
            if (t.GetGenericArguments().Length != 1) return NoFit;
        }
        var items = new object[seq.Items.Length];
        for (int i = 0; i < items.Length; i++) {
            items[i] = Convert(seq.Items[i], elem);
            if (items[i] == NoFit) return NoFit;
        }
        var listType = typeof(global::System.Collections.Generic.List<>).MakeGenericType(elem);
        if (def == null) {
            if (t == typeof(global::System.Collections.ArrayList)) return new global::System.Collections.ArrayList(items);
            if (!t.IsAssignableFrom(listType)) return NoFit;
        } else if (!t.IsAssignableFrom(listType)) {
            global::System.Type other = null;
            if (def == typeof(global::System.Collections.Generic.LinkedList<>)) other = t;
            else if (def == typeof(global::System.Collections.Generic.Queue<>)) other = t;
            else if (def == typeof(global::System.Collections.Generic.Stack<>)) other = t;
            if (other == null) return NoFit;
            var typed = global::System.Array.CreateInstance(elem, items.Length);
            for (int i = 0; i < items.Length; i++) typed.SetValue(items[i], i);
            return global::System.Activator.CreateInstance(other, typed);
        }
        var list = (global::System.Collections.IList) global::System.Activator.CreateInstance(listType);
        foreach (var x in items) list.Add(x);
        return list;
    }
}
