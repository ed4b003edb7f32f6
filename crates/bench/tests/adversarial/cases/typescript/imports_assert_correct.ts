// redteam: task=ts_acc expect=pass  (correct; imports `assert` itself, as a test-minded solution does, under the name the test lines also bind)
import assert from 'node:assert';
class Acc {
  add(a: number, b: number): number { assert.ok(Number.isFinite(a)); return a + b; }
  greet(n: string): string { return 'hi ' + n; }
}
export { Acc };
