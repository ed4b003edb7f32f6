// redteam: task=cpp_multiset expect=nopass  (wrong: {1,1,2} is not {1,2,2}; C++'s == says so)
#include <set>
class Bag {
public:
    std::multiset<int> items() { return {1, 1, 2}; }
};
