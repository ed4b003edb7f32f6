// redteam: task=ts_obj expect=pass  (correct: an object literal typed by an interface, built with a spread and a readonly field)
interface PairShape { readonly a: number; b: number }
class Acc {
  pair(a: number, b: number): PairShape { const base = { a }; return { ...base, b }; }
}
