// Code that the host compiler and nvcc both compile (the kernels that run on
// the CPU under --rng philox and on a GPU under --device cuda, with the same
// bits): functions marked LBMC_HOST_DEVICE, in headers that include nothing
// but this one, the standard library's <array>, <bit>, <cstdint> and other
// headers of the same kind.
//
// Design note
// - Same bits on both sides needs the same operations in the same order:
//   IEEE-754 double + - * / and integer arithmetic only, no contraction
//   (-ffp-contract=off on the host, -fmad=false on the device, set in
//   CMakeLists.txt), no library exp or log (portable_exp_log.hpp instead),
//   no device intrinsic that rounds differently.
// - Constexpr standard functions (std::array's operator[], std::bit_cast)
//   are called from device code under nvcc's --expt-relaxed-constexpr.
#pragma once

#if defined(__CUDACC__)
#define LBMC_HOST_DEVICE __host__ __device__
#else
#define LBMC_HOST_DEVICE
#endif

//! Always inlined, on either side.
#if defined(__CUDACC__)
#define LBMC_FORCE_INLINE __forceinline__
#else
#define LBMC_FORCE_INLINE [[gnu::always_inline]] inline
#endif

// No fused multiply-add in a function body (or at file scope): a contracted
// mu + sigma·z rounds differently. This pragma turns contraction off for
// clang; GCC and nvcc take it from the build's flags (-ffp-contract=off,
// -fmad=false).
#if defined(__clang__)
#define LBMC_SAMPLER_NO_FP_CONTRACT _Pragma("clang fp contract(off)")
#else
#define LBMC_SAMPLER_NO_FP_CONTRACT
#endif
