// polyeval judge observer (C++17). Placed before the candidate's code, so
// no macro the candidate defines can change it. It only reports values (via
// write(2) on fd 1); expected values are compared outside the sandbox.
//
// Two ways to build it:
// - default: everything below is in the program (inline functions);
// - linked: a toolchain compiles this file once with -DPOLYEVAL_JUDGE_DEF=
//   (empty: out-of-line definitions) into an object, and programs are
//   compiled with -DPOLYEVAL_JUDGE_LINKED and linked with it. Only the
//   templates are then compiled per program (the non-template half is what
//   costs compile time).
#ifndef POLYEVAL_JUDGE_PRELUDE
#define POLYEVAL_JUDGE_PRELUDE
#ifndef POLYEVAL_JUDGE_DEF
#define POLYEVAL_JUDGE_DEF inline
#endif
#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cmath>
#include <exception>
#include <fcntl.h>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <typeinfo>
#include <unistd.h>
#include <utility>
#include <vector>
#include <cxxabi.h>

namespace polyeval_judge {
namespace detail {
void emit(const std::string& json);
std::string demangle(const char* name);
void json_string(std::string& out, const char* s, size_t n);
void json_string(std::string& out, const std::string& s);
void put_double(std::string& out, double d);
void tamper(const std::string& evidence);
}  // namespace detail
void raised(int t);
void finish();
}  // namespace polyeval_judge

namespace polyeval_judge {
namespace detail {

template <class T, class = void> struct is_iterable : std::false_type {};
template <class T>
struct is_iterable<T, std::void_t<decltype(std::begin(std::declval<const T&>())),
                                  decltype(std::end(std::declval<const T&>()))>> : std::true_type {};
template <class T, class = void> struct has_key_type : std::false_type {};
template <class T> struct has_key_type<T, std::void_t<typename T::key_type>> : std::true_type {};
template <class T, class = void> struct has_mapped_type : std::false_type {};
template <class T> struct has_mapped_type<T, std::void_t<typename T::mapped_type>> : std::true_type {};
template <class T> struct is_pair : std::false_type {};
template <class A, class B> struct is_pair<std::pair<A, B>> : std::true_type {};
template <class T> struct is_tuple : std::false_type {};
template <class... A> struct is_tuple<std::tuple<A...>> : std::true_type {};
template <class T> struct is_optional : std::false_type {};
template <class A> struct is_optional<std::optional<A>> : std::true_type {};
template <class T>
constexpr bool is_char_type = std::is_same_v<T, char> || std::is_same_v<T, wchar_t> ||
                              std::is_same_v<T, char16_t> || std::is_same_v<T, char32_t>;

const size_t kMaxOut = size_t(64) << 20;

template <class T> void put(std::string& out, const T& v, int depth);

template <class Tuple, size_t... I>
void put_tuple(std::string& out, const Tuple& t, int depth, std::index_sequence<I...>) {
    out += "{\"tuple\":[";
    size_t n = 0;
    ((out += (n++ ? "," : ""), put(out, std::get<I>(t), depth + 1)), ...);
    out += "]}";
}

template <class T> void put(std::string& out, const T& v, int depth) {
    using U = std::remove_cv_t<std::remove_reference_t<T>>;
    if (depth > 100 || out.size() > kMaxOut) { out += "{\"truncated\":null}"; return; }
    if constexpr (std::is_same_v<U, bool>) {
        out += v ? "true" : "false";
    } else if constexpr (is_char_type<U>) {
        unsigned long code = std::is_same_v<U, char> ? static_cast<unsigned char>(v)
                                                      : static_cast<unsigned long>(v);
        out += "{\"char\":" + std::to_string(code) + "}";
    } else if constexpr (std::is_integral_v<U>) {
        if constexpr (std::is_signed_v<U>) {
            out += std::to_string(static_cast<long long>(v));
        } else {
            unsigned long long u = static_cast<unsigned long long>(v);
            if (u <= 9223372036854775807ULL) out += std::to_string(u);
            else out += "{\"int\":\"" + std::to_string(u) + "\"}";
        }
    } else if constexpr (std::is_floating_point_v<U>) {
        put_double(out, static_cast<double>(v));
    } else if constexpr (std::is_enum_v<U>) {
        put(out, static_cast<std::underlying_type_t<U>>(v), depth);
    } else if constexpr (std::is_same_v<U, std::nullptr_t>) {
        out += "null";
    } else if constexpr (std::is_same_v<U, std::nullopt_t>) {
        out += "null";
    } else if constexpr (std::is_same_v<U, std::string>) {
        json_string(out, v);
    } else if constexpr (std::is_same_v<U, std::string_view>) {
        json_string(out, v.data(), v.size());
    } else if constexpr (std::is_same_v<U, const char*> || std::is_same_v<U, char*>) {
        if (v == nullptr) out += "null";
        else json_string(out, v, std::strlen(v));
    } else if constexpr (std::is_array_v<U> && std::is_same_v<std::remove_cv_t<std::remove_extent_t<U>>, char>) {
        size_t n = 0;
        while (n < std::extent_v<U> && v[n] != '\0') ++n;
        json_string(out, v, n);
    } else if constexpr (is_optional<U>::value) {
        if (!v.has_value()) out += "null";
        else put(out, *v, depth + 1);
    } else if constexpr (is_pair<U>::value) {
        out += "{\"tuple\":[";
        put(out, v.first, depth + 1);
        out += ",";
        put(out, v.second, depth + 1);
        out += "]}";
    } else if constexpr (is_tuple<U>::value) {
        put_tuple(out, v, depth, std::make_index_sequence<std::tuple_size_v<U>>{});
    } else if constexpr (has_key_type<U>::value && has_mapped_type<U>::value && is_iterable<U>::value) {
        out += "{\"map\":[";
        bool first = true;
        for (const auto& kv : v) {
            if (!first) out += ",";
            first = false;
            out += "[";
            put(out, kv.first, depth + 1);
            out += ",";
            put(out, kv.second, depth + 1);
            out += "]";
            if (out.size() > kMaxOut) break;
        }
        out += "]}";
    } else if constexpr (has_key_type<U>::value && is_iterable<U>::value) {
        out += "{\"set\":[";
        bool first = true;
        for (const auto& x : v) {
            if (!first) out += ",";
            first = false;
            put(out, x, depth + 1);
            if (out.size() > kMaxOut) break;
        }
        out += "]}";
    } else if constexpr (is_iterable<U>::value) {
        out += "[";
        bool first = true;
        for (const auto& x : v) {
            if (!first) out += ",";
            first = false;
            put(out, x, depth + 1);
            if (out.size() > kMaxOut) break;
        }
        out += "]";
    } else if constexpr (std::is_pointer_v<U>) {
        if (v == nullptr) out += "null";
        else {
            out += "{\"object\":";
            json_string(out, demangle(typeid(U).name()));
            out += "}";
        }
    } else {
        out += "{\"object\":";
        json_string(out, demangle(typeid(U).name()));
        out += "}";
    }
}

}  // namespace detail

template <class T> void observe(int t, const T& v) {
    std::string j = "{\"t\":" + std::to_string(t) + ",\"v\":";
    detail::put(j, v, 0);
    j += "}";
    detail::emit(j);
}

}  // namespace polyeval_judge

#ifndef POLYEVAL_JUDGE_LINKED
namespace polyeval_judge {
namespace detail {

static inline void write_all(const std::string& s) {
    const char* p = s.data();
    size_t left = s.size();
    while (left > 0) {
        ssize_t n = ::write(1, p, left);
        if (n < 0) {
            if (errno == EINTR) continue;
            return;
        }
        p += n;
        left -= static_cast<size_t>(n);
    }
}

POLYEVAL_JUDGE_DEF void emit(const std::string& json) {
    std::string line;
    line.reserve(json.size() + 24);
    line += "\n\x1epolyeval-judge ";
    line += json;
    line += "\n";
    write_all(line);
}

POLYEVAL_JUDGE_DEF std::string demangle(const char* name) {
    int status = 0;
    char* d = abi::__cxa_demangle(name, nullptr, nullptr, &status);
    std::string r = (status == 0 && d) ? std::string(d) : std::string(name);
    std::free(d);
    return r;
}

POLYEVAL_JUDGE_DEF void json_string(std::string& out, const char* s, size_t n) {
    static const char hex[] = "0123456789abcdef";
    out += '"';
    for (size_t i = 0; i < n; ++i) {
        unsigned char c = static_cast<unsigned char>(s[i]);
        switch (c) {
            case '"': out += "\\\""; break;
            case '\\': out += "\\\\"; break;
            case '\n': out += "\\n"; break;
            case '\r': out += "\\r"; break;
            case '\t': out += "\\t"; break;
            default:
                if (c < 0x20 || c == 0x7f) {
                    out += "\\u00";
                    out += hex[c >> 4];
                    out += hex[c & 15];
                } else if (c < 0x80) {
                    out += static_cast<char>(c);
                } else {
                    // A std::string holds bytes: a well-formed UTF-8 sequence
                    // is its character, any other byte b is U+10FF00+b (as
                    // polyeval reads the byte escapes of a literal).
                    size_t len = c >= 0xf0 && c <= 0xf4 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 && c <= 0xdf ? 2 : 0;
                    bool ok = len > 0 && i + len <= n;
                    for (size_t k = 1; ok && k < len; ++k) {
                        ok = (static_cast<unsigned char>(s[i + k]) & 0xc0) == 0x80;
                    }
                    if (ok && len == 3) {
                        unsigned char c1 = static_cast<unsigned char>(s[i + 1]);
                        ok = !(c == 0xe0 && c1 < 0xa0) && !(c == 0xed && c1 >= 0xa0);
                    }
                    if (ok && len == 4) {
                        unsigned char c1 = static_cast<unsigned char>(s[i + 1]);
                        ok = !(c == 0xf0 && c1 < 0x90) && !(c == 0xf4 && c1 >= 0x90);
                    }
                    if (ok) {
                        out.append(s + i, len);
                        i += len - 1;
                    } else {
                        out += static_cast<char>(0xf4);
                        out += static_cast<char>(0x8f);
                        out += static_cast<char>(0xbc | (c >> 6));
                        out += static_cast<char>(0x80 | (c & 0x3f));
                    }
                }
        }
    }
    out += '"';
}

POLYEVAL_JUDGE_DEF void json_string(std::string& out, const std::string& s) { json_string(out, s.data(), s.size()); }

POLYEVAL_JUDGE_DEF void put_double(std::string& out, double d) {
    if (std::isnan(d)) { out += "{\"float\":\"nan\"}"; return; }
    if (std::isinf(d)) { out += d > 0 ? "{\"float\":\"inf\"}" : "{\"float\":\"-inf\"}"; return; }
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.17g", d);
    // Shortest representation that reads back exactly.
    for (int prec = 1; prec <= 17; ++prec) {
        char b2[64];
        std::snprintf(b2, sizeof b2, "%.*g", prec, d);
        if (std::strtod(b2, nullptr) == d) { std::memcpy(buf, b2, sizeof b2); break; }
    }
    out += buf;
    if (!std::strpbrk(buf, ".eEn")) out += ".0";
}

struct Startup {
    std::terminate_handler terminate_at_start;
    Startup() : terminate_at_start(std::get_terminate()) {}
};
// Constructed before any of the candidate's statics (earlier in the file,
// or first by priority when linked).
static Startup startup_instance __attribute__((init_priority(101)));
POLYEVAL_JUDGE_DEF Startup& startup() { return startup_instance; }

POLYEVAL_JUDGE_DEF void tamper(const std::string& evidence) {
    std::string j = "{\"tamper\":";
    json_string(j, evidence);
    j += "}";
    emit(j);
}

}  // namespace detail

// Called from a catch block: reports the exception being handled.
POLYEVAL_JUDGE_DEF void raised(int t) {
    std::string type = "unknown", message;
    try {
        throw;
    } catch (const std::exception& e) {
        type = detail::demangle(typeid(e).name());
        message = e.what() ? e.what() : "";
    } catch (const std::string& s) {
        type = "std::string";
        message = s;
    } catch (const char* s) {
        type = "const char*";
        message = s ? s : "";
    } catch (int i) {
        type = "int";
        message = std::to_string(i);
    } catch (...) {
    }
    if (message.size() > 500) message.resize(500);
    std::string j = "{\"t\":" + std::to_string(t) + ",\"raised\":{\"type\":";
    detail::json_string(j, type);
    j += ",\"message\":";
    detail::json_string(j, message);
    j += "}}";
    detail::emit(j);
}

// The end record: the program reached the end of the tests. The runtime
// checks before it are diagnostics (the verdict rests on the observations).
POLYEVAL_JUDGE_DEF void finish() {
    struct sigaction sa;
    std::memset(&sa, 0, sizeof sa);
    if (sigaction(SIGABRT, nullptr, &sa) == 0 && sa.sa_handler != SIG_DFL) {
        detail::tamper("a SIGABRT handler is installed");
    }
    if (std::get_terminate() != detail::startup().terminate_at_start) {
        detail::tamper("std::set_terminate replaced the terminate handler");
    }
    detail::emit("{\"end\":null}");
}

}  // namespace polyeval_judge
#endif  // POLYEVAL_JUDGE_LINKED
#endif  // POLYEVAL_JUDGE_PRELUDE
