class RWO {
    Reverse_Word_Order(s: string): string {
        // body
        return s.split(/\s+/).filter((w) => w.length > 0).reverse().join(' ');
    }
}
