// redteam: task=cpp_vec expect=pass  (control)
#include <vector>
class Seq {
public:
    std::vector<int> items() { return {1, 2}; }
};
