// redteam: task=ts_list expect=pass  (correct: a parameter property, readonly arrays, a Set and a Map inside, a generator spread, a typed tuple)
class Bag {
  private readonly seen = new Set<number>();
  private readonly counts = new Map<number, number>();
  constructor(private readonly xs: ReadonlyArray<number>) {
    for (const x of xs) { this.seen.add(x); this.counts.set(x, (this.counts.get(x) ?? 0) + 1); }
  }
  *#each(): Generator<number> { yield* this.xs; }
  sorted(): number[] { return [...this.#each()].sort((a, b) => a - b); }
  total(): number { const [first, ...rest]: [number, ...number[]] = [0, ...this.xs]; return rest.reduce((s, x) => s + x, first); }
}
