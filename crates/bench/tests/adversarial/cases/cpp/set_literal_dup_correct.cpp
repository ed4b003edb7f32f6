// redteam: task=cpp_set_dup expect=pass  (correct: std::set<int>{1,2,2} is {1,2})
#include <set>
class Bag {
public:
    std::set<int> uniq() { return {1, 2}; }
};
