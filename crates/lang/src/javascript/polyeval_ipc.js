// polyeval's IPC driver kit (JavaScript, node).
//
// A driver exercises the candidate's code (solution.js, loaded with
// `ipc.loadSolution()`) over real loopback connections and reports what it
// observes with `await ipc.check(...)`; polyeval compares the observations
// with the canonical solution's, outside the sandbox. Every wait is bounded
// and explicit: readiness is a port seen listening in /proc/net (never a
// probe connection, never a fixed sleep).
//
// The driver's text is the body of `async function (ipc) { … }`; the
// program ends after it (the end record, then every server and counterpart
// is stopped).
'use strict';
const fs = require('fs');
const net = require('net');
const dgram = require('dgram');
const http = require('http');
const vm = require('vm');
const path = require('path');
const childProcess = require('child_process');
const Module = require('module');

const WAIT = 10000;
const SANDBOX = path.resolve(__dirname);
let observer = null;
let next = 0;
const spawned = [];

class NotReady extends Error {
  constructor(message) { super(message); this.name = 'NotReady'; }
}
class Timeout extends Error {
  constructor(message) { super(message); this.name = 'Timeout'; }
}

function plain(v) {
  // Buffers are reported as their bytes in hex (the observer sees typed arrays as objects).
  if (Buffer.isBuffer(v) || v instanceof Uint8Array) return 'bytes:' + Buffer.from(v).toString('hex');
  if (Array.isArray(v)) return v.map(plain);
  return v;
}

// Report the next observation: a value, what a function returns, or what a
// promise resolves to. A rejection/exception is reported and rethrown.
async function check(value) {
  const t = next++;
  try {
    let v = typeof value === 'function' ? value() : value;
    if (v && typeof v.then === 'function') v = await v;
    observer.observe(t, plain(v));
  } catch (e) {
    observer.raised(t, e);
    throw e;
  }
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function ports(kinds, states) {
  const found = new Set();
  for (const kind of kinds) {
    let text;
    try { text = fs.readFileSync('/proc/net/' + kind, 'utf8'); } catch (_) { continue; }
    for (const line of text.split('\n').slice(1)) {
      const parts = line.trim().split(/\s+/);
      if (parts.length > 3 && states.includes(parts[3])) {
        found.add(parseInt(parts[1].split(':').pop(), 16));
      }
    }
  }
  return found;
}

async function waitUntil(condition, timeout = WAIT, what = 'the condition') {
  const deadline = Date.now() + timeout;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new NotReady(`${what} did not hold within ${timeout} ms`);
    await sleep(10);
  }
}

// Wait until a TCP socket listens on `port`.
async function waitPort(port, timeout = WAIT) {
  const deadline = Date.now() + timeout;
  while (!ports(['tcp', 'tcp6'], ['0A']).has(port)) {
    if (Date.now() > deadline) throw new NotReady(`nothing listens on TCP port ${port} after ${timeout} ms`);
    await sleep(10);
  }
}

// Wait until a UDP socket is bound to `port`.
async function waitUdp(port, timeout = WAIT) {
  const deadline = Date.now() + timeout;
  while (!ports(['udp', 'udp6'], ['07', '01']).has(port)) {
    if (Date.now() > deadline) throw new NotReady(`nothing is bound to UDP port ${port} after ${timeout} ms`);
    await sleep(10);
  }
}

// Load the candidate's code (solution.js) as a script of this context: its
// top-level functions, classes and variables become visible to the driver;
// `require`, `module`, `exports`, `__dirname` work as in a module. Returns
// `module.exports`. Browser APIs the tasks use (WebSocket, XMLHttpRequest)
// are provided by the runtime's packages.
function loadSolution(file = 'solution.js') {
  const filename = path.join(SANDBOX, file);
  const code = fs.readFileSync(filename, 'utf8');
  const mod = { exports: {}, id: filename, filename, loaded: false };
  const localRequire = Module.createRequire(filename);
  Object.assign(globalThis, {
    require: localRequire,
    module: mod,
    exports: mod.exports,
    __filename: filename,
    __dirname: SANDBOX,
  });
  if (typeof globalThis.WebSocket === 'undefined') {
    try { globalThis.WebSocket = localRequire('ws'); } catch (_) {}
  }
  if (typeof globalThis.XMLHttpRequest === 'undefined') {
    try { globalThis.XMLHttpRequest = localRequire('xmlhttprequest').XMLHttpRequest; } catch (_) {}
  }
  const before = new Set(Object.getOwnPropertyNames(globalThis));
  vm.runInThisContext(code, { filename });
  mod.loaded = true;
  aliasEntries(mod, before);
  return mod.exports;
}

// CrossPL's instructions seldom name the function they ask for: when the
// candidate lacks a name the canonical solution defines
// (polyeval_entry.json), its only top-level function (or class) the
// canonical solution does not name, among its globals and exports, is
// reached by that name.
function aliasEntries(mod, before) {
  let entries = [];
  try {
    entries = JSON.parse(fs.readFileSync(path.join(SANDBOX, 'polyeval_entry.json'), 'utf8'));
  } catch (_) {
    return;
  }
  const names = new Set(entries.map((e) => e.name));
  const defined = (name) => {
    try {
      return vm.runInThisContext(`typeof ${name}`) !== 'undefined';
    } catch (_) {
      return false;
    }
  };
  const isClass = (v) => typeof v === 'function' && /^class\b/.test(Function.prototype.toString.call(v));
  const own = new Map();
  for (const k of Object.getOwnPropertyNames(globalThis)) {
    if (!before.has(k) && typeof globalThis[k] === 'function') own.set(k, globalThis[k]);
  }
  const exported = typeof mod.exports === 'function' ? { [mod.exports.name || 'default']: mod.exports } : mod.exports;
  for (const [k, v] of Object.entries(exported || {})) {
    if (typeof v === 'function') own.set(k, v);
  }
  // Top-level `const f = …` and classes are not properties of globalThis.
  const lexical = /^(?:export\s+)?(?:(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=|class\s+([A-Za-z_$][\w$]*))/gm;
  for (const m of fs.readFileSync(mod.filename, 'utf8').matchAll(lexical)) {
    const name = m[1] || m[2];
    try {
      const v = vm.runInThisContext(name);
      if (typeof v === 'function') own.set(name, v);
    } catch (_) {}
  }
  for (const entry of entries) {
    if (defined(entry.name) || (mod.exports && mod.exports[entry.name] !== undefined)) continue;
    const unmatched = [...own].filter(([k, v]) => !names.has(k) && (entry.kind === 'class') === isClass(v));
    if (unmatched.length === 1) {
      globalThis[entry.name] = unmatched[0][1];
      if (mod.exports && typeof mod.exports === 'object') mod.exports[entry.name] = unmatched[0][1];
    }
  }
}

// Call `fn` (a promise's result is awaited) and give up after `timeout` ms.
async function call(fn, ...args) {
  return withTimeout(Promise.resolve().then(() => fn(...args)), WAIT, fn.name || 'the call');
}

function withTimeout(promise, timeout = WAIT, what = 'the call') {
  let timer;
  return Promise.race([
    Promise.resolve(promise).finally(() => clearTimeout(timer)),
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Timeout(`${what} did not complete within ${timeout} ms`)), timeout);
    }),
  ]);
}

// Start a counterpart process (killed at the end) and wait for readiness:
// opts.readyPort (TCP), opts.readyUdp, or opts.readyLine (a line it prints).
async function spawn(argv, opts = {}) {
  const child = childProcess.spawn(argv[0], argv.slice(1), { cwd: SANDBOX, stdio: ['ignore', 'pipe', 'inherit'], env: process.env });
  spawned.push(child);
  let out = '';
  let exited = null;
  child.on('exit', (code, signal) => { exited = signal || code; });
  child.stdout.on('data', (d) => { out += d.toString(); process.stderr.write(d); });
  const timeout = opts.timeout || WAIT;
  if (opts.readyLine !== undefined) {
    await waitUntil(() => out.includes(opts.readyLine) || exited !== null, timeout, `a line with ${JSON.stringify(opts.readyLine)} from ${argv[0]}`);
  }
  if (opts.readyPort !== undefined) await waitPort(opts.readyPort, timeout);
  if (opts.readyUdp !== undefined) await waitUdp(opts.readyUdp, timeout);
  if (exited !== null) throw new NotReady(`${argv[0]} exited (${exited}) before it was ready`);
  return child;
}

// One HTTP request: resolves to {status, headers (lower-case names), body (text)}.
function request(method, url, body, headers = {}, timeout = WAIT) {
  return new Promise((resolve, reject) => {
    let data = body;
    const h = Object.assign({}, headers);
    if (data !== undefined && data !== null && typeof data === 'object' && !Buffer.isBuffer(data)) {
      data = JSON.stringify(data);
      if (!Object.keys(h).some((k) => k.toLowerCase() === 'content-type')) h['Content-Type'] = 'application/json';
    }
    if (data !== undefined && data !== null) h['Content-Length'] = Buffer.byteLength(data);
    const req = http.request(url, { method, headers: h, timeout }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Timeout(`${method} ${url} got no answer within ${timeout} ms`)));
    req.on('error', reject);
    if (data !== undefined && data !== null) req.write(data);
    req.end();
  });
}

// Connect, send `data`, resolve to what comes back (a string, utf8) once the
// peer closes, or (opts.quiet ms, default 300) once it is quiet after data.
function tcpExchange(port, data, opts = {}) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let quietTimer = null;
    const done = () => { clearTimeout(quietTimer); socket.destroy(); resolve(Buffer.concat(chunks).toString('utf8')); };
    const socket = net.connect({ port, host: opts.host || '127.0.0.1' }, () => {
      if (data !== undefined && data !== null && data !== '') socket.write(data);
    });
    socket.setTimeout(opts.timeout || WAIT, () => { socket.destroy(); reject(new Timeout(`no answer on TCP port ${port}`)); });
    socket.on('data', (c) => {
      chunks.push(c);
      if (!opts.untilClose) { clearTimeout(quietTimer); quietTimer = setTimeout(done, opts.quiet || 300); }
    });
    socket.on('end', done);
    socket.on('error', reject);
  });
}

// Send one datagram and resolve to the first reply (a string, utf8).
function udpExchange(port, data, opts = {}) {
  return new Promise((resolve, reject) => {
    const s = dgram.createSocket('udp4');
    const timer = setTimeout(() => { s.close(); reject(new Timeout(`no UDP reply from port ${port}`)); }, opts.timeout || WAIT);
    s.on('message', (m) => { clearTimeout(timer); s.close(); resolve(m.toString('utf8')); });
    s.on('error', (e) => { clearTimeout(timer); reject(e); });
    s.send(Buffer.from(data), port, opts.host || '127.0.0.1');
  });
}

// Open a WebSocket (package ws), send each message, resolve to the replies
// (`replies` of them, default one per message).
function wsExchange(url, messages, replies) {
  const WebSocket = require('ws');
  const want = replies === undefined ? messages.length : replies;
  return withTimeout(new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    const got = [];
    ws.on('open', () => { for (const m of messages) ws.send(m); if (want === 0) { ws.close(); resolve(got); } });
    ws.on('message', (m) => { got.push(m.toString()); if (got.length >= want) { ws.close(); resolve(got); } });
    ws.on('error', reject);
  }), WAIT, `WebSocket exchange with ${url}`);
}

// Collect what the program prints from now on (console.* and writes to
// process.stdout/stderr, still printed as well): `capture.text()` is the
// output so far, `capture.lines()` its lines.
function captureOutput() {
  const parts = [];
  for (const stream of [process.stdout, process.stderr]) {
    const write = stream.write.bind(stream);
    stream.write = (chunk, ...rest) => { parts.push(String(chunk)); return write(chunk, ...rest); };
  }
  return { text: () => parts.join(''), lines: () => parts.join('').split('\n').filter((l) => l !== '') };
}

class Recorder {
  constructor() { this.items = []; }
  // Resolves to the items once `count` were recorded.
  async wait(count = 1, timeout = WAIT) {
    await waitUntil(() => this.items.length >= count, timeout, `${count} recorded item(s)`);
    return this.items;
  }
}

// An HTTP server on 127.0.0.1:port recording requests ({method, path, query,
// headers, body, json}) and answering `reply`: {status, headers, body} or a
// function of the request returning one. `await recorder.ready` before use.
class HttpRecorder extends Recorder {
  constructor(port, reply = { status: 200, headers: { 'Content-Type': 'text/plain' }, body: 'ok' }) {
    super();
    this.requests = this.items;
    this.server = http.createServer((req, res) => {
      const chunks = [];
      req.on('data', (c) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        let json = null;
        try { json = body ? JSON.parse(body) : null; } catch (_) {}
        const u = new URL(req.url, 'http://127.0.0.1');
        const query = {};
        for (const [k, v] of u.searchParams) (query[k] = query[k] || []).push(v);
        const request = { method: req.method, path: u.pathname, query, headers: req.headers, body, json };
        const answer = typeof reply === 'function' ? reply(request) : reply;
        let payload = answer.body === undefined ? '' : answer.body;
        if (typeof payload === 'object' && !Buffer.isBuffer(payload)) payload = JSON.stringify(payload);
        res.writeHead(answer.status || 200, answer.headers || {});
        res.end(payload);
        this.requests.push(request);
      });
    });
    this.ready = new Promise((resolve, reject) => {
      this.server.on('error', reject);
      this.server.listen(port, '127.0.0.1', resolve);
    });
  }
}

// A TCP server on 127.0.0.1:port recording what each connection sent
// (`connections`: strings, complete once the peer closed or was quiet for
// opts.quiet ms), answering `reply` (a string once, or a function of the data
// so far returning a string or null).
class TcpRecorder extends Recorder {
  constructor(port, reply = null, opts = {}) {
    super();
    this.connections = this.items;
    this.server = net.createServer((socket) => {
      let data = '';
      let replied = false;
      let timer = null;
      const finish = () => { clearTimeout(timer); if (!socket.recorded) { socket.recorded = true; this.connections.push(data); } };
      socket.on('data', (c) => {
        data += c.toString('utf8');
        let answer = null;
        if (typeof reply === 'function') answer = reply(data);
        else if (reply !== null && !replied) answer = reply;
        if (answer !== null && answer !== undefined) { socket.write(answer); replied = true; if (opts.closeAfterReply) socket.end(); }
        clearTimeout(timer);
        timer = setTimeout(() => { finish(); socket.end(); }, opts.quiet || 500);
      });
      socket.on('end', () => { finish(); socket.end(); });
      socket.on('close', finish);
      socket.on('error', () => {});
    });
    this.ready = new Promise((resolve, reject) => {
      this.server.on('error', reject);
      this.server.listen(port, '127.0.0.1', resolve);
    });
  }
}

// A UDP socket on 127.0.0.1:port recording datagrams (strings) and answering
// `reply` (a string, or a function of the datagram returning one or null).
class UdpRecorder extends Recorder {
  constructor(port, reply = null) {
    super();
    this.datagrams = this.items;
    this.socket = dgram.createSocket('udp4');
    this.socket.on('message', (m, peer) => {
      const text = m.toString('utf8');
      this.datagrams.push(text);
      const answer = typeof reply === 'function' ? reply(text) : reply;
      if (answer !== null && answer !== undefined) this.socket.send(Buffer.from(answer), peer.port, peer.address);
    });
    this.ready = new Promise((resolve, reject) => {
      this.socket.on('error', reject);
      this.socket.bind(port, '127.0.0.1', resolve);
    });
  }
}

function stop(code) {
  for (const child of spawned) {
    try { child.kill('SIGKILL'); } catch (_) {}
  }
  process.exit(code);
}

function finish() {
  observer.finish();
  stop(0);
}

// Run the driver (driver.js exports `async function (ipc)`): the end record
// when it resolves, exit status 1 with its error when it throws or rejects
// (the candidate's servers never hold the program).
function main(prelude) {
  observer = prelude;
  const fail = (e) => {
    process.stderr.write('driver failed: ' + (e && e.stack ? e.stack : String(e)) + '\n');
    stop(1);
  };
  let driver;
  try {
    driver = require(path.join(SANDBOX, 'driver.js'));
  } catch (e) {
    fail(e);
    return;
  }
  Promise.resolve()
    .then(() => driver(module.exports))
    .then(finish, fail);
}

module.exports = {
  NotReady, Timeout, WAIT, check, waitUntil, waitPort, waitUdp, loadSolution, call,
  withTimeout, spawn, captureOutput, request, tcpExchange, udpExchange, wsExchange, HttpRecorder, TcpRecorder,
  UdpRecorder, finish, main,
};
