// redteam: task=js_strict expect=nopass  (wrong type: 3n !== 3 under strictEqual; the judge reads both as the integer 3)
class Acc {
  add(a, b) { return BigInt(a + b); }
}
