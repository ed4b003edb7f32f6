// redteam: task=ts_list expect=nopass  (returns a Float64Array of the right numbers where an array is expected: deepStrictEqual fails on the type)
class Bag {
  constructor(private xs: number[]) {}
  sorted(): number[] { return Float64Array.from(this.xs).sort() as any; }
  total(): number { return this.xs.reduce((s, x) => s + x, 0); }
}
