// redteam: task=ts_acc expect=nopass  (add(-5, 5) returns -0: assert.deepStrictEqual(-0, 0) fails in node, which compares with Object.is)
class Acc {
  add(a: number, b: number): number { const s = a + b; return s === 0 ? -0 : s; }
  greet(n: string): string { return 'hi ' + n; }
}
