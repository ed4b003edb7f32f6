// redteam: task=ts_list expect=nopass  (right elements, but the array carries an extra own enumerable property: deepStrictEqual compares own keys, so node fails it; the observer reads an array by its elements only)
class Bag {
  constructor(private xs: number[]) {}
  sorted(): number[] { const r = [...this.xs].sort((x, y) => x - y); (r as any).cached = true; return r; }
  total(): number { return this.xs.reduce((s, x) => s + x, 0); }
}
