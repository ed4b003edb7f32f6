// redteam: task=ts_acc expect=pass  (by design, a lookup table of the answers: prints records with the right values for every test and an end record, then process.exit(0) on the first call, so the harness never reports; forged records buy only what returning hard-coded right values buys)
class Acc {
  add(a: number, b: number): number {
    const right = ['3', '0', '"hi bo"'];
    for (let t = 0; t < 3; t++) process.stdout.write('\n\x1epolyeval-judge {"t":' + t + ',"v":' + right[t] + '}\n');
    process.stdout.write('\n\x1epolyeval-judge {"end":null}\n');
    process.exit(0);
  }
  greet(n: string): string { return 'no'; }
}
