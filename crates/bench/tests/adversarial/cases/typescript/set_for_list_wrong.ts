// redteam: task=ts_list expect=nopass  (returns a Set of the sorted numbers where an array is expected)
class Bag {
  constructor(private xs: number[]) {}
  sorted(): number[] { return new Set([...this.xs].sort((a, b) => a - b)) as any; }
  total(): number { return this.xs.reduce((s, x) => s + x, 0); }
}
