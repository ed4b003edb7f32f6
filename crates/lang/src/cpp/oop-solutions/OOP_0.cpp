#include <string>
#include <unordered_map>
class WDS {
public:
    int without_duplicates(std::string s) {
        // body
        std::unordered_map<char, int> last;
        int best = 0, start = 0;
        for (int i = 0; i < (int)s.size(); i++) {
            auto it = last.find(s[i]);
            if (it != last.end() && it->second >= start) start = it->second + 1;
            last[s[i]] = i;
            if (i - start + 1 > best) best = i - start + 1;
        }
        return best + 0;
    }
};
