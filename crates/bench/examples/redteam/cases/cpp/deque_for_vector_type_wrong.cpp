// redteam: task=cpp_vec expect=nopass  (wrong type: a std::deque where the test compares with a std::vector does not compile upstream; the judge compares elements)
#include <deque>
class Seq {
public:
    std::deque<int> items() { return {1, 2}; }
};
