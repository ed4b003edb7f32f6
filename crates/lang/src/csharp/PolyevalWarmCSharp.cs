// polyeval warm C# worker: one mono process, started by the warm zygote
// (zygote.py, mode "vm") inside the sandbox, compiles every sample with mcs
// in-process (the compiler of /usr/bin/mcs, loaded once and reset per
// compile); the zygote then runs the compiled program with the cold run's
// own command, in a process of its own. Samples never run in this process,
// and it is not dumpable (prctl), so no sample can reach its memory or
// descriptors either.
//
// Protocol: requests on fd 3, one line each: "<token>\t" then mcs's
// arguments separated by tabs; replies on fd 4: "ready\n" once, then
// per request one line "<token> <mcs exit code> 0 - <compile ms> <n>\n"
// followed by n bytes of what mcs would have printed (its summary line,
// then its diagnostics).

using System;
using System.Diagnostics;
using System.IO;
using System.Reflection;
using System.Runtime.InteropServices;
using System.Text;
using System.Text.RegularExpressions;

static class PolyevalWarmCSharp {
    const string Mcs = "/usr/lib/mono/4.5/mcs.exe";
    const int PR_SET_DUMPABLE = 4;

    [DllImport("libc", SetLastError = true)]
    static extern int prctl(int option, ulong arg2, ulong arg3, ulong arg4, ulong arg5);

    static int Main(string[] args) {
        if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0) {
            Console.Error.WriteLine("polyeval warm worker: cannot make this process non-dumpable");
            return 2;
        }
        var requests = new StreamReader(new FileStream("/proc/self/fd/3", FileMode.Open, FileAccess.Read), new UTF8Encoding(false));
        var replies = new FileStream("/proc/self/fd/4", FileMode.Open, FileAccess.Write);
        MethodInfo invoke = Assembly.LoadFrom(Mcs)
            .GetType("Mono.CSharp.CompilerCallableEntryPoint", true)
            .GetMethod("InvokeCompiler", new[] { typeof(string[]), typeof(TextWriter) });
        if (args.Length > 0) {
            // Warm up: the first compile pays for loading and JIT-compiling mcs.
            Directory.CreateDirectory(args[0]);
            string src = Path.Combine(args[0], "warmup.cs");
            File.WriteAllText(src, "using System; using System.Collections.Generic;\nclass P { static void Main() { var l = new List<int> { 1 }; Console.WriteLine(string.Join(\",\", l)); } }\n");
            invoke.Invoke(null, new object[] { new[] { "-out:" + Path.Combine(args[0], "warmup.exe"), src }, new StringWriter() });
        }
        Write(replies, Encoding.ASCII.GetBytes("ready\n"));
        string line;
        while ((line = requests.ReadLine()) != null) {
            string[] fields = line.Split('\t');
            string token = fields[0];
            string[] mcsArgs = new string[fields.Length - 1];
            Array.Copy(fields, 1, mcsArgs, 0, mcsArgs.Length);
            var diagnostics = new StringWriter();
            var clock = Stopwatch.StartNew();
            bool ok = (bool)invoke.Invoke(null, new object[] { mcsArgs, diagnostics });
            long ms = clock.ElapsedMilliseconds;
            string text = diagnostics.ToString();
            // What mcs's own Main prints on stdout, before stderr's diagnostics.
            int errors = Regex.Matches(text, @"(^|: )error CS\d+", RegexOptions.Multiline).Count;
            int warnings = Regex.Matches(text, @"(^|: )warning CS\d+", RegexOptions.Multiline).Count;
            string summary = !ok
                ? string.Format("Compilation failed: {0} error(s), {1} warnings\n", errors, warnings)
                : warnings > 0 ? string.Format("Compilation succeeded - {0} warning(s)\n", warnings) : "";
            byte[] body = new UTF8Encoding(false).GetBytes(summary + text);
            string head = string.Format("{0} {1} 0 - {2} {3}\n", token, ok ? 0 : 1, ms, body.Length);
            var reply = new MemoryStream();
            byte[] h = Encoding.ASCII.GetBytes(head);
            reply.Write(h, 0, h.Length);
            reply.Write(body, 0, body.Length);
            Write(replies, reply.ToArray());
        }
        return 0;
    }

    static void Write(Stream s, byte[] data) {
        s.Write(data, 0, data.Length);
        s.Flush();
    }
}
