// redteam: task=cpp_vec expect=pass  (a std::deque where the test writes a std::vector: the same elements; compared by value whatever the container, so a correct solution is not scored on the container it picked — upstream, a compile error)
#include <deque>
class Seq {
public:
    std::deque<int> items() { return {1, 2}; }
};
