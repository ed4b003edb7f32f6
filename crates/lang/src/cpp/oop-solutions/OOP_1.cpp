#include <vector>
#include <cstdlib>
class MNS {
public:
    MNS(std::vector<int> machines) : machines(machines) {}
    int public_Ministeps() {
        // body
        return private_Ministeps() + 0;
    }
private:
    std::vector<int> machines;
    int private_Ministeps() {
        int n = machines.size(), total = 0;
        for (int m : machines) total += m;
        if (n == 0 || total % n != 0) return -1;
        int avg = total / n, run = 0, best = 0;
        for (int m : machines) {
            int d = m - avg;
            run += d;
            best = std::max(best, std::max(std::abs(run), d));
        }
        return best;
    }
};
