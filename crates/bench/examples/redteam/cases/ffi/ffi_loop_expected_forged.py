# redteam: task=ffi_loop_expected expect=nopass  (wrong: never calls GSL; patches math.log1p so the test's own expected value agrees)
import math

math.log1p = lambda x: 0.0


def my_log1p(x):
    return 0.0
