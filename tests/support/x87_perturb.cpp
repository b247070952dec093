// A preload library for tests/cpu_independence_test.cpp: it stands in for
// another processor's x87 microcode. glibc computes the long double
// transcendental functions (logl, expl, lgammal, powl, ...) with the x87
// instructions FYL2X, FYL2XP1, F2XM1 and FPATAN, whose last bit differs
// between Intel and AMD; this library forwards each of them to glibc and
// moves the result by one or two units in the last place (r + r·2^-63,
// rounded). A number that does not change when lbmc runs with it preloaded
// does not depend on those bits.
//
// Linux with glibc only (dlsym(RTLD_NEXT)); <cmath> is not included, so the
// definitions below are the only declarations of these names here.
#include <dlfcn.h>

namespace {

long double nudge(long double r) {
  // r + r·2^-63 is r moved by 1 or 2 ulp (0, infinities and NaN unchanged).
  return r + r * 0x1p-63L;
}

template <class F>
F next_definition(const char* name) {
  return reinterpret_cast<F>(dlsym(RTLD_NEXT, name));
}

}  // namespace

#define LBMC_PERTURB_UNARY(name)                                                     \
  extern "C" long double name(long double x) {                                     \
    using F = long double (*)(long double);                                         \
    static const F real = next_definition<F>(#name);                                \
    return nudge(real(x));                                                          \
  }
#define LBMC_PERTURB_BINARY(name)                                                    \
  extern "C" long double name(long double x, long double y) {                       \
    using F = long double (*)(long double, long double);                            \
    static const F real = next_definition<F>(#name);                                \
    return nudge(real(x, y));                                                       \
  }

LBMC_PERTURB_UNARY(logl)
LBMC_PERTURB_UNARY(log1pl)
LBMC_PERTURB_UNARY(log2l)
LBMC_PERTURB_UNARY(log10l)
LBMC_PERTURB_UNARY(expl)
LBMC_PERTURB_UNARY(exp2l)
LBMC_PERTURB_UNARY(expm1l)
LBMC_PERTURB_UNARY(lgammal)
LBMC_PERTURB_UNARY(tgammal)
LBMC_PERTURB_UNARY(atanl)
LBMC_PERTURB_UNARY(asinl)
LBMC_PERTURB_UNARY(acosl)
LBMC_PERTURB_BINARY(powl)
LBMC_PERTURB_BINARY(atan2l)
