// redteam: task=ts_acc expect=nopass  (right values, but a top-level `await`: `tsc` rejects it under `--module commonjs` (TS1378), a compile error; the harness compiles to CommonJS as node runs it)
export class Acc {
  add(a: number, b: number): number { return a + b; }
  greet(n: string): string { return 'hi ' + n; }
}
await Promise.resolve();
