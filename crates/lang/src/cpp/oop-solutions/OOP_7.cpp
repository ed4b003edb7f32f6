#include <string>
class PDIT {
public:
    bool Palindromic_integer(long long x) {
        // body
        if (x < 0) return false;
        std::string s = std::to_string(x);
        return std::string(s.rbegin(), s.rend()) == s;
    }
};
