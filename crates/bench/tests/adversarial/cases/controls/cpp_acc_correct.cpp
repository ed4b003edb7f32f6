// redteam: task=cpp_acc expect=pass  (control)
#include <string>
class Acc {
public:
    int add(int a, int b) { return a + b; }
    std::string greet(const std::string& n) { return "hi " + n; }
};
