// redteam: task=ts_acc expect=pass  (correct; class fields (arrow functions, with useDefineForClassFields as es2022 emits them) shadowing a base's methods, an accessor, a namespace merged with the class)
class Base {
  add(a: number, b: number): number { return 0; }
  greet(n: string): string { return ''; }
}
class Acc extends Base {
  add = (a: number, b: number): number => a + b;
  private _hi = 'hi';
  get hi(): string { return this._hi; }
  greet = (n: string): string => `${this.hi} ${n}`;
}
namespace Acc { export const version = 1; }
