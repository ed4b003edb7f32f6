# redteam: task=FFI_38 expect=nopass  (wrong: the test checks the message says how many points are required; this one does not)
import ctypes
import sys

# Load libraries with correct order and global symbol resolution
ctypes.CDLL("/usr/local/gsl/lib/libgslcblas.so", mode=ctypes.RTLD_GLOBAL)
gsl = ctypes.CDLL("/usr/local/gsl/lib/libgsl.so")

# Define gsl_spline structure
class gsl_spline(ctypes.Structure):
    pass

# Define gsl_interp_type structure
class gsl_interp_type(ctypes.Structure):
    pass

# Set up function prototypes
gsl.gsl_spline_alloc.argtypes = [ctypes.POINTER(gsl_interp_type), ctypes.c_size_t]
gsl.gsl_spline_alloc.restype = ctypes.POINTER(gsl_spline)

gsl.gsl_interp_alloc.argtypes = [ctypes.POINTER(gsl_interp_type), ctypes.c_size_t]
gsl.gsl_interp_alloc.restype = ctypes.c_void_p

gsl.gsl_interp_free.argtypes = [ctypes.c_void_p]
gsl.gsl_interp_free.restype = None

gsl.gsl_spline_free.argtypes = [ctypes.POINTER(gsl_spline)]
gsl.gsl_spline_free.restype = None

def allocate_spline(interp_type_name, size):
    # Get interpolation type by name
    interp_type_ptr = ctypes.c_void_p.in_dll(gsl, f"gsl_interp_{interp_type_name}")
    if not interp_type_ptr:
        raise ValueError(f"Unknown interpolation type: {interp_type_name}")
    
    # Cast to correct pointer type
    interp_type = ctypes.cast(interp_type_ptr, ctypes.POINTER(gsl_interp_type))
    
    # Check minimum size requirement for the interpolation type
    # Different interpolation types have different minimum point requirements
    min_size_map = {
        'linear': 2,
        'polynomial': 2,
        'cspline': 3,
        'cspline_periodic': 3,
        'akima': 3,
        'akima_periodic': 3,
        'steffen': 3
    }
    
    min_required = min_size_map.get(interp_type_name, 2)
    if size < min_required:
        raise ValueError("too small")
    
    # Allocate spline
    spline_ptr = gsl.gsl_spline_alloc(interp_type, ctypes.c_size_t(size))
    
    if not spline_ptr:
        raise MemoryError("Failed to allocate spline")
    
    return spline_ptr

