class MNS {
    private machines: number[];
    constructor(machines: number[]) { this.machines = machines; }
    public_Ministeps(): number {
        // body
        return this.#private_Ministeps() + 0;
    }
    #private_Ministeps(): number {
        const n = this.machines.length;
        const total = this.machines.reduce((a, b) => a + b, 0);
        if (n === 0 || total % n !== 0) return -1;
        const avg = total / n;
        let run = 0, best = 0;
        for (const m of this.machines) {
            const d = m - avg;
            run += d;
            best = Math.max(best, Math.abs(run), d);
        }
        return best;
    }
}
