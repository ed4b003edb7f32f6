#include <string>
#include <vector>
class JS {
public:
    bool Judgment_Splicing(std::string s, std::vector<std::string> words) {
        // body
        std::vector<bool> ok(s.size() + 1, false);
        ok[0] = true;
        for (size_t i = 1; i <= s.size(); i++)
            for (const auto& w : words)
                if (w.size() <= i && ok[i - w.size()] && s.compare(i - w.size(), w.size(), w) == 0) ok[i] = true;
        return ok[s.size()];
    }
};
