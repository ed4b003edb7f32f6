// redteam: task=ts_acc expect=pass  (control)
class Acc {
  add(a: number, b: number): number { return a + b; }
  greet(n: string): string { return 'hi ' + n; }
}
