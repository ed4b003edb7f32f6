// redteam: task=ts_acc expect=pass  (correct: an ES module shape (`export class`, `import` of node modules, `export default`), a `const enum` and an `enum` used inside)
import { strict as assertStrict } from 'assert';
import * as util from 'node:util';
const enum Op { Plus = 1 }
enum Word { Hi = 'hi' }
export class Acc {
  add(a: number, b: number): number { assertStrict.ok(Op.Plus === 1); return a + b; }
  greet(n: string): string { return util.format('%s %s', Word.Hi, n); }
}
export default Acc;
