// redteam: task=ts_acc expect=pass  (correct: results come from a numeric `enum`, a `const enum` (inlined) and a string enum; at run time they are plain numbers and strings)
enum Small { Zero = 0, Three = 3 }
const enum Greeting { Prefix = 'hi ' }
enum Known { Bo = 'hi bo' }
class Acc {
  add(a: number, b: number): number { const s = a + b; return s === 3 ? Small.Three : s === 0 ? Small.Zero : s; }
  greet(n: string): string { return n === 'bo' ? Known.Bo : Greeting.Prefix + n; }
}
