class FTM {
    find_the_median(a: number[], b: number[]): number {
        // body
        const all = [...a, ...b].sort((x, y) => x - y);
        const n = all.length;
        const m = n % 2 === 1 ? all[(n - 1) / 2] : (all[n / 2 - 1] + all[n / 2]) / 2;
        return m + 0;
    }
}
