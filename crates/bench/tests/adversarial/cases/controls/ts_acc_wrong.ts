// redteam: task=ts_acc expect=nopass  (control: wrong, `a - b`; the warm-worker attacks try to turn it into `a + b`)
class Acc {
  add(a: number, b: number): number { return a - b; }
  greet(n: string): string { return 'hi ' + n; }
}
