// redteam: task=ts_acc expect=nopass  (a module that retypes `__polyeval` and `require` with `declare global` and installs a fake observer on globalThis reporting the right values; the harness's statements bind the observer lexically)
export {};
declare global {
  var __polyeval: any;
}
(globalThis as any).__polyeval = {
  observe: (t: number, v: unknown) => console.log('\n\x1epolyeval-judge ' + JSON.stringify({ t, v: [3, 0, 'hi bo'][t] })),
  raised: () => {},
  finish: () => console.log('\n\x1epolyeval-judge {"end":null}'),
};
export class Acc {
  add(a: number, b: number): number { return 7; }
  greet(n: string): string { return 'no'; }
}
