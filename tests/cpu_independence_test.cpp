// Printed numbers that must not depend on the processor (DESIGN §2): lbmc is
// run twice on the same command line, once as is and once with the libm
// results that differ between processors moved, and the two outputs must be
// byte-identical.
//
// Two sources of processor-dependent libm results on x86-64 glibc:
//  - the x87 long double functions (logl, expl, lgammal, ...), whose last
//    bit is the vendor's microcode: tests/support/x87_perturb.cpp, preloaded,
//    moves each of their results by an ulp;
//  - the double functions that glibc selects at load time by CPU features
//    (exp, log, pow, sin, cos, atan2, expm1, log1p, ...: an FMA variant where
//    FMA and AVX2 are usable, an SSE2 one elsewhere; they differ in about
//    1e-4 to 7e-4 of arguments, by one ulp): GLIBC_TUNABLES hides FMA, AVX2
//    and AVX512F so that the SSE2 variants are taken. On a processor without
//    those features both runs take the same variants and the check is void.
// Covered: the exact multinomial references of `lbmc assign` (the
// balls-into-bins law, analytic/src/multinomial_lattice.cpp), which cancel about
// three digits in the variance and used to show the x87 bit in the 15th
// printed digit.
#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>

#include <dlfcn.h>

namespace cpu_independence_test {

namespace {

// stdout and stderr of a shell command (so that a library the loader could
// not preload shows as a difference); the exit status must be 0.
std::string output_of(const std::string& command) {
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(::popen((command + " 2>&1").c_str(), "r"), ::pclose);
  REQUIRE(pipe != nullptr);
  std::string out;
  std::array<char, 4096> buffer{};
  std::size_t n = 0;
  while ((n = std::fread(buffer.data(), 1, buffer.size(), pipe.get())) > 0) out.append(buffer.data(), n);
  REQUIRE(::pclose(pipe.release()) == 0);
  return out;
}

// The assign sweep of results/plots/data/assign.csv, with few replications:
// every exact reference of the plot, computed as in the full run.
const std::string kAssign = std::string(LBMC_BINARY) +
                            " assign --model multinomial,poisson --N 1000"
                            " --P 2,5,10,20,50,100,200,500,1000 --reps 200 --seed 3"
                            " --csv - --quiet --progress never";

}  // namespace

TEST_SUITE("fast") {
#ifdef LBMC_X87_PERTURB
  TEST_CASE("cpu independence: the preload library moves the x87 results") {
    void* library = ::dlopen(LBMC_X87_PERTURB, RTLD_NOW | RTLD_LOCAL);
    REQUIRE(library != nullptr);
    using F = long double (*)(long double);
    const auto moved_logl = reinterpret_cast<F>(::dlsym(library, "logl"));
    const bool found = moved_logl != nullptr;
    REQUIRE(found);
    volatile long double six = 6.0L;  // not folded at compile time
    CHECK(moved_logl(six) != std::log(six));
    CHECK(std::abs(moved_logl(six) - std::log(six)) <= 4e-19L * std::log(six));
    ::dlclose(library);
  }

  TEST_CASE("cpu independence: assign's exact references do not depend on the x87 last bit") {
    const std::string plain = output_of(kAssign);
    const std::string moved = output_of("LD_PRELOAD=" + std::string(LBMC_X87_PERTURB) + " " + kAssign);
    CHECK(plain.find("multinomial") != std::string::npos);
    CHECK(moved == plain);
  }
#endif

  TEST_CASE("cpu independence: assign's exact references do not depend on glibc's FMA variants") {
    const std::string plain = output_of(kAssign);
    const std::string sse2 = output_of("GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX2,-FMA,-AVX512F " + kAssign);
    CHECK(sse2 == plain);
  }
}

}  // namespace cpu_independence_test
