// redteam: task=cpp_bytes expect=nopass  (wrong: "\xc3\xbf" (UTF-8 of U+00FF) is not the one byte "\xff")
#include <string>
class Enc {
public:
    std::string enc() { return "\xc3\xbf"; }
};
