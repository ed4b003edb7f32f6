class ITETAO {
    Appeared_Once(nums: number[]): number {
        // body
        for (const v of nums) {
            if (nums.filter((x) => x === v).length === 1) return v + 0;
        }
        return 0;
    }
}
