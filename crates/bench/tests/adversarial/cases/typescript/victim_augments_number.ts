// redteam: task=ts_acc expect=pass  (correct; declares `Number.tag` and `fs.tag` as strings: a compile that still saw another sample's `number` declarations would reject it)
interface Number { tag: string }
declare module 'fs' { export const tag: string; }
class Acc {
  add(a: number, b: number): number { return a + b; }
  greet(n: string): string { return 'hi ' + n; }
}
