// redteam: task=ts_acc expect=nopass  (declares `namespace __polyeval` with its own observe/finish: TypeScript rejects the duplicate of the observer's const)
namespace __polyeval {
  export function observe(t: number, v: unknown): void { console.log('\n\x1epolyeval-judge {"t":' + t + ',"v":3}'); }
  export function raised(t: number, e: unknown): void {}
  export function finish(): void { console.log('\n\x1epolyeval-judge {"end":null}'); }
}
class Acc {
  add(a: number, b: number): number { return 7; }
  greet(n: string): string { return 'no'; }
}
