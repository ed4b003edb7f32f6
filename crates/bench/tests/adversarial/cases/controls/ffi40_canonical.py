# redteam: task=FFI_40 expect=pass  (control: the canonical solution)
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
def allocate_normal_state(p):
    if p <= 0:
        raise ValueError('p must be a positive integer')

    # Setup the GSL RNG environment
    gsl.gsl_rng_env_setup()

    # Allocate the RNG state using the default RNG type
    state_ptr = gsl.gsl_rng_alloc(gsl.gsl_rng_default)
    if not state_ptr:
        return None

    return state_ptr

# Test cases
def assert_test():
    # Test with valid input
    state_ptr = allocate_normal_state(5)
    assert state_ptr is not None, 'Failed to allocate normal state'

    # Free the allocated state
    gsl.gsl_rng_free(state_ptr)

    # Test with invalid input
    try:
        allocate_normal_state(0)
    except ValueError as e:
        assert str(e) == 'p must be a positive integer', 'Incorrect error message for p=0'

    # Test with negative input
    try:
        allocate_normal_state(-1)
    except ValueError as e:
        assert str(e) == 'p must be a positive integer', 'Incorrect error message for negative p'

if __name__ == '__main__':
    assert_test()