// redteam: task=ts_acc expect=pass  (correct; imports node's `path`, resolved by the compiler through the nearest `node_modules` first)
import * as path from 'path';
export class Acc {
  add(a: number, b: number): number { return a + b; }
  greet(n: string): string { return path.basename('/x/hi') + ' ' + n; }
}
