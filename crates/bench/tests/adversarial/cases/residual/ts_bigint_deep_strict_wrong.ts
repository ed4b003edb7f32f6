// redteam: task=ts_acc expect=nopass  (wrong type: `add` returns 3n (a method may declare `bigint`; here through `as any`); assert.deepStrictEqual(3n, 3) fails in node; the judge reads both as the integer 3)
class Acc {
  add(a: number, b: number): number { return BigInt(a + b) as any; }
  greet(n: string): string { return 'hi ' + n; }
}
