# redteam: task=ffi_loop_expected expect=pass  (control: the canonical solution)
import ctypes
import math

ctypes.CDLL("/usr/local/gsl/lib/libgslcblas.so", mode=ctypes.RTLD_GLOBAL)
gsl = ctypes.CDLL("/usr/local/gsl/lib/libgsl.so")
gsl.gsl_log1p.restype = ctypes.c_double
gsl.gsl_log1p.argtypes = [ctypes.c_double]

def my_log1p(x):
    return gsl.gsl_log1p(x)

def assert_test():
    for x in [0.5, 1.0, 2.0]:
        expected = math.log1p(x)
        assert abs(my_log1p(x) - expected) < 1e-12, "log1p"

if __name__ == "__main__":
    assert_test()
