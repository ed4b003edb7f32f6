// redteam: task=ts_obj expect=nopass  (returns a Map of a and b where a plain object is expected)
class Acc {
  pair(a: number, b: number): Map<string, number> { return new Map([['a', a], ['b', b]]); }
}
