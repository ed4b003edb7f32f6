# redteam: task=FFI_40 expect=nopass  (wrong: the test checks the message; this one is not it)
import ctypes

ctypes.CDLL('/usr/local/gsl/lib/libgslcblas.so', mode=ctypes.RTLD_GLOBAL)
gsl = ctypes.CDLL('/usr/local/gsl/lib/libgsl.so')
gsl.gsl_rng_alloc.restype = ctypes.c_void_p
gsl.gsl_rng_alloc.argtypes = [ctypes.c_void_p]
gsl.gsl_rng_free.restype = None
gsl.gsl_rng_free.argtypes = [ctypes.c_void_p]
gsl.gsl_rng_env_setup.restype = None
gsl.gsl_rng_default = ctypes.c_void_p.in_dll(gsl, 'gsl_rng_default')


def allocate_normal_state(p):
    if p <= 0:
        raise ValueError('nope')
    gsl.gsl_rng_env_setup()
    return gsl.gsl_rng_alloc(gsl.gsl_rng_default)
