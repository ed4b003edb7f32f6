// @ts-nocheck
// redteam: task=ts_acc expect=nopass  (`// @ts-nocheck` silences the redeclaration; a `var __polyeval` with a forging observer is then node's SyntaxError, not a second observer)
var __polyeval = {
  observe: (t: number) => console.log('\n\x1epolyeval-judge {"t":' + t + ',"v":3}'),
  raised: () => {},
  finish: () => console.log('\n\x1epolyeval-judge {"end":null}'),
};
class Acc {
  add(a: number, b: number): number { return 7; }
  greet(n: string): string { return 'no'; }
}
