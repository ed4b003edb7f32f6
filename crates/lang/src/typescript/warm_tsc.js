// polyeval warm TypeScript worker: one node process, started by the warm
// zygote (zygote.py, mode "vm", role "compiles") inside the sandbox,
// type-checks and compiles every sample with the TypeScript compiler API,
// loaded once, with the compiler options and the declaration files of the
// cold `tsc` command (parsed once and kept: they are most of a cold
// compile's time). The zygote then runs the compiled program with the cold
// run's own command, in a process of its own: samples never run here. This
// process makes itself non-dumpable (a library whose constructor calls
// prctl) before it reads any request, so no sample can reach its
// memory or descriptors, and ignores SIGUSR1, with which a sample would
// open node's inspector in it.
//
// argv: the compiler (typescript.js), a scratch dir for the warm-up, that
// library, and the cold command's flags (JSON).
//
// Protocol: requests on fd 3, one line each: "<token>\t<source>\t<out dir>";
// replies on fd 4: "ready\n" once, then per request one line
// "<token> <tsc exit code> 0 - <compile ms> <n>\n" followed by n bytes of
// what `tsc` would have printed (its diagnostics).
'use strict';
const fs = require('fs');
const path = require('path');

const [, , compilerPath, warmDir, noDump, flags] = process.argv;
// Loading the library runs its constructor, which makes this process
// non-dumpable or ends it; it is no node module, so node then refuses it.
try {
  process.dlopen({ exports: {} }, noDump);
  process.exit(2);
} catch (e) {
  if (!String(e && e.message).includes('did not self-register')) {
    process.stderr.write(`polyeval warm worker: cannot load ${noDump}: ${e && e.message}\n`);
    process.exit(2);
  }
}
const ts = require(compilerPath);
// The cold command's flags, without its output dir and source.
const OPTIONS = JSON.parse(flags);

const host = ts.createCompilerHost({});
const readOnly = new Map();
const getSourceFile = host.getSourceFile;
// Only the installed declaration files are kept (node's global modules,
// where the compiler is: read-only, and the same for every sample); any
// other file, a sample's own or one it could write anywhere, is read anew.
const installed = path.resolve(path.dirname(compilerPath), '..', '..') + '/';
host.getSourceFile = (fileName, languageVersion, onError, shouldCreate) => {
  if (!fileName.endsWith('.d.ts') || !path.resolve(fileName).startsWith(installed)) {
    return getSourceFile.call(host, fileName, languageVersion, onError, shouldCreate);
  }
  const key = fileName + '\0' + JSON.stringify(languageVersion);
  let file = readOnly.get(key);
  if (file === undefined) {
    file = getSourceFile.call(host, fileName, languageVersion, onError, shouldCreate);
    readOnly.set(key, file);
  }
  return file;
};

function compile(source, outDir) {
  const parsed = ts.parseCommandLine([...OPTIONS, '--outDir', outDir, source]);
  const cwd = path.dirname(source);
  const formatHost = {
    getCanonicalFileName: (f) => f,
    getCurrentDirectory: () => cwd,
    getNewLine: () => '\n',
  };
  if (parsed.errors.length > 0) return [1, ts.formatDiagnostics(parsed.errors, formatHost)];
  const program = ts.createProgram(parsed.fileNames, parsed.options, host);
  // What `tsc` reports, in its order: syntax errors first, and only
  // without them the options', global and semantic ones.
  const diagnostics = [...program.getSyntacticDiagnostics()];
  if (diagnostics.length === 0) {
    diagnostics.push(...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics());
    if (diagnostics.length === 0) diagnostics.push(...program.getSemanticDiagnostics());
  }
  const emitted = program.emit();
  diagnostics.push(...emitted.diagnostics);
  const reported = ts.sortAndDeduplicateDiagnostics(diagnostics);
  if (reported.length === 0) return [0, ''];
  return [emitted.emitSkipped ? 1 : 2, ts.formatDiagnostics(reported, formatHost)];
}

function write(fd, buffer) {
  let off = 0;
  while (off < buffer.length) off += fs.writeSync(fd, buffer, off, buffer.length - off);
}

// Warm up: the first compile pays for loading and parsing the declarations.
fs.mkdirSync(warmDir, { recursive: true });
const warmSource = path.join(warmDir, 'warmup.ts');
fs.writeFileSync(warmSource, 'class P { constructor(private xs: number[]) {} sum(): number { return this.xs.reduce((a, b) => a + b, 0); } }\nconsole.log(new P([1]).sum());\n');
compile(warmSource, path.join(warmDir, 'out'));

write(4, Buffer.from('ready\n'));
let pending = Buffer.alloc(0);
const chunk = Buffer.alloc(65536);
for (;;) {
  let n;
  try {
    n = fs.readSync(3, chunk, 0, chunk.length, null);
  } catch (e) {
    if (e.code === 'EAGAIN') continue;
    throw e;
  }
  if (n === 0) break;
  pending = Buffer.concat([pending, chunk.subarray(0, n)]);
  let nl;
  while ((nl = pending.indexOf(10)) >= 0) {
    const [token, source, outDir] = pending.subarray(0, nl).toString('utf8').split('\t');
    pending = pending.subarray(nl + 1);
    const started = process.hrtime.bigint();
    const [code, text] = compile(source, outDir);
    const ms = Number((process.hrtime.bigint() - started) / 1000000n);
    const body = Buffer.from(text, 'utf8');
    write(4, Buffer.concat([Buffer.from(`${token} ${code} 0 - ${ms} ${body.length}\n`, 'ascii'), body]));
  }
}
