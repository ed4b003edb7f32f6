// redteam: task=ts_map expect=nopass  (returns a plain object of the counts and an array of the letters where a Map and a Set are expected)
class Acc {
  counts(s: string): Record<string, number> { const o: Record<string, number> = {}; for (const c of s) o[c] = (o[c] ?? 0) + 1; return o; }
  letters(s: string): string[] { return [...new Set(s)]; }
}
