// redteam: task=cpp_bytes expect=pass  (correct: the one byte 0xff)
#include <string>
class Enc {
public:
    std::string enc() { return "\xff"; }
};
