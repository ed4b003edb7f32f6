// redteam: task=cpp_acc expect=nopass  (holds: a macro over `observe` reaches the test body, which comes after the code; it can only report values it knows)
#include <string>
#define observe(t, v) observe(t, 3)
class Acc {
public:
    int add(int a, int b) { return 0; }
    std::string greet(const std::string& n) { return ""; }
};
