// redteam: task=ts_map expect=pass  (correct: a Map of counts (insertion order a, b) and a Set, as the test's `new Map(...)` / `new Set(...)` expect)
class Acc {
  counts(s: string): Map<string, number> {
    const m = new Map<string, number>();
    for (const c of s) m.set(c, (m.get(c) ?? 0) + 1);
    return m;
  }
  letters(s: string): Set<string> { return new Set(s); }
}
