class WDS {
    without_duplicates(s: string): number {
        // body
        const last = new Map<string, number>();
        let best = 0, start = 0;
        for (let i = 0; i < s.length; i++) {
            const j = last.get(s[i]);
            if (j !== undefined && j >= start) start = j + 1;
            last.set(s[i], i);
            best = Math.max(best, i - start + 1);
        }
        return best + 0;
    }
}
