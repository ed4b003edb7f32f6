//! Samples that attack the warm worker they run in, one of each kind found
//! by trying, in every warm language: files that outlive their sample
//! (planted modules, a read-only work dir, directories that can't be
//! listed), writes to the memory of the zygote or the runtime
//! (`/proc/<pid>/mem`), the runtime's reply channel and the zygote's
//! control socket (forged replies), finalizers and cleaners left to run
//! later (in every language: finalizers, exit handlers, timers), the
//! worker's rlimits and priority, System V IPC objects, sockets
//! left closing, JDK modules a warm JVM lacked. Each is followed in the
//! same worker by a correct and a wrong sample: the correct one passes
//! (and finds a fresh world: no file, IPC object or socket of an earlier
//! sample), the wrong one fails, and every verdict equals the cold one. An
//! attack prints `BREACH` when it reaches what it aimed at; none may.

use polyeval_lang::toolchain::{Job, Limits};
use polyeval_lang::{status::Status, Language};
use polyeval_sandbox::{Engine, EngineConfig, Outcome, WarmStats};
use std::time::Duration;

fn engine(warm: bool) -> Engine {
    Engine::new(EngineConfig {
        jobs: 1,
        limits: Limits {
            timeout: Duration::from_secs(5),
            cpu_secs: 5,
            memory_mb: 512,
            ..Limits::default()
        },
        cache: false,
    })
    .expect("engine starts (bwrap installed?)")
    .with_warm_workers(warm)
}

fn dump(o: &Outcome) -> String {
    format!(
        "{:?} exit {:?} signal {:?}\n--- stdout\n{}--- stderr\n{}--- compile\n{}",
        o.status,
        o.exit_code,
        o.signal,
        polyeval_sandbox::tail(&o.stdout, 3000),
        polyeval_sandbox::tail(&o.stderr, 3000),
        polyeval_sandbox::tail(&o.compile_output, 1000)
    )
}

/// Runs each attack followed by `correct` and `wrong` in one warm worker
/// (one engine thread) and cold; see the module docs. The warm stats.
fn assert_attacks_change_nothing(
    language: Language,
    attacks: &[(&str, String)],
    correct: &str,
    wrong: &str,
) -> WarmStats {
    let sources: Vec<&str> = attacks
        .iter()
        .flat_map(|(_, attack)| [attack.as_str(), correct, wrong])
        .collect();
    let run = |engine: &Engine| {
        let jobs: Vec<Job> = sources
            .iter()
            .map(|s| {
                let mut job = Job::new(language, s.replace("{M}", engine.marker()));
                job.require_marker = true;
                job
            })
            .collect();
        engine.run_all(&jobs, &|| {})
    };
    let warm = engine(true);
    let cold = engine(false);
    let w = run(&warm);
    let c = run(&cold);
    for (i, (name, _)) in attacks.iter().enumerate() {
        let [attack, ok, bad] = [&w[3 * i], &w[3 * i + 1], &w[3 * i + 2]];
        assert!(
            !attack.stdout.contains("BREACH"),
            "{language} {name} got through: {}",
            dump(attack)
        );
        assert_eq!(
            ok.status,
            Status::Passed,
            "{language}: correct after {name}: {}",
            dump(ok)
        );
        assert_ne!(
            bad.status,
            Status::Passed,
            "{language}: wrong after {name}: {}",
            dump(bad)
        );
        for k in 3 * i..3 * i + 3 {
            assert_eq!(
                w[k].status,
                c[k].status,
                "{language} {name} ({k}): warm {}\ncold {}",
                dump(&w[k]),
                dump(&c[k])
            );
        }
    }
    let stats = warm.warm_stats();
    assert!(
        stats.warm_samples > 0,
        "{language}: nothing ran warm: {stats:?}"
    );
    stats
}

const PY_CORRECT: &str = r#"import os, datetime, calendar
import numpy as np
# A fresh world: nothing of an earlier sample.
assert os.listdir('/sandbox') == ['main.py'], os.listdir('/sandbox')
assert os.listdir('/tmp') == [] and os.listdir('/dev/shm') == [], (os.listdir('/tmp'), os.listdir('/dev/shm'))
assert os.stat('/sandbox').st_mode & 0o7777 == 0o755
for kind in ('shm', 'sem', 'msg'):
    assert len(open('/proc/sysvipc/' + kind).read().splitlines()) == 1, kind
import socket
s = socket.socket()
s.bind(('127.0.0.1', 8123))
s.close()
assert datetime.datetime.strptime('2024-01-02', '%Y-%m-%d').day == 2 and calendar.isleap(2024)
assert int(np.int64(2)) * 2 == 4 and len(bytearray(64 << 20)) == 64 << 20
files = [open('/dev/null') for _ in range(64)]
if __name__ == '__main__':
    print('{M}')
"#;
const PY_WRONG: &str = "assert 2 * 2 == 5\nprint('{M}')\n";

#[test]
fn python_attacks_change_no_later_verdict() {
    let attacks: Vec<(&str, String)> = vec![
        (
            "planted modules in a read-only work dir",
            r#"import os
for d in ('/sandbox', '/tmp', '/dev/shm'):
    for m in ('calendar', '_strptime', 'numpy'):
        open(os.path.join(d, m + '.py'), 'w').write("import os\nprint('{M}')\nos._exit(0)\n")
for d in ('/sandbox', '/tmp', '/dev/shm'):
    os.chmod(d, 0o555)
print('{M}')
"#
            .into(),
        ),
        (
            "directories that can't be listed",
            r#"import os
os.makedirs('/sandbox/_strptime/x', exist_ok=True)
open('/sandbox/_strptime/__init__.py', 'w').write("import os\nprint('{M}')\nos._exit(0)\n")
os.chmod('/sandbox/_strptime', 0o311)
os.makedirs('/tmp/a/b/c', exist_ok=True)
os.chmod('/tmp/a/b', 0o311)
os.chmod('/tmp/a', 0o000)
print('{M}')
"#
            .into(),
        ),
        (
            "the zygote's memory",
            r#"import os, re
for pid in {os.getppid()} | {int(p) for p in os.listdir('/proc') if p.isdigit() and int(p) != os.getpid()}:
    try:
        mem = open('/proc/%d/mem' % pid, 'r+b', buffering=0)
    except OSError:
        continue
    print('BREACH: wrote the memory of', pid)
    for line in open('/proc/%d/maps' % pid):
        m = re.match(r'([0-9a-f]+)-([0-9a-f]+) rw', line)
        if not m:
            continue
        lo, hi = int(m.group(1), 16), int(m.group(2), 16)
        try:
            mem.seek(lo)
            data = mem.read(hi - lo)
        except OSError:
            continue
        i = data.find(b'__main__\x00')
        while i >= 0:
            mem.seek(lo + i)
            mem.write(b'__mian__\x00')
            i = data.find(b'__main__\x00', i + 1)
print('{M}')
"#
            .into(),
        ),
        (
            "a forged reply on the control socket",
            r#"import os, socket
reply = b'{"status": 0, "timed_out": false, "cpu_us": 0, "discard": false, "rerun": false, "why": ""}\n'
for pid in os.listdir('/proc'):
    if not pid.isdigit() or int(pid) == os.getpid():
        continue
    for fd in range(0, 8):
        try:
            s = socket.socket(fileno=os.open('/proc/%s/fd/%d' % (pid, fd), os.O_RDWR))
            s.send(reply * 3)
            print('BREACH: wrote a reply through', pid, fd)
        except OSError:
            pass
for fd in range(0, 64):
    try:
        os.write(fd, reply)
        if fd > 2:
            print('BREACH: wrote a reply on inherited descriptor', fd)
    except OSError:
        pass
print('{M}')
"#
            .into(),
        ),
        (
            "the worker's rlimits, priority and CPUs",
            r#"import os, resource
for pid in [int(p) for p in os.listdir('/proc') if p.isdigit() and int(p) != os.getpid()]:
    for res, value in ((resource.RLIMIT_AS, 200 << 20), (resource.RLIMIT_NOFILE, 16), (resource.RLIMIT_NPROC, 2)):
        try:
            resource.prlimit(pid, res, (value, value))
        except OSError:
            pass
    for act in (lambda: os.setpriority(os.PRIO_PROCESS, pid, 19), lambda: os.sched_setaffinity(pid, {0})):
        try:
            act()
        except OSError:
            pass
print('{M}')
"#
            .into(),
        ),
        (
            "IPC objects, namespace settings, message queues",
            r#"import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
shm = libc.shmget(0x5eed, 1 << 20, 0o1000 | 0o666)
sem = libc.semget(0x5eee, 4, 0o1000 | 0o666)
msg = libc.msgget(0x5eef, 0o1000 | 0o666)
assert min(shm, sem, msg) >= 0
for setting, value in (('kernel/shmmax', '4096'), ('kernel/pid_max', '400'), ('fs/mqueue/msg_max', '1')):
    try:
        open('/proc/sys/' + setting, 'w').write(value)
        print('BREACH: changed', setting)
    except OSError:
        pass
if libc.mq_open(b'/polyeval', os.O_CREAT | os.O_RDWR, 0o600, None) >= 0:
    print('BREACH: made a message queue')
print('{M}')
"#
            .into(),
        ),
        (
            "finalizers, exit handlers and a thread left running",
            r#"import atexit, gc, os, sys, threading, time, weakref
def late():
    for d in ('/sandbox', '/tmp'):
        try:
            open(d + '/calendar.py', 'w').write("import os\nprint('{M}')\nos._exit(0)\n")
        except OSError:
            pass
class Late:
    def __del__(self):
        late()
keep = [Late() for _ in range(100)]
keep.append(keep)
del keep
weakref.finalize(Late(), late)
atexit.register(late)
gc.callbacks.append(lambda *a: late())
sys.setswitchinterval(1e-6)
threading.Thread(target=lambda: [time.sleep(0.001) or late() for _ in iter(int, 1)], daemon=True).start()
print('{M}')
"#
            .into(),
        ),
        (
            "a socket left closing",
            r#"import socket
server = socket.socket()
server.bind(('127.0.0.1', 8123))
server.listen()
client = socket.create_connection(('127.0.0.1', 8123))
conn, _ = server.accept()
conn.close()
client.close()
server.close()
print('{M}')
"#
            .into(),
        ),
    ];
    let stats = assert_attacks_change_nothing(Language::Python, &attacks, PY_CORRECT, PY_WRONG);
    // What the kernel lets a sample change in the worker (rlimits, IPC
    // objects, sockets) is found and the worker replaced.
    assert!(stats.workers_discarded >= 2, "{stats:?}");
}

const JS_CORRECT: &str = r#"// correct
const fs = require('fs');
const assert = require('node:assert');
assert.deepStrictEqual(fs.readdirSync('/sandbox'), ['main.js']);
assert.deepStrictEqual([fs.readdirSync('/tmp'), fs.readdirSync('/dev/shm')], [[], []]);
assert.strictEqual(fs.statSync('/sandbox').mode & 0o7777, 0o755);
assert.strictEqual(process.env.NODE_OPTIONS, undefined);
console.log('{M}');
"#;
const JS_WRONG: &str =
    "// wrong\nrequire('node:assert').strictEqual(1 + 1, 3);\nconsole.log('{M}');\n";

#[test]
fn javascript_attacks_change_no_later_verdict() {
    let attacks: Vec<(&str, String)> = vec![
        (
            "a planted package.json in a read-only work dir",
            r#"const fs = require('fs');
for (const d of ['/sandbox', '/tmp', '/dev/shm']) {
  fs.writeFileSync(d + '/package.json', '{"type": "module"}');
  fs.mkdirSync(d + '/node_modules/assert', {recursive: true});
  fs.writeFileSync(d + '/node_modules/assert/index.js', 'module.exports = () => {};');
  fs.chmodSync(d + '/node_modules', 0o311);
  fs.chmodSync(d, 0o555);
}
console.log('{M}');
"#
            .into(),
        ),
        (
            "the zygote's memory",
            r#"const fs = require('fs');
for (const pid of fs.readdirSync('/proc').filter(p => /^\d+$/.test(p) && +p !== process.pid)) {
  let fd;
  try { fd = fs.openSync(`/proc/${pid}/mem`, 'r+'); } catch (e) { continue; }
  console.log('BREACH: opened the memory of ' + pid);
  // Every later sample's environment: NODE_OPTIONS that stop node.
  for (const line of fs.readFileSync(`/proc/${pid}/maps`, 'utf8').split('\n')) {
    const m = /^([0-9a-f]+)-([0-9a-f]+) rw/.exec(line);
    if (!m) continue;
    const lo = BigInt('0x' + m[1]), hi = BigInt('0x' + m[2]);
    if (hi - lo > 1n << 26n) continue;
    const buf = Buffer.alloc(Number(hi - lo));
    try { fs.readSync(fd, buf, 0, buf.length, Number(lo)); } catch (e) { continue; }
    const at = buf.indexOf('HOME=/sandbox\0LANG=');
    if (at >= 0) fs.writeSync(fd, Buffer.from('NODE_OPTIONS=--bogus\0'), 0, 21, Number(lo) + at);
  }
}
console.log('{M}');
"#
            .into(),
        ),
        (
            "a forged reply on the control socket",
            r#"const fs = require('fs');
const reply = '{"status": 0, "timed_out": false, "cpu_us": 0, "discard": false, "rerun": false, "why": ""}\n';
for (const pid of fs.readdirSync('/proc').filter(p => /^\d+$/.test(p) && +p !== process.pid)) {
  for (let fd = 0; fd < 8; fd++) {
    try { fs.writeFileSync(`/proc/${pid}/fd/${fd}`, reply); console.log(`BREACH: wrote through ${pid}/${fd}`); } catch (e) {}
  }
}
console.log('{M}');
"#
            .into(),
        ),
        (
            "finalizers, exit handlers and timers",
            r#"const fs = require('fs');
const late = () => { for (const d of ['/sandbox', '/tmp']) { try { fs.writeFileSync(d + '/package.json', '{"type": "module"}'); } catch (e) {} } };
const registry = new FinalizationRegistry(late);
for (let i = 0; i < 10000; i++) registry.register({i}, i);
process.on('exit', late);
process.on('beforeExit', late);
setInterval(late, 1).unref();
console.log('{M}');
"#
            .into(),
        ),
        (
            "the worker's priority",
            r#"const fs = require('fs'), os = require('os');
for (const pid of fs.readdirSync('/proc').filter(p => /^\d+$/.test(p) && +p !== process.pid)) {
  try { os.setPriority(+pid, 19); } catch (e) {}
}
console.log('{M}');
"#
            .into(),
        ),
    ];
    let stats = assert_attacks_change_nothing(Language::JavaScript, &attacks, JS_CORRECT, JS_WRONG);
    assert!(stats.workers_discarded >= 1, "{stats:?}");
}

const PHP_CORRECT: &str = r#"<?php
// correct
if (scandir('/sandbox') !== ['.', '..', 'main.php'] || scandir('/tmp') !== ['.', '..'] || scandir('/dev/shm') !== ['.', '..']) {
    throw new Exception('leftovers: ' . json_encode([scandir('/sandbox'), scandir('/tmp'), scandir('/dev/shm')]));
}
if ((fileperms('/sandbox') & 0777) !== 0755) { throw new Exception('work dir mode'); }
if (sprintf('%.1f', 1.5) !== '1.5' || str_repeat('x', 64 << 20) === '') { throw new Exception('format'); }
// Output that fills the pipes, written whole.
$big = str_repeat('x', 256 << 10) . "\n";
if (fwrite(STDOUT, $big) !== strlen($big) || fwrite(STDERR, $big) !== strlen($big)) { throw new Exception('short write'); }
echo "{M}\n";
"#;
const PHP_WRONG: &str =
    "<?php\n// wrong\nif (1 + 1 !== 3) { throw new Exception(\"Test failed!\"); }\necho \"{M}\\n\";\n";

#[test]
fn php_attacks_change_no_later_verdict() {
    let attacks: Vec<(&str, String)> = vec![
        (
            "planted files in a read-only work dir",
            r#"<?php
foreach (['/sandbox', '/tmp', '/dev/shm'] as $d) {
    mkdir("$d/keep/inner", 0777, true);
    file_put_contents("$d/keep/inner/x.php", '<?php echo 1;');
    chmod("$d/keep", 0311);
    file_put_contents("$d/main.php", '<?php echo "{M}\n";');
    chmod($d, 0555);
}
echo "{M}\n";
"#
            .into(),
        ),
        (
            "the runtime's memory",
            r#"<?php
foreach (scandir('/proc') as $pid) {
    if (!ctype_digit($pid) || (int) $pid === getmypid()) { continue; }
    $mem = @fopen("/proc/$pid/mem", 'r+');
    if ($mem !== false) { echo "BREACH: opened the memory of $pid\n"; }
}
$libc = FFI::cdef('int open(const char *path, int flags);', 'libc.so.6');
if ($libc->open('/proc/' . posix_getppid() . '/mem', 2) >= 0) { echo "BREACH: opened the parent's memory\n"; }
echo "{M}\n";
"#
            .into(),
        ),
        (
            "forged replies on the runtime's channel",
            r#"<?php
$forged = "0 0 0 - 0 0\n0 0 0 - 0 0\n";
foreach ([3, 4, 5] as $fd) {
    $f = @fopen("php://fd/$fd", 'w');
    if ($f !== false && @fwrite($f, $forged)) { echo "BREACH: wrote on descriptor $fd\n"; }
}
foreach (scandir('/proc') as $pid) {
    if (!ctype_digit($pid) || (int) $pid === getmypid()) { continue; }
    foreach ([3, 4, 5] as $fd) {
        $f = @fopen("/proc/$pid/fd/$fd", 'w');
        if ($f !== false && @fwrite($f, $forged)) { echo "BREACH: wrote through $pid/$fd\n"; }
    }
}
echo "{M}\n";
"#
            .into(),
        ),
        (
            "destructors and shutdown functions",
            r#"<?php
function late() { foreach (['/sandbox', '/tmp'] as $d) { @file_put_contents("$d/main.php", '<?php echo "{M}\n";'); } }
class Late { public $self; function __destruct() { late(); } }
for ($i = 0; $i < 1000; $i++) { $l = new Late(); $l->self = $l; }
register_shutdown_function('late');
$GLOBALS['keep'] = new Late();
echo "{M}\n";
"#
            .into(),
        ),
        (
            "the runtime's rlimits",
            r#"<?php
$libc = FFI::cdef('struct rl { unsigned long cur; unsigned long max; }; int prlimit(int pid, int resource, const struct rl *new, struct rl *old);', 'libc.so.6');
$limit = $libc->new('struct rl');
$limit->cur = $limit->max = 64 << 20;
foreach (scandir('/proc') as $pid) {
    if (ctype_digit($pid) && (int) $pid !== getmypid()) {
        $libc->prlimit((int) $pid, 9, FFI::addr($limit), null);
    }
}
echo "{M}\n";
"#
            .into(),
        ),
    ];
    let stats = assert_attacks_change_nothing(Language::Php, &attacks, PHP_CORRECT, PHP_WRONG);
    assert!(stats.workers_discarded >= 1, "{stats:?}");
}

/// `body` as the main method of a Java program.
fn java(body: &str) -> String {
    format!("import java.util.*;\nimport java.io.*;\nimport java.nio.file.*;\npublic class Main {{\n  public static void main(String[] a) throws Exception {{\n{body}\n  }}\n}}\n")
}

/// The pids of the sandbox's other processes.
const JAVA_PIDS: &str = "List<Long> pids = new ArrayList<>();\nfor (File p : new File(\"/proc\").listFiles()) { if (p.getName().matches(\"\\\\d+\") && Long.parseLong(p.getName()) != ProcessHandle.current().pid()) pids.add(Long.parseLong(p.getName())); }\n";

#[test]
fn java_attacks_change_no_later_verdict() {
    // Uses modules a warm JVM once lacked (java.sql, java.net.http,
    // java.scripting, jdk.unsupported).
    let correct = java(
        "for (String d : new String[] {\"/tmp\", \"/dev/shm\"}) { assert new File(d).list().length == 0 : d; }\nassert !new File(\"/sandbox/planted\").exists() && !new File(\"/sandbox/keep\").exists();\nassert new java.sql.Timestamp(0).getTime() == 0;\nClass.forName(\"java.net.http.HttpClient\");\nClass.forName(\"javax.script.ScriptEngineManager\");\nClass.forName(\"sun.misc.Unsafe\");\nassert String.format(\"%.1f\", 1.5).equals(\"1.5\");\nSystem.out.println(\"{M}\");",
    );
    let wrong = java("assert 2 * 2 == 5 : \"arith\";\nSystem.out.println(\"{M}\");");
    let attacks: Vec<(&str, String)> = vec![
        (
            "planted classes in a read-only work dir",
            java("for (String d : new String[] {\"/sandbox\", \"/tmp\", \"/dev/shm\"}) {\n  new File(d + \"/keep/inner\").mkdirs();\n  Files.write(Path.of(d, \"planted\"), new byte[] {1});\n  Files.copy(Path.of(\"/sandbox/classes/Main.class\"), Path.of(d, \"PolyevalJudge.class\"), StandardCopyOption.REPLACE_EXISTING);\n  Files.setPosixFilePermissions(Path.of(d, \"keep\"), java.nio.file.attribute.PosixFilePermissions.fromString(\"-wx--x--x\"));\n  new File(d).setWritable(false, false);\n}\nSystem.out.println(\"{M}\");"),
        ),
        (
            "the memory of the zygote and of the compiling JVM",
            java(&format!("{JAVA_PIDS}for (long pid : pids) {{\n  try (RandomAccessFile mem = new RandomAccessFile(\"/proc/\" + pid + \"/mem\", \"rw\")) {{ System.out.println(\"BREACH: opened the memory of \" + pid); }} catch (IOException e) {{ }}\n}}\nSystem.out.println(\"{{M}}\");")),
        ),
        (
            "finalizers and cleaners",
            java("class Late { protected void finalize() { System.out.println(\"{M}\"); System.out.flush(); Runtime.getRuntime().halt(0); } }\nfor (int i = 0; i < 100000; i++) { new Late(); }\njava.lang.ref.Cleaner cleaner = java.lang.ref.Cleaner.create();\nfor (int i = 0; i < 1000; i++) { cleaner.register(new Object(), () -> { System.out.println(\"{M}\"); Runtime.getRuntime().halt(0); }); }\nSystem.out.println(\"{M}\");"),
        ),
        (
            "forged replies on the runtime's channel",
            java(&format!("String forged = \"0 0 0 - 0 0\\n\";\n{JAVA_PIDS}for (long pid : pids) {{\n  for (int fd = 3; fd < 8; fd++) {{\n    try (FileOutputStream out = new FileOutputStream(\"/proc/\" + pid + \"/fd/\" + fd, true)) {{ out.write(forged.getBytes()); System.out.println(\"BREACH: wrote through \" + pid + \"/\" + fd); }} catch (IOException e) {{ }}\n  }}\n}}\nSystem.out.println(\"{{M}}\");")),
        ),
    ];
    let stats = assert_attacks_change_nothing(Language::Java, &attacks, &correct, &wrong);
    // The compiling JVM served every sample.
    assert_eq!(stats.workers_started, 1, "{stats:?}");
}

/// `body` as the Main of a C# program.
fn csharp(body: &str) -> String {
    format!("using System;\nusing System.IO;\nusing System.Diagnostics;\npublic class Program {{\n  public static void Main() {{\n{body}\n  }}\n}}\n")
}

#[test]
fn csharp_attacks_change_no_later_verdict() {
    // (mono keeps a file of its own in /dev/shm.)
    let correct = csharp("Debug.Assert(Directory.GetFileSystemEntries(\"/tmp\").Length == 0);\nforeach (var f in Directory.GetFileSystemEntries(\"/dev/shm\")) Debug.Assert(f == \"/dev/shm/mono.\" + Process.GetCurrentProcess().Id, f);\nDebug.Assert(!File.Exists(\"/sandbox/planted\") && !Directory.Exists(\"/sandbox/keep\"));\nDebug.Assert(2 * 2 == 4);\nConsole.WriteLine(\"{M}\");");
    let wrong = csharp("Debug.Assert(2 * 2 == 5);\nConsole.WriteLine(\"{M}\");");
    let pids = "var pids = new System.Collections.Generic.List<int>();\nforeach (var p in Directory.GetDirectories(\"/proc\")) { int pid; if (int.TryParse(Path.GetFileName(p), out pid) && pid != Process.GetCurrentProcess().Id) pids.Add(pid); }\n";
    let attacks: Vec<(&str, String)> = vec![
        (
            "planted files in a read-only work dir",
            csharp("foreach (var d in new[] {\"/sandbox\", \"/tmp\", \"/dev/shm\"}) {\n  Directory.CreateDirectory(d + \"/keep/inner\");\n  File.WriteAllText(d + \"/planted\", \"x\");\n  File.WriteAllText(d + \"/System.Numerics.dll\", \"x\");\n  Process.Start(\"chmod\", \"0311 \" + d + \"/keep\").WaitForExit();\n  Process.Start(\"chmod\", \"0555 \" + d).WaitForExit();\n}\nConsole.WriteLine(\"{M}\");"),
        ),
        (
            "the memory of the zygote and of the compiler",
            csharp(&format!("{pids}foreach (var pid in pids) {{\n  try {{ using (var mem = new FileStream(\"/proc/\" + pid + \"/mem\", FileMode.Open, FileAccess.ReadWrite)) {{ Console.WriteLine(\"BREACH: opened the memory of \" + pid); }} }} catch (Exception) {{ }}\n}}\nConsole.WriteLine(\"{{M}}\");")),
        ),
        (
            "finalizers and exit handlers",
            csharp("AppDomain.CurrentDomain.ProcessExit += (s, e) => Late.Plant();\nfor (int i = 0; i < 100000; i++) { new Late(); }\nGC.Collect();\nConsole.WriteLine(\"{M}\");\n  }\n}\nclass Late {\n  public static void Plant() { foreach (var d in new[] {\"/sandbox\", \"/tmp\"}) { try { File.WriteAllText(d + \"/planted\", \"x\"); } catch (Exception) { } } }\n  ~Late() { Plant();"),
        ),
        (
            "forged replies on the compiler's channel",
            csharp(&format!("{pids}foreach (var pid in pids) {{\n  for (int fd = 3; fd < 8; fd++) {{\n    try {{ using (var f = new FileStream(\"/proc/\" + pid + \"/fd/\" + fd, FileMode.Append, FileAccess.Write)) {{ var b = System.Text.Encoding.ASCII.GetBytes(\"0 0 0 - 0 0\\n\"); f.Write(b, 0, b.Length); Console.WriteLine(\"BREACH: wrote through \" + pid + \"/\" + fd); }} }} catch (Exception) {{ }}\n  }}\n}}\nConsole.WriteLine(\"{{M}}\");")),
        ),
    ];
    let stats = assert_attacks_change_nothing(Language::CSharp, &attacks, &correct, &wrong);
    assert_eq!(stats.workers_started, 1, "{stats:?}");
}

// Attacks written after the defences were built, against them.

#[test]
fn second_round_python_attacks_change_no_later_verdict() {
    let attacks: Vec<(&str, String)> = vec![
        (
            "signals to the zygote",
            r#"import os, signal
for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGUSR1, signal.SIGALRM, signal.SIGCHLD):
    os.kill(os.getppid(), sig)
# Queued ones count against what the uid may queue.
for _ in range(3000):
    try:
        os.kill(os.getppid(), signal.SIGRTMIN + 3)
    except OSError:
        break
print('{M}')
"#
            .into(),
        ),
        (
            "a process whose first thread ended",
            r#"import os, threading, time, ctypes
if os.fork() == 0:
    os.setsid()
    def plant():
        while True:
            for d in ('/sandbox', '/tmp'):
                try:
                    open(d + '/late.py', 'w').write('x')
                except OSError:
                    pass
            time.sleep(0.001)
    threading.Thread(target=plant).start()
    ctypes.CDLL(None).syscall(60, 0)
time.sleep(0.2)
print('{M}')
"#
            .into(),
        ),
        (
            "a stopped zygote",
            "import os, signal\nos.kill(os.getppid(), signal.SIGSTOP)\nprint('{M}')\n".into(),
        ),
    ];
    assert_attacks_change_nothing(Language::Python, &attacks, PY_CORRECT, PY_WRONG);
}

#[test]
fn second_round_php_attacks_change_no_later_verdict() {
    let attacks: Vec<(&str, String)> = vec![
        (
            "non-blocking output pipes shared with the runtime",
            r#"<?php
stream_set_blocking(STDOUT, false);
stream_set_blocking(STDERR, false);
echo "{M}\n";
"#
            .into(),
        ),
        (
            "a chain of processes that fork and exit",
            r#"<?php
if (pcntl_fork() === 0) {
    while (true) {
        if (pcntl_fork() !== 0) { exit(0); }
        @file_put_contents('/sandbox/late.php', '<?php echo 1;');
    }
}
usleep(100000);
echo "{M}\n";
"#
            .into(),
        ),
        (
            "the runtime killed",
            "<?php\nposix_kill(posix_getppid(), SIGTERM);\nusleep(100000);\necho \"{M}\\n\";\n"
                .into(),
        ),
    ];
    assert_attacks_change_nothing(Language::Php, &attacks, PHP_CORRECT, PHP_WRONG);
}

#[test]
fn second_round_java_attacks_change_no_later_verdict() {
    let correct =
        java("assert new File(\"/tmp\").list().length == 0;\nSystem.out.println(\"{M}\");");
    let wrong = java("assert 2 * 2 == 5 : \"arith\";\nSystem.out.println(\"{M}\");");
    let nested = format!(
        "int x = {}1{};\nSystem.out.println(\"{{M}}\");",
        "(".repeat(3000),
        ")".repeat(3000)
    );
    let attacks: Vec<(&str, String)> = vec![
        (
            "the attach listener of the compiling JVM",
            java(&format!("{JAVA_PIDS}for (long pid : pids) {{\n  new File(\"/tmp/.attach_pid\" + pid).createNewFile();\n  new ProcessBuilder(\"kill\", \"-QUIT\", \"\" + pid).start().waitFor();\n}}\nThread.sleep(300);\nfor (long pid : pids) {{ if (new File(\"/tmp/.java_pid\" + pid).exists()) System.out.println(\"BREACH: attach listener of \" + pid); }}\nSystem.out.println(\"{{M}}\");")),
        ),
        ("a source that overflows javac's stack", java(&nested)),
    ];
    assert_attacks_change_nothing(Language::Java, &attacks, &correct, &wrong);
}
