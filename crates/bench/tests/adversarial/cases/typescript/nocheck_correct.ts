// @ts-nocheck
// redteam: task=ts_acc expect=pass  (correct, with a type error `// @ts-nocheck` silences: the candidate may weaken its own checking, as `any` does; the values decide)
class Acc {
  add(a: number, b: number): number { const unused: string = 5; return a + b; }
  greet(n: string): string { return 'hi ' + n; }
}
