class CRTP {
    climb_rooftop(n: number): number {
        // body
        let a = 1, b = 1;
        for (let i = 2; i <= n; i++) { [a, b] = [b, a + b]; }
        return b + 0;
    }
}
