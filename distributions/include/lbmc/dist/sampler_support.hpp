// What every sampler's hot path shares (part of samplers.hpp; DESIGN §2, §7).
//
// Design note
// - No fused multiply-add in the samplers' arithmetic: a contracted mu + sigma·z
//   rounds differently, and the same seed must give the same bits on every
//   target. LBMC_SAMPLER_NO_FP_CONTRACT turns contraction off for clang, in a
//   function body (the inline operator()s) or at file scope (the sampler
//   sources). For GCC, which contracts in C++ whatever the -std, the build
//   passes -ffp-contract=off (CMakeLists.txt).
// - The cold paths that need the generator (the normal ziggurat's tail, the
//   table samplers' tails) receive it through detail::with_generator_copy.
#pragma once

#include <utility>

#include "lbmc/engine/rng.hpp"

#if defined(__clang__)
#define LBMC_SAMPLER_NO_FP_CONTRACT _Pragma("clang fp contract(off)")
#else
#define LBMC_SAMPLER_NO_FP_CONTRACT
#endif

namespace lbmc::dist::detail {

//! Calls f(copy of gen) and writes the copy back. Cold paths that need the
//! generator go through this, so that the caller's generator never has its
//! address passed to an out-of-line function and can live in registers.
template <class F>
auto with_generator_copy(engine::Generator& gen, F&& f) {
  engine::Generator local = gen;
  auto result = std::forward<F>(f)(local);
  gen = local;
  return result;
}

}  // namespace lbmc::dist::detail
