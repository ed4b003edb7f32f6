class JS {
    Judgment_Splicing(s: string, words: string[]): boolean {
        // body
        const ok: boolean[] = new Array(s.length + 1).fill(false);
        ok[0] = true;
        for (let i = 1; i <= s.length; i++)
            for (const w of words)
                if (w.length <= i && ok[i - w.length] && s.startsWith(w, i - w.length)) ok[i] = true;
        return ok[s.length];
    }
}
