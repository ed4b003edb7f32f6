// polyeval judge observer (TypeScript): the JavaScript observer, typed for
// `tsc --strict`. Placed before the candidate's code: it captures the
// functions it uses now, so later monkeypatching cannot redirect it, and it
// reads values without calling the candidate's methods (no toJSON, valueOf,
// getters or iterators). Expected values are compared outside the sandbox.
const __polyeval = (() => {
  const fs = require('fs');
  const writeSync = fs.writeSync;
  const bufferFrom = Buffer.from;
  const stringify = JSON.stringify;
  const isArray = Array.isArray;
  const getPrototypeOf = Object.getPrototypeOf;
  const getOwnPropertyDescriptor = Object.getOwnPropertyDescriptor;
  const ownKeys = Reflect.ownKeys;
  const objectIs = Object.is;
  const isInteger = Number.isInteger;
  const isFinite_ = Number.isFinite;
  const String_ = String;
  const ObjectProto = Object.prototype;
  const mapEntries = Map.prototype.entries;
  const setValues = Set.prototype.values;
  const mapIterNext = getPrototypeOf(new Map().entries()).next;
  const setIterNext = getPrototypeOf(new Set().values()).next;
  const isMap = (v: any): boolean => { try { Map.prototype.has.call(v, undefined); return true; } catch (_) { return false; } };
  const isSet = (v: any): boolean => { try { Set.prototype.has.call(v, undefined); return true; } catch (_) { return false; } };
  const apply = Reflect.apply;
  const assertModule = require('node:assert');
  const assertSnapshot = new Map<string | symbol, unknown>();
  for (const k of ownKeys(assertModule)) {
    const d = getOwnPropertyDescriptor(assertModule, k);
    if (d && 'value' in d) assertSnapshot.set(k, d.value);
  }
  const processExit = process.exit;
  const listenerCount = process.listenerCount;
  const MAX_DEPTH = 100;
  const MAX_CHARS = 64 << 20;

  function emit(json: string): void {
    const buf = bufferFrom('\n\x1epolyeval-judge ' + json + '\n', 'utf8');
    let off = 0;
    while (off < buf.length) {
      try {
        off += writeSync(1, buf, off, buf.length - off);
      } catch (e: any) {
        if (e && e.code === 'EAGAIN') continue;
        return;
      }
    }
  }

  function num(v: number): string {
    if (v !== v) return '{"float":"nan"}';
    if (!isFinite_(v)) return v > 0 ? '{"float":"inf"}' : '{"float":"-inf"}';
    if (objectIs(v, -0)) return '-0.0';
    if (isInteger(v) && v > -9007199254740992 && v < 9007199254740992) return String_(v);
    const t = String_(v);
    return t.includes('.') || t.includes('e') ? t : t + '.0';
  }

  function typeName(v: any): string {
    const proto = getPrototypeOf(v);
    if (proto === null || proto === ObjectProto) return 'Object';
    const d = getOwnPropertyDescriptor(proto, 'constructor');
    const ctor = d && d.value;
    if (typeof ctor === 'function') {
      const n = getOwnPropertyDescriptor(ctor, 'name');
      if (n && typeof n.value === 'string') return n.value;
    }
    return 'Object';
  }

  function enc(v: any, depth: number, budget: { chars: number }): string {
    if (depth > MAX_DEPTH || budget.chars > MAX_CHARS) return '{"truncated":null}';
    switch (typeof v) {
      case 'undefined': return '{"undefined":null}';
      case 'boolean': return v ? 'true' : 'false';
      case 'number': return num(v);
      case 'bigint': return '{"int":"' + String_(v) + '"}';
      case 'string': budget.chars += v.length; return stringify(v);
      case 'symbol': return '{"object":"symbol"}';
      case 'function': return '{"object":"function"}';
    }
    if (v === null) return 'null';
    if (isArray(v)) {
      const d = getOwnPropertyDescriptor(v, 'length');
      const n = d ? d.value : 0;
      const parts: string[] = [];
      for (let i = 0; i < n; i++) {
        const e = getOwnPropertyDescriptor(v, i);
        parts.push(e && 'value' in e ? enc(e.value, depth + 1, budget) : '{"undefined":null}');
        if (budget.chars > MAX_CHARS) break;
      }
      return '[' + parts.join(',') + ']';
    }
    if (isMap(v)) {
      const it = apply(mapEntries, v, []);
      const parts: string[] = [];
      for (;;) {
        const r: any = apply(mapIterNext, it, []);
        if (r.done) break;
        parts.push('[' + enc(r.value[0], depth + 1, budget) + ',' + enc(r.value[1], depth + 1, budget) + ']');
        if (budget.chars > MAX_CHARS) break;
      }
      return '{"map":[' + parts.join(',') + ']}';
    }
    if (isSet(v)) {
      const it = apply(setValues, v, []);
      const parts: string[] = [];
      for (;;) {
        const r: any = apply(setIterNext, it, []);
        if (r.done) break;
        parts.push(enc(r.value, depth + 1, budget));
        if (budget.chars > MAX_CHARS) break;
      }
      return '{"set":[' + parts.join(',') + ']}';
    }
    // Objects: own enumerable string-keyed data properties (what deepEqual compares).
    const fields: string[] = [];
    for (const k of ownKeys(v)) {
      if (typeof k !== 'string') continue;
      const d = getOwnPropertyDescriptor(v, k);
      if (!d || !d.enumerable) continue;
      const val = 'value' in d ? enc(d.value, depth + 1, budget) : '{"object":"accessor"}';
      fields.push('[' + stringify(k) + ',' + val + ']');
    }
    return '{"object":' + stringify(typeName(v)) + ',"fields":[' + fields.join(',') + ']}';
  }

  function observe(t: number, v: unknown): void {
    let text: string;
    try {
      text = enc(v, 0, { chars: 0 });
    } catch (_) {
      text = '{"truncated":null}';
    }
    emit('{"t":' + t + ',"v":' + text + '}');
  }

  function raised(t: number, e: unknown): void {
    let type: string = typeof e;
    let message = '';
    try {
      if (e !== null && typeof e === 'object') {
        type = typeName(e);
        const d = getOwnPropertyDescriptor(e, 'message');
        if (d && typeof d.value === 'string') message = d.value;
      } else {
        message = String_(e);
      }
    } catch (_) {}
    emit('{"t":' + t + ',"raised":{"type":' + stringify(type) + ',"message":' + stringify(message.slice(0, 500)) + '}}');
  }

  function tamper(evidence: string): void {
    emit('{"tamper":' + stringify(evidence) + '}');
  }

  function finish(): void {
    for (const [k, original] of assertSnapshot) {
      const d = getOwnPropertyDescriptor(assertModule, k);
      if (!d || d.value !== original) tamper('node:assert.' + String_(k) + ' was replaced');
    }
    if (require('node:assert') !== assertModule) tamper("require('node:assert') was redirected");
    for (const ev of ['uncaughtException', 'uncaughtExceptionMonitor', 'unhandledRejection', 'exit', 'beforeExit']) {
      if (apply(listenerCount, process, [ev]) > 0) tamper("process.on('" + ev + "') installed a handler");
    }
    if (process.exit !== processExit) tamper('process.exit was replaced');
    emit('{"end":null}');
  }

  return Object.freeze({ observe, raised, finish });
})();
