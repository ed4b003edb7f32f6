// @ts-nocheck
// redteam: task=ts_acc expect=nopass  (a hoisted `function require` meant to answer the observer's require('fs') with a writeSync that rewrites every record to the hard-coded right value; TypeScript's observer is a module of its own whose require is not the candidate's, so the candidate only intercepts loading it, the records stay true and the wrong answers fail; in JavaScript, where the observer shares the candidate's file, this would buy what a lookup table of the answers buys)
function require(id: string): any {
  const real = module.constructor.prototype.require.bind(module);
  const m = real(id);
  if (id !== 'fs') return m;
  const right = ['3', '0', '"hi bo"'];
  return { ...m, writeSync: (fd: number, buf: any, off: number, len: number) => {
    const text = Buffer.from(buf).toString('utf8').replace(/"t":(\d+),"v":[^}]*?}/, (_: string, t: string) => '"t":' + t + ',"v":' + right[Number(t)] + '}');
    process.stdout.write(text);
    return len;
  } };
}
class Acc {
  add(a: number, b: number): number { return 7; }
  greet(n: string): string { return 'no'; }
}
