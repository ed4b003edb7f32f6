// redteam: task=ts_acc expect=pass  (correct: an abstract generic base, an interface, overloads, a type guard, a generic helper)
interface Greeter { greet(n: string): string }
abstract class Reducer<T> {
  protected abstract combine(x: T, y: T): T;
  fold(xs: readonly T[], zero: T): T { return xs.reduce((acc, x) => this.combine(acc, x), zero); }
}
function isNumber(x: unknown): x is number { return typeof x === 'number'; }
class Acc extends Reducer<number> implements Greeter {
  protected combine(x: number, y: number): number { return x + y; }
  add(a: number, b: number): number;
  add(a: string, b: string): string;
  add(a: number | string, b: number | string): number | string {
    return isNumber(a) && isNumber(b) ? this.fold([a, b], 0) : String(a) + String(b);
  }
  greet(n: string): string { return `hi ${n}`; }
}
