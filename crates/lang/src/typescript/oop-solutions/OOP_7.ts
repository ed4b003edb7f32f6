class PDIT {
    Palindromic_integer(x: number): boolean {
        // body
        if (x < 0) return false;
        const s = String(x);
        return s.split('').reverse().join('') === s;
    }
}
