#include <vector>
#include <algorithm>
class FTM {
public:
    double find_the_median(std::vector<int> a, std::vector<int> b) {
        // body
        a.insert(a.end(), b.begin(), b.end());
        std::sort(a.begin(), a.end());
        size_t n = a.size();
        double m = n % 2 ? a[n / 2] : (a[n / 2 - 1] + a[n / 2]) / 2.0;
        return m + 0;
    }
};
