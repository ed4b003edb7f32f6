// redteam: task=ts_map expect=pass  (correct: the same Map and Set built in the other insertion order; deepStrictEqual does not compare Map or Set order)
class Acc {
  counts(s: string): Map<string, number> { return new Map([['b', [...s].filter((c) => c === 'b').length], ['a', [...s].filter((c) => c === 'a').length]]); }
  letters(s: string): Set<string> { return new Set([...s].reverse()); }
}
