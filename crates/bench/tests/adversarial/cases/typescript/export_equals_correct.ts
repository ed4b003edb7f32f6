// redteam: task=ts_acc expect=pass  (correct; `export =` the class, as a CommonJS module would)
class Acc {
  add(a: number, b: number): number { return a + b; }
  greet(n: string): string { return 'hi ' + n; }
}
export = Acc;
