// polyeval: explicit instantiation declarations for libstdc++ 12.
//
// <string> and <cmath> define inline functions (std::stoi, std::to_string,
// std::stod, std::legendref, std::cyl_bessel_jl, ...) whose bodies name
// non-inline function templates. GCC instantiates every such template at
// the end of each translation unit, even when nothing calls the inline
// function: a fifth of the compile time of a small program using the
// precompiled header. Declared here (after the headers, in the precompiled
// header), they are instantiated once, into libpolyeval_judge.a, which this
// same file compiles with POLYEVAL_STD_INSTANTIATE defined (same flags, same
// definitions: the same code a program would have instantiated itself).
//
// The signatures are libstdc++ internals: only for release 12 (Debian 12);
// anything else gets an empty file and compiles as before.
#ifndef POLYEVAL_STD_EXTERN
#define POLYEVAL_STD_EXTERN
#include <cmath>
#include <cstddef>
#include <string>
#if defined(__GLIBCXX__) && defined(_GLIBCXX_RELEASE) && _GLIBCXX_RELEASE == 12 && \
    !defined(__clang__) && __cplusplus >= 201703L

#ifdef POLYEVAL_STD_INSTANTIATE
#define POLYEVAL_STD_EXTERN_KW
#else
#define POLYEVAL_STD_EXTERN_KW extern
#endif

namespace __gnu_cxx {
// std::stoi ... std::stoull (integers, with a base) and std::stof ... std::stold.
#define POLYEVAL_STOI(C, R, RET)                                                     \
    POLYEVAL_STD_EXTERN_KW template RET __stoa<R, RET, C, int>(R (*)(const C*, C**, int), \
                                                              const char*, const C*,  \
                                                              std::size_t*, int);
#define POLYEVAL_STOF(C, R)                                                             \
    POLYEVAL_STD_EXTERN_KW template R __stoa<R, R, C>(R (*)(const C*, C**), const char*, \
                                                      const C*, std::size_t*);
#define POLYEVAL_STOA_ALL(C)                              \
    POLYEVAL_STOI(C, long, int)                           \
    POLYEVAL_STOI(C, long, long)                          \
    POLYEVAL_STOI(C, unsigned long, unsigned long)        \
    POLYEVAL_STOI(C, long long, long long)                \
    POLYEVAL_STOI(C, unsigned long long, unsigned long long) \
    POLYEVAL_STOF(C, float)                               \
    POLYEVAL_STOF(C, double)                              \
    POLYEVAL_STOF(C, long double)
POLYEVAL_STOA_ALL(char)
POLYEVAL_STD_EXTERN_KW template std::string __to_xstring<std::string, char>(
    int (*)(char*, std::size_t, const char*, __builtin_va_list), std::size_t, const char*, ...);
#ifdef _GLIBCXX_USE_WCHAR_T
POLYEVAL_STOA_ALL(wchar_t)
POLYEVAL_STD_EXTERN_KW template std::wstring __to_xstring<std::wstring, wchar_t>(
    int (*)(wchar_t*, std::size_t, const wchar_t*, __builtin_va_list), std::size_t,
    const wchar_t*, ...);
#endif
#undef POLYEVAL_STOA_ALL
#undef POLYEVAL_STOF
#undef POLYEVAL_STOI
}  // namespace __gnu_cxx

#if _GLIBCXX_USE_STD_SPEC_FUNCS
namespace std {
namespace __detail {
// The non-inline ones (an inline template is instantiated for inlining anyway).
#define POLYEVAL_SPECFUN(T)                                                                \
    POLYEVAL_STD_EXTERN_KW template T __assoc_legendre_p<T>(unsigned int, unsigned int, T, T); \
    POLYEVAL_STD_EXTERN_KW template T __comp_ellint_1<T>(T);                               \
    POLYEVAL_STD_EXTERN_KW template T __comp_ellint_2<T>(T);                               \
    POLYEVAL_STD_EXTERN_KW template T __comp_ellint_3<T>(T, T);                            \
    POLYEVAL_STD_EXTERN_KW template T __cyl_bessel_i<T>(T, T);                             \
    POLYEVAL_STD_EXTERN_KW template T __cyl_bessel_j<T>(T, T);                             \
    POLYEVAL_STD_EXTERN_KW template T __cyl_bessel_k<T>(T, T);                             \
    POLYEVAL_STD_EXTERN_KW template T __cyl_neumann_n<T>(T, T);                            \
    POLYEVAL_STD_EXTERN_KW template T __ellint_1<T>(T, T);                                 \
    POLYEVAL_STD_EXTERN_KW template T __ellint_2<T>(T, T);                                 \
    POLYEVAL_STD_EXTERN_KW template T __ellint_3<T>(T, T, T);                              \
    POLYEVAL_STD_EXTERN_KW template T __poly_legendre_p<T>(unsigned int, T);               \
    POLYEVAL_STD_EXTERN_KW template T __riemann_zeta<T>(T);                                \
    POLYEVAL_STD_EXTERN_KW template T __sph_bessel<T>(unsigned int, T);                    \
    POLYEVAL_STD_EXTERN_KW template T __sph_legendre<T>(unsigned int, unsigned int, T);    \
    POLYEVAL_STD_EXTERN_KW template T __sph_neumann<T>(unsigned int, T);
POLYEVAL_SPECFUN(float)
POLYEVAL_SPECFUN(long double)
#undef POLYEVAL_SPECFUN
}  // namespace __detail
}  // namespace std
#endif

#undef POLYEVAL_STD_EXTERN_KW
#endif
#endif
