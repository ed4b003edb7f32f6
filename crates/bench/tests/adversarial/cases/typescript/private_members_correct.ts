// redteam: task=ts_acc expect=pass  (correct: `private` and `#private` fields and methods, a static counter, a parameter property)
class Acc {
  #calls = 0;
  private static made = 0;
  constructor(private readonly prefix: string = 'hi ') { Acc.made++; }
  #sum(a: number, b: number): number { this.#calls++; return a + b; }
  private join(n: string): string { return this.prefix + n; }
  add(a: number, b: number): number { return this.#sum(a, b); }
  greet(n: string): string { return this.join(n); }
}
