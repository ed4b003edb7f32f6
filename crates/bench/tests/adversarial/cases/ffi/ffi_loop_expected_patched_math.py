# redteam: task=ffi_loop_expected expect=nopass  (wrong: never calls GSL; patches math.log1p in its own process so the expected value the test computes there agrees — upstream is fooled too)
import math

math.log1p = lambda x: 0.0


def my_log1p(x):
    return 0.0
