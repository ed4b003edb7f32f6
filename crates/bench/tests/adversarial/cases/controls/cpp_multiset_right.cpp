// redteam: task=cpp_multiset expect=pass  (control: {1,2,2})
#include <set>
class Bag {
public:
    std::multiset<int> items() { return {1, 2, 2}; }
};
