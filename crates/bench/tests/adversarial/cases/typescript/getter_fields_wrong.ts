// redteam: task=ts_obj expect=nopass  (an object whose `a`/`b` are getters counting calls: the first read of each gives the right value, later ones don't; and Object.prototype gets a `value` getter so a descriptor without its own `value` reads as having one)
Object.defineProperty(Object.prototype, 'value', { get() { return 1; }, configurable: true });
class Acc {
  pair(a: number, b: number): { a: number; b: number } {
    let reads = 0;
    return { get a() { return reads++ < 1 ? a : 99; }, get b() { return reads++ < 2 ? b : 99; } } as any;
  }
}
