//! The regenerated typed suites accept every reasonable representation: for
//! each task and typed language (C++, Java, C#, Go), two correct solutions
//! of our own that differ only in the types they declare — arrays against
//! lists, `int` against `long`/`long long`/`int64`, by value against const
//! reference, pointer against value receivers — both pass (every kept test
//! judged, pass@o satisfied), and their wrong variants (a thrown exception;
//! an off-by-one result where the result is a number) fail in both
//! representations. OOP/275 passes two rectangles, one of which holds 0.5
//! in some test: a solution declaring both as doubles passes, one declaring
//! both as ints fails (it cannot hold the data).

use polyeval_bench::eval::EvalItem;
use polyeval_bench::multioop::OopEvaluator;
use polyeval_bench::EvalOptions;
use polyeval_bench::{Evaluator, Task};
use polyeval_core::data::shared_test_data;
use polyeval_core::progress::Progress;
use polyeval_core::Bench;
use polyeval_lang::{status::Status, Language};
use polyeval_translate::{translate, TranslateOptions};

/// A solution in representation A and the edits that turn it into
/// representation B (each `from` must occur).
struct Solution {
    lang: Language,
    a: &'static str,
    b: &'static [(&'static str, &'static str)],
}

struct Case {
    task: &'static str,
    numeric_result: bool,
    solutions: [Solution; 4],
}

use Language::{CSharp, Cpp, Go, Java};

const JAVA_LIST: &str =
    "List<Long> xs) {\n        int[] a = xs.stream().mapToInt(Long::intValue).toArray();";
const CS_LIST: &str =
    "System.Collections.Generic.IList<long> xs) {\n        int[] a = System.Linq.Enumerable.ToArray(System.Linq.Enumerable.Select(xs, x => (int)x));";
const CPP_REF: &str =
    "const std::vector<long long>& xs) {\n        std::vector<int> a(xs.begin(), xs.end());";
const GO_SLICE: &str = "xs []int64) int64 {\n\ta := make([]int, len(xs))\n\tfor i, x := range xs {\n\t\ta[i] = int(x)\n\t}";

fn cases() -> Vec<Case> {
    vec![
        Case {
            task: "OOP/20",
            numeric_result: true,
            solutions: [
                Solution {
                    lang: Cpp,
                    a: "#include <vector>\n#include <algorithm>\nclass HTRW {\npublic:\n    int harvest_rainwater(std::vector<int> a) {\n        // body\n        int n = a.size(), w = 0;\n        for (int i = 0; i < n; i++) {\n            int l = 0, r = 0;\n            for (int j = 0; j <= i; j++) l = std::max(l, a[j]);\n            for (int j = i; j < n; j++) r = std::max(r, a[j]);\n            w += std::min(l, r) - a[i];\n        }\n        return w + 0;\n    }\n};\n",
                    b: &[("int harvest_rainwater(std::vector<int> a) {", "long long harvest_rainwater(const std::vector<long long>& xs) {\n        std::vector<int> a(xs.begin(), xs.end());")],
                },
                Solution {
                    lang: Java,
                    a: "import java.util.*;\npublic class HTRW {\n    public int harvest_rainwater(int[] a) {\n        // body\n        int n = a.length, w = 0;\n        for (int i = 0; i < n; i++) {\n            int l = 0, r = 0;\n            for (int j = 0; j <= i; j++) l = Math.max(l, a[j]);\n            for (int j = i; j < n; j++) r = Math.max(r, a[j]);\n            w += Math.min(l, r) - a[i];\n        }\n        return w + 0;\n    }\n}\n",
                    b: &[("public int harvest_rainwater(int[] a) {", "public long harvest_rainwater(List<Long> xs) {\n        int[] a = xs.stream().mapToInt(Long::intValue).toArray();")],
                },
                Solution {
                    lang: CSharp,
                    a: "using System;\npublic class HTRW {\n    public int harvest_rainwater(int[] a) {\n        // body\n        int n = a.Length, w = 0;\n        for (int i = 0; i < n; i++) {\n            int l = 0, r = 0;\n            for (int j = 0; j <= i; j++) l = Math.Max(l, a[j]);\n            for (int j = i; j < n; j++) r = Math.Max(r, a[j]);\n            w += Math.Min(l, r) - a[i];\n        }\n        return w + 0;\n    }\n}\n",
                    b: &[("public int harvest_rainwater(int[] a) {", "public long harvest_rainwater(System.Collections.Generic.IList<long> xs) {\n        int[] a = System.Linq.Enumerable.ToArray(System.Linq.Enumerable.Select(xs, x => (int)x));")],
                },
                Solution {
                    lang: Go,
                    a: "type HTRW struct{}\n\nfunc NewHTRW() *HTRW { return &HTRW{} }\n\nfunc (h *HTRW) harvest_rainwater(a []int) int {\n\t// body\n\tw := 0\n\tfor i := range a {\n\t\tl, r := 0, 0\n\t\tfor j := 0; j <= i; j++ {\n\t\t\tif a[j] > l {\n\t\t\t\tl = a[j]\n\t\t\t}\n\t\t}\n\t\tfor j := i; j < len(a); j++ {\n\t\t\tif a[j] > r {\n\t\t\t\tr = a[j]\n\t\t\t}\n\t\t}\n\t\tif l < r {\n\t\t\tr = l\n\t\t}\n\t\tw += r - a[i]\n\t}\n\treturn w + 0\n}\n",
                    b: &[("func (h *HTRW) harvest_rainwater(a []int) int {", "func (h HTRW) harvest_rainwater(xs []int64) int64 {\n\ta := make([]int, len(xs))\n\tfor i, x := range xs {\n\t\ta[i] = int(x)\n\t}"), ("return w + 0", "return int64(w) + 0")],
                },
            ],
        },
        Case {
            task: "OOP/27",
            numeric_result: true,
            solutions: [
                Solution {
                    lang: Cpp,
                    a: "#include <vector>\n#include <algorithm>\nclass FDSB {\npublic:\n    int find_subarray(std::vector<int> a) {\n        // body\n        if (a.empty()) return 0;\n        int cur = a[0], best = a[0];\n        for (size_t i = 1; i < a.size(); i++) { cur = std::max(a[i], cur + a[i]); best = std::max(best, cur); }\n        return best + 0;\n    }\n};\n",
                    b: &[("int find_subarray(std::vector<int> a) {", "int64_t find_subarray(const std::vector<long long>& xs) {\n        std::vector<int> a(xs.begin(), xs.end());")],
                },
                Solution {
                    lang: Java,
                    a: "public class FDSB {\n    public int find_subarray(int[] a) {\n        // body\n        if (a.length == 0) return 0;\n        int cur = a[0], best = a[0];\n        for (int i = 1; i < a.length; i++) { cur = Math.max(a[i], cur + a[i]); best = Math.max(best, cur); }\n        return best + 0;\n    }\n}\n",
                    b: &[("public class", "import java.util.*;\npublic class"), ("public int find_subarray(int[] a) {", "public long find_subarray(Collection<Integer> xs) {\n        int[] a = xs.stream().mapToInt(Integer::intValue).toArray();")],
                },
                Solution {
                    lang: CSharp,
                    a: "using System;\npublic class FDSB {\n    public int find_subarray(int[] a) {\n        // body\n        if (a.Length == 0) return 0;\n        int cur = a[0], best = a[0];\n        for (int i = 1; i < a.Length; i++) { cur = Math.Max(a[i], cur + a[i]); best = Math.Max(best, cur); }\n        return best + 0;\n    }\n}\n",
                    b: &[("public int find_subarray(int[] a) {", "public long find_subarray(System.Collections.Generic.List<int> xs) {\n        int[] a = xs.ToArray();")],
                },
                Solution {
                    lang: Go,
                    a: "type FDSB struct{}\n\nfunc NewFDSB() *FDSB { return &FDSB{} }\n\nfunc (f *FDSB) find_subarray(a []int) int {\n\t// body\n\tif len(a) == 0 {\n\t\treturn 0\n\t}\n\tcur, best := a[0], a[0]\n\tfor _, x := range a[1:] {\n\t\tif cur+x > x {\n\t\t\tcur += x\n\t\t} else {\n\t\t\tcur = x\n\t\t}\n\t\tif cur > best {\n\t\t\tbest = cur\n\t\t}\n\t}\n\treturn best + 0\n}\n",
                    b: &[("func (f *FDSB) find_subarray(a []int) int {", "func (f FDSB) find_subarray(xs []int32) int64 {\n\ta := make([]int, len(xs))\n\tfor i, x := range xs {\n\t\ta[i] = int(x)\n\t}"), ("return best + 0", "return int64(best) + 0")],
                },
            ],
        },
        Case {
            task: "OOP/41",
            numeric_result: true,
            solutions: [
                Solution {
                    lang: Cpp,
                    a: "#include <vector>\n#include <algorithm>\n#include <climits>\nclass CMP {\npublic:\n    int Calculate_Maximum_Profit(std::vector<int> a) {\n        // body\n        long long b1 = LLONG_MIN / 2, s1 = 0, b2 = LLONG_MIN / 2, s2 = 0;\n        for (int p : a) { b1 = std::max(b1, (long long)-p); s1 = std::max(s1, b1 + p); b2 = std::max(b2, s1 - p); s2 = std::max(s2, b2 + p); }\n        return (int)s2 + 0;\n    }\n};\n",
                    b: &[("int Calculate_Maximum_Profit(std::vector<int> a) {", "long long Calculate_Maximum_Profit(std::vector<long long>& xs) {\n        std::vector<int> a(xs.begin(), xs.end());")],
                },
                Solution {
                    lang: Java,
                    a: "public class CMP {\n    public int Calculate_Maximum_Profit(int[] a) {\n        // body\n        long b1 = Long.MIN_VALUE / 2, s1 = 0, b2 = Long.MIN_VALUE / 2, s2 = 0;\n        for (int p : a) { b1 = Math.max(b1, -p); s1 = Math.max(s1, b1 + p); b2 = Math.max(b2, s1 - p); s2 = Math.max(s2, b2 + p); }\n        return (int) s2 + 0;\n    }\n}\n",
                    b: &[("public class", "import java.util.*;\npublic class"), ("public int Calculate_Maximum_Profit(int[] a) {", "public long Calculate_Maximum_Profit(Integer[] xs) {\n        int[] a = Arrays.stream(xs).mapToInt(Integer::intValue).toArray();")],
                },
                Solution {
                    lang: CSharp,
                    a: "using System;\npublic class CMP {\n    public int Calculate_Maximum_Profit(int[] a) {\n        // body\n        long b1 = long.MinValue / 2, s1 = 0, b2 = long.MinValue / 2, s2 = 0;\n        foreach (int p in a) { b1 = Math.Max(b1, -p); s1 = Math.Max(s1, b1 + p); b2 = Math.Max(b2, s1 - p); s2 = Math.Max(s2, b2 + p); }\n        return (int) s2 + 0;\n    }\n}\n",
                    b: &[("public int Calculate_Maximum_Profit(int[] a) {", "public long Calculate_Maximum_Profit(long[] xs) {\n        int[] a = Array.ConvertAll(xs, x => (int)x);")],
                },
                Solution {
                    lang: Go,
                    a: "type CMP struct{}\n\nfunc NewCMP() *CMP { return &CMP{} }\n\nfunc max(a, b int) int {\n\tif a > b {\n\t\treturn a\n\t}\n\treturn b\n}\n\nfunc (c *CMP) Calculate_Maximum_Profit(a []int) int {\n\t// body\n\tb1, s1, b2, s2 := -1<<40, 0, -1<<40, 0\n\tfor _, p := range a {\n\t\tb1 = max(b1, -p)\n\t\ts1 = max(s1, b1+p)\n\t\tb2 = max(b2, s1-p)\n\t\ts2 = max(s2, b2+p)\n\t}\n\treturn s2 + 0\n}\n",
                    b: &[("a []int) int {", GO_SLICE), ("return s2 + 0", "return int64(s2) + 0")],
                },
            ],
        },
        Case {
            task: "OOP/19",
            numeric_result: true,
            solutions: [
                Solution {
                    lang: Cpp,
                    a: "#include <vector>\n#include <set>\nclass TSPI {\npublic:\n    int smallest_positive_integer(std::vector<int> a) {\n        // body\n        std::set<int> s(a.begin(), a.end());\n        int k = 1;\n        while (s.count(k)) k++;\n        return k + 0;\n    }\n};\n",
                    b: &[("std::vector<int> a) {", CPP_REF), ("int smallest_positive_integer(", "unsigned long smallest_positive_integer(")],
                },
                Solution {
                    lang: Java,
                    a: "import java.util.*;\npublic class TSPI {\n    public int smallest_positive_integer(int[] a) {\n        // body\n        Set<Integer> s = new HashSet<>();\n        for (int x : a) s.add(x);\n        int k = 1;\n        while (s.contains(k)) k++;\n        return k + 0;\n    }\n}\n",
                    b: &[("int[] a) {", JAVA_LIST)],
                },
                Solution {
                    lang: CSharp,
                    a: "using System.Collections.Generic;\npublic class TSPI {\n    public int smallest_positive_integer(int[] a) {\n        // body\n        var s = new HashSet<int>(a);\n        int k = 1;\n        while (s.Contains(k)) k++;\n        return k + 0;\n    }\n}\n",
                    b: &[("int[] a) {", CS_LIST)],
                },
                Solution {
                    lang: Go,
                    a: "type TSPI struct{}\n\nfunc NewTSPI() *TSPI { return &TSPI{} }\n\nfunc (t *TSPI) smallest_positive_integer(a []int) int {\n\t// body\n\ts := map[int]bool{}\n\tfor _, x := range a {\n\t\ts[x] = true\n\t}\n\tk := 1\n\tfor s[k] {\n\t\tk++\n\t}\n\treturn k + 0\n}\n",
                    b: &[("a []int) int {", GO_SLICE), ("return k + 0", "return int64(k) + 0")],
                },
            ],
        },
        Case {
            task: "OOP/47",
            numeric_result: true,
            solutions: [
                Solution {
                    lang: Cpp,
                    a: "#include <vector>\nclass ITETAO {\npublic:\n    int Appeared_Once(std::vector<int> a) {\n        // body\n        for (size_t i = 0; i < a.size(); i++) {\n            int count = 0;\n            for (int x : a) if (x == a[i]) count++;\n            if (count == 1) return a[i] + 0;\n        }\n        return 0;\n    }\n};\n",
                    b: &[("std::vector<int> a) {", CPP_REF)],
                },
                Solution {
                    lang: Java,
                    a: "public class ITETAO {\n    public int Appeared_Once(int[] a) {\n        // body\n        for (int v : a) {\n            int count = 0;\n            for (int x : a) if (x == v) count++;\n            if (count == 1) return v + 0;\n        }\n        return 0;\n    }\n}\n",
                    b: &[("public class", "import java.util.*;\npublic class"), ("int[] a) {", JAVA_LIST)],
                },
                Solution {
                    lang: CSharp,
                    a: "public class ITETAO {\n    public int Appeared_Once(int[] a) {\n        // body\n        foreach (int v in a) {\n            int count = 0;\n            foreach (int x in a) if (x == v) count++;\n            if (count == 1) return v + 0;\n        }\n        return 0;\n    }\n}\n",
                    b: &[("int[] a) {", CS_LIST)],
                },
                Solution {
                    lang: Go,
                    a: "type ITETAO struct{}\n\nfunc NewITETAO() *ITETAO { return &ITETAO{} }\n\nfunc (t *ITETAO) Appeared_Once(a []int) int {\n\t// body\n\tfor _, v := range a {\n\t\tcount := 0\n\t\tfor _, x := range a {\n\t\t\tif x == v {\n\t\t\t\tcount++\n\t\t\t}\n\t\t}\n\t\tif count == 1 {\n\t\t\treturn v + 0\n\t\t}\n\t}\n\treturn 0\n}\n",
                    b: &[("a []int) int {", GO_SLICE), ("return v + 0", "return int64(v) + 0")],
                },
            ],
        },
        Case {
            task: "OOP/1",
            numeric_result: true,
            solutions: [
                Solution {
                    lang: Cpp,
                    a: "#include <vector>\n#include <cstdlib>\n#include <algorithm>\nclass MNS {\npublic:\n    MNS(std::vector<int> m) : machines(m) {}\n    int public_Ministeps() {\n        // body\n        return private_Ministeps() + 0;\n    }\nprivate:\n    std::vector<int> machines;\n    int private_Ministeps() {\n        int n = machines.size(), total = 0;\n        for (int m : machines) total += m;\n        if (n == 0 || total % n != 0) return -1;\n        int avg = total / n, run = 0, best = 0;\n        for (int m : machines) { int d = m - avg; run += d; best = std::max(best, std::max(std::abs(run), d)); }\n        return best;\n    }\n};\n",
                    b: &[("MNS(std::vector<int> m) : machines(m) {}", "MNS(const std::vector<long long>& m) : machines(m.begin(), m.end()) {}"), ("int public_Ministeps() {", "long long public_Ministeps() {")],
                },
                Solution {
                    lang: Java,
                    a: "import java.util.*;\npublic class MNS {\n    private final int[] machines;\n    public MNS(int[] machines) { this.machines = machines; }\n    public int public_Ministeps() {\n        // body\n        return private_Ministeps() + 0;\n    }\n    private int private_Ministeps() {\n        int n = machines.length, total = 0;\n        for (int m : machines) total += m;\n        if (n == 0 || total % n != 0) return -1;\n        int avg = total / n, run = 0, best = 0;\n        for (int m : machines) { int d = m - avg; run += d; best = Math.max(best, Math.max(Math.abs(run), d)); }\n        return best;\n    }\n}\n",
                    b: &[("public MNS(int[] machines) { this.machines = machines; }", "public MNS(ArrayList<Integer> ms) { this.machines = ms.stream().mapToInt(Integer::intValue).toArray(); }"), ("public int public_Ministeps() {", "public long public_Ministeps() {")],
                },
                Solution {
                    lang: CSharp,
                    a: "using System;\npublic class MNS {\n    private readonly int[] machines;\n    public MNS(int[] machines) { this.machines = machines; }\n    public int public_Ministeps() {\n        // body\n        return private_Ministeps() + 0;\n    }\n    private int private_Ministeps() {\n        int n = machines.Length, total = 0;\n        foreach (int m in machines) total += m;\n        if (n == 0 || total % n != 0) return -1;\n        int avg = total / n, run = 0, best = 0;\n        foreach (int m in machines) { int d = m - avg; run += d; best = Math.Max(best, Math.Max(Math.Abs(run), d)); }\n        return best;\n    }\n}\n",
                    b: &[("public MNS(int[] machines) { this.machines = machines; }", "public MNS(System.Collections.Generic.List<int> ms) { this.machines = ms.ToArray(); }"), ("public int public_Ministeps() {", "public long public_Ministeps() {")],
                },
                Solution {
                    lang: Go,
                    a: "type MNS struct{ machines []int }\n\nfunc NewMNS(machines []int) *MNS { return &MNS{machines: machines} }\n\nfunc (m *MNS) public_Ministeps() int {\n\t// body\n\treturn m.private_Ministeps() + 0\n}\n\nfunc (m *MNS) private_Ministeps() int {\n\tn, total := len(m.machines), 0\n\tfor _, x := range m.machines {\n\t\ttotal += x\n\t}\n\tif n == 0 || total%n != 0 {\n\t\treturn -1\n\t}\n\tavg, run, best := total/n, 0, 0\n\tfor _, x := range m.machines {\n\t\td := x - avg\n\t\trun += d\n\t\ta := run\n\t\tif a < 0 {\n\t\t\ta = -a\n\t\t}\n\t\tif a > best {\n\t\t\tbest = a\n\t\t}\n\t\tif d > best {\n\t\t\tbest = d\n\t\t}\n\t}\n\treturn best\n}\n",
                    b: &[("func NewMNS(machines []int) *MNS { return &MNS{machines: machines} }", "func NewMNS(ms []int64) MNS {\n\tm := MNS{}\n\tfor _, x := range ms {\n\t\tm.machines = append(m.machines, int(x))\n\t}\n\treturn m\n}"), ("func (m *MNS) public_Ministeps() int {", "func (m MNS) public_Ministeps() int64 {"), ("return m.private_Ministeps() + 0", "return int64(m.private_Ministeps()) + 0"), ("func (m *MNS) private_Ministeps() int {", "func (m MNS) private_Ministeps() int {")],
                },
            ],
        },
        Case {
            task: "OOP/3",
            numeric_result: true,
            solutions: [
                Solution {
                    lang: Cpp,
                    a: "#include <vector>\n#include <algorithm>\nclass FTM {\npublic:\n    double find_the_median(std::vector<int> a, std::vector<int> b) {\n        // body\n        a.insert(a.end(), b.begin(), b.end());\n        std::sort(a.begin(), a.end());\n        size_t n = a.size();\n        double m = n % 2 ? a[n / 2] : (a[n / 2 - 1] + a[n / 2]) / 2.0;\n        return m + 0;\n    }\n};\n",
                    b: &[("double find_the_median(std::vector<int> a, std::vector<int> b) {", "float find_the_median(std::vector<double>& a, const std::vector<double>& b) {"), ("double m =", "float m =")],
                },
                Solution {
                    lang: Java,
                    a: "import java.util.*;\npublic class FTM {\n    public double find_the_median(int[] a, int[] b) {\n        // body\n        int[] all = new int[a.length + b.length];\n        System.arraycopy(a, 0, all, 0, a.length);\n        System.arraycopy(b, 0, all, a.length, b.length);\n        Arrays.sort(all);\n        int n = all.length;\n        double m = n % 2 == 1 ? all[n / 2] : (all[n / 2 - 1] + all[n / 2]) / 2.0;\n        return m + 0;\n    }\n}\n",
                    b: &[("public double find_the_median(int[] a, int[] b) {", "public Double find_the_median(List<Integer> la, List<Integer> lb) {\n        int[] a = la.stream().mapToInt(Integer::intValue).toArray();\n        int[] b = lb.stream().mapToInt(Integer::intValue).toArray();")],
                },
                Solution {
                    lang: CSharp,
                    a: "using System;\nusing System.Linq;\npublic class FTM {\n    public double find_the_median(int[] a, int[] b) {\n        // body\n        int[] all = a.Concat(b).OrderBy(x => x).ToArray();\n        int n = all.Length;\n        double m = n % 2 == 1 ? all[n / 2] : (all[n / 2 - 1] + all[n / 2]) / 2.0;\n        return m + 0;\n    }\n}\n",
                    b: &[("public double find_the_median(int[] a, int[] b) {", "public decimal find_the_median(System.Collections.Generic.IEnumerable<long> a, long[] b) {"), ("int[] all =", "long[] all ="), ("double m =", "decimal m ="), ("/ 2.0;", "/ 2.0m;")],
                },
                Solution {
                    lang: Go,
                    a: "import \"sort\"\n\ntype FTM struct{}\n\nfunc NewFTM() *FTM { return &FTM{} }\n\nfunc (f *FTM) find_the_median(a []int, b []int) float64 {\n\t// body\n\tall := append(append([]int{}, a...), b...)\n\tsort.Ints(all)\n\tn := len(all)\n\tvar m float64\n\tif n%2 == 1 {\n\t\tm = float64(all[n/2])\n\t} else {\n\t\tm = float64(all[n/2-1]+all[n/2]) / 2\n\t}\n\treturn m + 0\n}\n",
                    b: &[("func (f *FTM) find_the_median(a []int, b []int) float64 {", "func (f FTM) find_the_median(xa []float64, xb []float32) float64 {\n\tvar a, b []int\n\tfor _, x := range xa {\n\t\ta = append(a, int(x))\n\t}\n\tfor _, x := range xb {\n\t\tb = append(b, int(x))\n\t}")],
                },
            ],
        },
        Case {
            task: "OOP/48",
            numeric_result: false,
            solutions: [
                Solution {
                    lang: Cpp,
                    a: "#include <string>\n#include <vector>\nclass JS {\npublic:\n    bool Judgment_Splicing(std::string s, std::vector<std::string> words) {\n        // body\n        std::vector<bool> ok(s.size() + 1, false);\n        ok[0] = true;\n        for (size_t i = 1; i <= s.size(); i++)\n            for (const auto& w : words)\n                if (w.size() <= i && ok[i - w.size()] && s.compare(i - w.size(), w.size(), w) == 0) ok[i] = true;\n        return ok[s.size()];\n    }\n};\n",
                    b: &[("bool Judgment_Splicing(std::string s, std::vector<std::string> words) {", "bool Judgment_Splicing(const std::string& s, const std::vector<std::string>& words) {")],
                },
                Solution {
                    lang: Java,
                    a: "import java.util.*;\npublic class JS {\n    public boolean Judgment_Splicing(String s, String[] words) {\n        // body\n        boolean[] ok = new boolean[s.length() + 1];\n        ok[0] = true;\n        for (int i = 1; i <= s.length(); i++)\n            for (String w : words)\n                if (w.length() <= i && ok[i - w.length()] && s.startsWith(w, i - w.length())) ok[i] = true;\n        return ok[s.length()];\n    }\n}\n",
                    b: &[("String[] words) {", "List<String> words) {")],
                },
                Solution {
                    lang: CSharp,
                    a: "public class JS {\n    public bool Judgment_Splicing(string s, string[] words) {\n        // body\n        bool[] ok = new bool[s.Length + 1];\n        ok[0] = true;\n        for (int i = 1; i <= s.Length; i++)\n            foreach (string w in words)\n                if (w.Length <= i && ok[i - w.Length] && string.CompareOrdinal(s, i - w.Length, w, 0, w.Length) == 0) ok[i] = true;\n        return ok[s.Length];\n    }\n}\n",
                    b: &[("string[] words) {", "System.Collections.Generic.IEnumerable<string> words) {")],
                },
                Solution {
                    lang: Go,
                    a: "import \"strings\"\n\ntype JS struct{}\n\nfunc NewJS() *JS { return &JS{} }\n\nfunc (j *JS) Judgment_Splicing(s string, words []string) bool {\n\t// body\n\tok := make([]bool, len(s)+1)\n\tok[0] = true\n\tfor i := 1; i <= len(s); i++ {\n\t\tfor _, w := range words {\n\t\t\tif len(w) <= i && ok[i-len(w)] && strings.HasPrefix(s[i-len(w):], w) {\n\t\t\t\tok[i] = true\n\t\t\t}\n\t\t}\n\t}\n\treturn ok[len(s)]\n}\n",
                    b: &[("func (j *JS) Judgment_Splicing(s string, words []string) bool {", "func (j JS) Judgment_Splicing(bs []byte, words []string) bool {\n\ts := string(bs)")],
                },
            ],
        },
        Case {
            task: "OOP/205",
            numeric_result: false,
            solutions: [
                Solution {
                    lang: Cpp,
                    a: "#include <vector>\n#include <algorithm>\n#include <cstdlib>\nclass FPV {\npublic:\n    FPV(std::vector<int> arr, int k, int x) : arr(arr), k(k), x(x) {}\n    std::vector<int> public_Find_Proximity_Values() {\n        // body\n        return private_Find_Proximity_Values();\n    }\nprivate:\n    std::vector<int> arr;\n    int k, x;\n    std::vector<int> private_Find_Proximity_Values() {\n        std::vector<int> a = arr;\n        int t = x;\n        std::stable_sort(a.begin(), a.end(), [t](int p, int q) { int dp = std::abs(p - t), dq = std::abs(q - t); return dp != dq ? dp < dq : p < q; });\n        a.resize(std::min((size_t)k, a.size()));\n        std::sort(a.begin(), a.end());\n        return a;\n    }\n};\n",
                    b: &[("FPV(std::vector<int> arr, int k, int x) : arr(arr), k(k), x(x) {}", "FPV(const std::vector<long long>& v, long long k, int64_t x) : arr(v.begin(), v.end()), k(k), x(x) {}"), ("std::vector<int> public_Find_Proximity_Values() {\n        // body\n        return private_Find_Proximity_Values();", "std::vector<long long> public_Find_Proximity_Values() {\n        // body\n        std::vector<int> r = private_Find_Proximity_Values();\n        return std::vector<long long>(r.begin(), r.end());")],
                },
                Solution {
                    lang: Java,
                    a: "import java.util.*;\npublic class FPV {\n    private int[] arr;\n    private int k, x;\n    public FPV(int[] arr, int k, int x) { this.arr = arr; this.k = k; this.x = x; }\n    public int[] public_Find_Proximity_Values() {\n        // body\n        return private_Find_Proximity_Values();\n    }\n    private int[] private_Find_Proximity_Values() {\n        Integer[] a = Arrays.stream(arr).boxed().toArray(Integer[]::new);\n        Arrays.sort(a, (p, q) -> Math.abs(p - x) != Math.abs(q - x) ? Math.abs(p - x) - Math.abs(q - x) : p - q);\n        int[] r = new int[Math.min(k, a.length)];\n        for (int i = 0; i < r.length; i++) r[i] = a[i];\n        Arrays.sort(r);\n        return r;\n    }\n}\n",
                    b: &[("public FPV(int[] arr, int k, int x) { this.arr = arr; this.k = k; this.x = x; }", "public FPV(List<Integer> arr, long k, Integer x) { this.arr = arr.stream().mapToInt(Integer::intValue).toArray(); this.k = (int) k; this.x = x; }"), ("public int[] public_Find_Proximity_Values() {\n        // body\n        return private_Find_Proximity_Values();", "public List<Integer> public_Find_Proximity_Values() {\n        // body\n        List<Integer> out = new ArrayList<>();\n        for (int v : private_Find_Proximity_Values()) out.add(v);\n        return out;")],
                },
                Solution {
                    lang: CSharp,
                    a: "using System;\nusing System.Linq;\npublic class FPV {\n    private int[] arr;\n    private int k, x;\n    public FPV(int[] arr, int k, int x) { this.arr = arr; this.k = k; this.x = x; }\n    public int[] public_Find_Proximity_Values() {\n        // body\n        return private_Find_Proximity_Values();\n    }\n    private int[] private_Find_Proximity_Values() {\n        return arr.OrderBy(v => Math.Abs(v - x)).ThenBy(v => v).Take(k).OrderBy(v => v).ToArray();\n    }\n}\n",
                    b: &[("public FPV(int[] arr, int k, int x) { this.arr = arr; this.k = k; this.x = x; }", "public FPV(System.Collections.Generic.List<long> arr, long k, long x) { this.arr = arr.Select(v => (int)v).ToArray(); this.k = (int)k; this.x = (int)x; }"), ("public int[] public_Find_Proximity_Values() {\n        // body\n        return private_Find_Proximity_Values();", "public System.Collections.Generic.List<long> public_Find_Proximity_Values() {\n        // body\n        return private_Find_Proximity_Values().Select(v => (long)v).ToList();")],
                },
                Solution {
                    lang: Go,
                    a: "import \"sort\"\n\ntype FPV struct {\n\tarr  []int\n\tk, x int\n}\n\nfunc NewFPV(arr []int, k int, x int) *FPV { return &FPV{arr, k, x} }\n\nfunc (f *FPV) public_Find_Proximity_Values() []int {\n\t// body\n\treturn f.private_Find_Proximity_Values()\n}\n\nfunc abs(v int) int {\n\tif v < 0 {\n\t\treturn -v\n\t}\n\treturn v\n}\n\nfunc (f *FPV) private_Find_Proximity_Values() []int {\n\ta := append([]int{}, f.arr...)\n\tsort.SliceStable(a, func(i, j int) bool {\n\t\tdi, dj := abs(a[i]-f.x), abs(a[j]-f.x)\n\t\tif di != dj {\n\t\t\treturn di < dj\n\t\t}\n\t\treturn a[i] < a[j]\n\t})\n\tif f.k < len(a) {\n\t\ta = a[:f.k]\n\t}\n\tsort.Ints(a)\n\treturn a\n}\n",
                    b: &[("func NewFPV(arr []int, k int, x int) *FPV { return &FPV{arr, k, x} }", "func NewFPV(arr []int64, k int32, x int64) *FPV {\n\tf := &FPV{k: int(k), x: int(x)}\n\tfor _, v := range arr {\n\t\tf.arr = append(f.arr, int(v))\n\t}\n\treturn f\n}"), ("func (f *FPV) public_Find_Proximity_Values() []int {\n\t// body\n\treturn f.private_Find_Proximity_Values()", "func (f *FPV) public_Find_Proximity_Values() []int64 {\n\t// body\n\tvar out []int64\n\tfor _, v := range f.private_Find_Proximity_Values() {\n\t\tout = append(out, int64(v))\n\t}\n\treturn out")],
                },
            ],
        },
        Case {
            task: "OOP/275",
            numeric_result: false,
            solutions: [
                Solution {
                    lang: Cpp,
                    a: "#include <vector>\n#include <algorithm>\nclass ROP {\npublic:\n    virtual ~ROP() {}\n};\nclass SN_ROP : public ROP {\npublic:\n    SN_ROP(std::vector<double> rec1, std::vector<double> rec2) : r1(rec1), r2(rec2) {}\n    bool Rectangle_overlap() {\n        // body\n        return std::min(r1[2], r2[2]) > std::max(r1[0], r2[0]) && std::min(r1[3], r2[3]) > std::max(r1[1], r2[1]);\n    }\nprivate:\n    std::vector<double> r1, r2;\n};\n",
                    b: &[("SN_ROP(std::vector<double> rec1, std::vector<double> rec2)", "SN_ROP(const std::vector<float>& rec1, const std::vector<float>& rec2)"), ("std::vector<double> r1, r2;", "std::vector<float> r1, r2;")],
                },
                Solution {
                    lang: Java,
                    a: "import java.util.*;\npublic class ROP {\n}\npublic class SN_ROP extends ROP {\n    private final double[] r1, r2;\n    public SN_ROP(double[] rec1, double[] rec2) { r1 = rec1; r2 = rec2; }\n    public boolean Rectangle_overlap() {\n        // body\n        return Math.min(r1[2], r2[2]) > Math.max(r1[0], r2[0]) && Math.min(r1[3], r2[3]) > Math.max(r1[1], r2[1]);\n    }\n}\n",
                    b: &[("public SN_ROP(double[] rec1, double[] rec2) { r1 = rec1; r2 = rec2; }", "public SN_ROP(List<Double> rec1, List<Double> rec2) { r1 = rec1.stream().mapToDouble(Double::doubleValue).toArray(); r2 = rec2.stream().mapToDouble(Double::doubleValue).toArray(); }")],
                },
                Solution {
                    lang: CSharp,
                    a: "using System;\nclass ROP {\n}\nclass SN_ROP : ROP {\n    private readonly double[] r1, r2;\n    public SN_ROP(double[] rec1, double[] rec2) { r1 = rec1; r2 = rec2; }\n    public bool Rectangle_overlap() {\n        // body\n        return Math.Min(r1[2], r2[2]) > Math.Max(r1[0], r2[0]) && Math.Min(r1[3], r2[3]) > Math.Max(r1[1], r2[1]);\n    }\n}\n",
                    b: &[("public SN_ROP(double[] rec1, double[] rec2) { r1 = rec1; r2 = rec2; }", "public SN_ROP(System.Collections.Generic.List<float> rec1, System.Collections.Generic.IList<decimal> rec2) { r1 = rec1.ConvertAll(v => (double)v).ToArray(); r2 = new double[rec2.Count]; for (int i = 0; i < r2.Length; i++) r2[i] = (double)rec2[i]; }")],
                },
                Solution {
                    lang: Go,
                    a: "import \"math\"\n\ntype ROP struct{}\n\ntype SN_ROP struct {\n\tROP\n\tr1, r2 []float64\n}\n\nfunc NewSN_ROP(rec1 []float64, rec2 []float64) *SN_ROP { return &SN_ROP{r1: rec1, r2: rec2} }\n\nfunc (s *SN_ROP) Rectangle_overlap() bool {\n\t// body\n\treturn math.Min(s.r1[2], s.r2[2]) > math.Max(s.r1[0], s.r2[0]) && math.Min(s.r1[3], s.r2[3]) > math.Max(s.r1[1], s.r2[1])\n}\n",
                    b: &[("func NewSN_ROP(rec1 []float64, rec2 []float64) *SN_ROP { return &SN_ROP{r1: rec1, r2: rec2} }", "func NewSN_ROP(rec1 []float32, rec2 [4]float64) SN_ROP {\n\ts := SN_ROP{r2: rec2[:]}\n\tfor _, v := range rec1 {\n\t\ts.r1 = append(s.r1, float64(v))\n\t}\n\treturn s\n}"), ("func (s *SN_ROP) Rectangle_overlap() bool {", "func (s SN_ROP) Rectangle_overlap() bool {")],
                },
            ],
        },
    ]
}

/// The statement that makes the tested method throw, per language.
fn throw_statement(lang: Language) -> &'static str {
    match lang {
        Language::Cpp => "throw 42;",
        Language::Java => "if (true) throw new IllegalStateException(\"boom\");",
        Language::CSharp => "if (true) throw new System.InvalidOperationException(\"boom\");",
        Language::Go => "panic(\"boom\")",
        _ => unreachable!("not a typed target"),
    }
}

/// `code` with `from` replaced, which must occur (else the variant would be
/// the correct solution and prove nothing).
fn replaced(code: &str, from: &str, to: &str, what: &str) -> String {
    assert!(code.contains(from), "{what}: no `{from}` in\n{code}");
    code.replacen(from, to, 1)
}

#[test]
fn both_representations_pass_and_their_wrong_variants_fail() {
    let data = shared_test_data().join("multioop");
    let out = tempfile::tempdir().expect("temp dir");
    let cases = cases();
    let typed = [Cpp, Java, CSharp, Go];
    let opts = TranslateOptions {
        data,
        out: out.path().to_path_buf(),
        languages: typed.to_vec(),
        tasks: cases.iter().map(|c| c.task.to_string()).collect(),
        skeleton_check: true,
        ..Default::default()
    };
    let report = translate(&opts, &Progress::silent()).expect("translate");
    for l in &report.per_language {
        assert_eq!(
            l.tasks_translated,
            cases.len(),
            "{}: {:?}",
            l.language,
            report.excluded
        );
        // Every kept test is judged: nothing dropped for this language.
        assert!(
            l.tests_dropped.is_empty(),
            "{}: {:?}",
            l.language,
            l.tests_dropped
        );
        assert_eq!(l.observed_checks, l.check_lines, "{}", l.language);
        assert_eq!(l.skeleton.failed_as_expected, cases.len(), "{}", l.language);
    }
    let loaded =
        polyeval_bench::loaders::load(Bench::MultiOop, out.path()).expect("load the output");
    let task_of = |lang: Language, id: &str| -> &Task {
        loaded
            .tasks
            .iter()
            .find(|t| t.language == lang && t.task_id == id)
            .unwrap_or_else(|| panic!("{} {id} missing from the output", lang.key()))
    };

    // (task, label, code, should pass)
    let mut runs: Vec<(&Task, String, String, bool)> = Vec::new();
    for case in &cases {
        for s in &case.solutions {
            let task = task_of(s.lang, case.task);
            let mut b = s.a.to_string();
            for (from, to) in s.b {
                b = replaced(&b, from, to, &format!("{} {} B", s.lang.key(), case.task));
            }
            for (rep, code) in [("A", s.a.to_string()), ("B", b)] {
                let label = |v: &str| format!("{} {} {rep} {v}", s.lang.key(), case.task);
                runs.push((task, label("correct"), code.clone(), true));
                runs.push((
                    task,
                    label("throws"),
                    replaced(&code, "// body", throw_statement(s.lang), &label("throws")),
                    false,
                ));
                if case.numeric_result {
                    runs.push((
                        task,
                        label("off by one"),
                        replaced(&code, " + 0", " + 1", &label("off by one")),
                        false,
                    ));
                }
            }
        }
    }
    // OOP/275: both rectangles as ints cannot hold a test's 0.5.
    let ints_275 = [
        (Java, "double[] rec1, double[] rec2", "int[] rec1, int[] rec2", "r1 = rec1; r2 = rec2;", "r1 = Arrays.stream(rec1).asDoubleStream().toArray(); r2 = Arrays.stream(rec2).asDoubleStream().toArray();"),
        (Cpp, "std::vector<double> rec1, std::vector<double> rec2) : r1(rec1), r2(rec2)", "std::vector<int> rec1, std::vector<int> rec2) : r1(rec1.begin(), rec1.end()), r2(rec2.begin(), rec2.end())", "", ""),
    ];
    let c275 = cases.iter().find(|c| c.task == "OOP/275").expect("case");
    for (lang, from, to, from2, to2) in ints_275 {
        let s = c275
            .solutions
            .iter()
            .find(|s| s.lang == lang)
            .expect("solution");
        let mut code = replaced(s.a, from, to, "OOP/275 ints");
        if !from2.is_empty() {
            code = replaced(&code, from2, to2, "OOP/275 ints");
        }
        runs.push((
            task_of(lang, "OOP/275"),
            format!("{} OOP/275 ints", lang.key()),
            code,
            false,
        ));
    }

    let evaluator = OopEvaluator::new(Bench::MultiOop, &EvalOptions::default()).expect("evaluator");
    let items: Vec<EvalItem<'_>> = runs
        .iter()
        .map(|(task, _, code, _)| EvalItem { task, code })
        .collect();
    let verdicts = evaluator.evaluate_batch(&items, &|| {});
    let mut wrong = Vec::new();
    for ((_, label, _, should_pass), v) in runs.iter().zip(&verdicts) {
        assert_ne!(
            v.status,
            Status::Error,
            "{label}: the sandbox failed: {}",
            v.detail
        );
        let passed = v.status == Status::Passed && v.pass_o == Some(true);
        if passed != *should_pass {
            wrong.push(format!(
                "{label}: {} {:?} pass_o={:?} {} {}",
                v.status, v.category, v.pass_o, v.detail, v.data["stderr_tail"]
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "unexpected verdicts:\n{}",
        wrong.join("\n")
    );
}
