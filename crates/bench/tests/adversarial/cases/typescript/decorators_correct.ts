// redteam: task=ts_acc expect=pass  (correct; standard (TC39) method and class decorators, which tsc 5 compiles without a flag)
function logged<This, Args extends unknown[], R>(target: (this: This, ...args: Args) => R, _ctx: ClassMethodDecoratorContext<This>) {
  return function (this: This, ...args: Args): R { return target.apply(this, args); };
}
function sealed<T extends abstract new (...args: any[]) => unknown>(cls: T, _ctx: ClassDecoratorContext<T>): void { Object.seal(cls); }
@sealed
class Acc {
  @logged add(a: number, b: number): number { return a + b; }
  @logged greet(n: string): string { return 'hi ' + n; }
}
