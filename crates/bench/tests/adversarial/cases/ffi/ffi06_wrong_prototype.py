# redteam: task=FFI_6 expect=nopass  (wrong: the prototype is float-returning and takes a double and two pointers to the wrong structs; ctypes types all read as "PyCSimpleType"/"PyCPointerType" with no fields)
import ctypes

cblas = ctypes.CDLL("/usr/local/gsl/lib/libgslcblas.so", mode=ctypes.RTLD_GLOBAL)
gsl_lib = ctypes.CDLL("/usr/local/gsl/lib/libgsl.so")


class gsl_matrix(ctypes.Structure):
    _fields_ = [("whatever", ctypes.c_char)]


class gsl_bspline_workspace(ctypes.Structure):
    _fields_ = [("nothing", ctypes.c_char)]


gsl_bspline_gram_func = gsl_lib.gsl_bspline_gram
gsl_bspline_gram_func.argtypes = [ctypes.c_double, ctypes.POINTER(ctypes.c_char), ctypes.POINTER(ctypes.c_float)]
gsl_bspline_gram_func.restype = ctypes.c_double


def compute_gram_matrix(nderiv, G_matrix, w_workspace):
    return 0
