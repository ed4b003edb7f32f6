#include <vector>
class ITETAO {
public:
    int Appeared_Once(std::vector<int> nums) {
        // body
        for (size_t i = 0; i < nums.size(); i++) {
            int count = 0;
            for (int x : nums) if (x == nums[i]) count++;
            if (count == 1) return nums[i] + 0;
        }
        return 0;
    }
};
