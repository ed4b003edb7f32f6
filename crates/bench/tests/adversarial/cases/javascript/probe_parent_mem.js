// redteam: task=js_acc expect=nopass  (probe: can the sample open its warm zygote's memory for writing? prints the answer)
const fs = require('fs');
try { fs.closeSync(fs.openSync('/proc/' + process.ppid + '/mem', 'r+')); console.log('parent mem: WRITABLE (ppid ' + process.ppid + ')'); } catch (e) { console.log('parent mem: no ' + e.code); }
class Acc { add(a, b) { return 0; } greet(n) { return ''; } }
