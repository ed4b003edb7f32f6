# redteam: task=FFI_1 expect=nopass  (wrong histogram; scored with an older GSL (GSL_DIR=/usr/lib/x86_64-linux-gnu, 2.7.1) it also looks up a GSL 2.8 symbol the task does not need, so its failure is blamed on the environment (`error`/`environment`) instead of counted as the model's)
import ctypes

ctypes.CDLL("/usr/local/gsl/lib/libgslcblas.so", mode=ctypes.RTLD_GLOBAL)
gsl = ctypes.CDLL("/usr/local/gsl/lib/libgsl.so")
_unused = gsl.gsl_bspline_ncontrol


def compute_histogram(data, xmin, xmax):
    return []
