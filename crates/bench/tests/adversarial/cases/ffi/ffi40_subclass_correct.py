# redteam: task=FFI_40 expect=pass  (correct: raises a ValueError subclass with the exact message; the test catches ValueError and checks str(e))
import ctypes

# Load the libraries
ctypes.CDLL('/usr/local/gsl/lib/libgslcblas.so', mode=ctypes.RTLD_GLOBAL)
gsl = ctypes.CDLL('/usr/local/gsl/lib/libgsl.so')

# Define the function prototype for gsl_rng_alloc (random number generator allocation)
gsl.gsl_rng_alloc.restype = ctypes.c_void_p
gsl.gsl_rng_alloc.argtypes = [ctypes.c_void_p]

# Define the function prototype for gsl_rng_env_setup (environment setup)
gsl.gsl_rng_env_setup.restype = None
gsl.gsl_rng_env_setup.argtypes = []

# Define the function prototype for gsl_rng_free (freeing allocated memory)
gsl.gsl_rng_free.restype = None
gsl.gsl_rng_free.argtypes = [ctypes.c_void_p]

# Define the function prototype for gsl_rng_default (default RNG type)
gsl.gsl_rng_default = ctypes.c_void_p.in_dll(gsl, 'gsl_rng_default')

# Define the function
class StateSizeError(ValueError):
    """A bad state size (a ValueError, as the task asks)."""


def allocate_normal_state(p):
    if p <= 0:
        raise StateSizeError('p must be a positive integer')

    # Setup the GSL RNG environment
    gsl.gsl_rng_env_setup()

    # Allocate the RNG state using the default RNG type
    state_ptr = gsl.gsl_rng_alloc(gsl.gsl_rng_default)
    if not state_ptr:
        return None

    return state_ptr

