#include <string>
#include <sstream>
#include <vector>
class RWO {
public:
    std::string Reverse_Word_Order(std::string s) {
        // body
        std::istringstream in(s);
        std::vector<std::string> words;
        std::string w;
        while (in >> w) words.push_back(w);
        std::string out;
        for (size_t i = words.size(); i-- > 0;) {
            out += words[i];
            if (i > 0) out += " ";
        }
        return out;
    }
};
