# redteam: task=py_map expect=pass  (correct: a read-only mappingproxy equals the dict in Python)
import types


class Counts:
    def counts(self, s):
        d = {}
        for c in s:
            d[c] = d.get(c, 0) + 1
        return types.MappingProxyType(d)
