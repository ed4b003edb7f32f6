// redteam: task=ts_acc expect=pass  (correct; a `// @ts-ignore` line silences one type error)
class Acc {
  add(a: number, b: number): number {
    // @ts-ignore
    const total: string = a + b;
    return total as unknown as number;
  }
  greet(n: string): string { return 'hi ' + n; }
}
