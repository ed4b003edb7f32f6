// redteam: task=ts_acc expect=nopass then=cases/typescript/victim_augments_number.ts:pass,cases/controls/ts_acc_wrong.ts:nopass  (the warm compiler keeps node's and the standard library's declaration files parsed between samples; this sample merges declarations into them (`interface Number`, the ambient module `fs`): if a merge reached the cached files, the victim's own `tag: string` declarations would conflict and its compile fail)
interface Number { tag: number }
declare module 'fs' { export const tag: number; }
class Acc {
  add(a: number, b: number): number { return a * b; }
  greet(n: string): string { return 'hi ' + n; }
}
