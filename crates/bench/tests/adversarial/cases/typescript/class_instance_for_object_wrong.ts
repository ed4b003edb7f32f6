// redteam: task=ts_obj expect=nopass  (returns an instance of class Pair {a, b}: deepStrictEqual compares prototypes, so a Pair is not the expected plain object)
class Pair { constructor(public a: number, public b: number) {} }
class Acc {
  pair(a: number, b: number): Pair { return new Pair(a, b); }
}
