// redteam: task=ts_acc expect=nopass  (right values, but a type error `tsc --strict` reports: a compile error, as in Java, although node would run the emitted JavaScript)
class Acc {
  add(a: number, b: number): number { const s: string = a + b; return a + b; }
  greet(n: string): string { return 'hi ' + n; }
}
