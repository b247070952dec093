// The samplers of the counter-based stream, as the host and a GPU both
// compile them (host_device.hpp): normal, exponential, uniform, constant
// (Poisson and binomial: portable_discrete.hpp).
// Part of samplers.hpp, which documents the laws' samplers.
//
// Design note
// - Each is a small copyable value: the law's parameters and pointers to the
//   tables it reads (the ziggurat and lbmc's own exp and log), so that a GPU
//   backend can copy it to the device with the pointers replaced by the
//   tables' device copies: each names its tables in for_each_table.
// - NormalSampler and ExponentialSampler (ziggurat.hpp) hold a
//   PortableNormal or PortableExponential and draw through it on every stream
//   but pcg64, where they keep the C library's exp and log; the uniform and
//   constant samplers need neither and are the same on every stream.
#pragma once

#include <cstddef>
#include <cstdint>

#include "lbmc/dist/portable_exp_log.hpp"
#include "lbmc/dist/ziggurat_table.hpp"
#include "lbmc/engine/host_device.hpp"
#include "lbmc/engine/words.hpp"

namespace lbmc::dist {

struct Uniform;
struct Constant;

//! The tables the portable samplers read, where they lie (host or device).
struct PortableSamplerTables {
  const NormalZiggurat* normal = nullptr;
  const ExponentialZiggurat* exponential = nullptr;
  const ExpLogTables* exp_log = nullptr;

  //! Calls f(pointer, 1) for each table held, whose pointer f may replace
  //! (by a device copy).
  template <class F>
  void for_each_table(F&& f) {
    if (normal != nullptr) f(normal, std::size_t{1});
    if (exponential != nullptr) f(exponential, std::size_t{1});
    if (exp_log != nullptr) f(exp_log, std::size_t{1});
  }
};

//! Normal{mu, sigma}: mu + sigma·z, z from the normal ziggurat with lbmc's
//! own log in the tail and exp in the wedge tests.
struct PortableNormal {
  double mu;
  double sigma;
  PortableSamplerTables tables;

  template <class Words>
  LBMC_HOST_DEVICE LBMC_FORCE_INLINE double operator()(Words& gen) const noexcept {
    LBMC_SAMPLER_NO_FP_CONTRACT
    return mu + sigma * standard_normal(*tables.normal, gen, PortableMath{tables.exp_log});
  }
  //! Calls f(pointer, count) for each table it reads (PortableSamplerTables).
  template <class F>
  void for_each_table(F&& f) {
    tables.for_each_table(f);
  }
};

//! Exponential{mean}: mean·e, e from the exponential ziggurat with lbmc's
//! own exp in the wedge tests.
struct PortableExponential {
  double mean;
  PortableSamplerTables tables;

  template <class Words>
  LBMC_HOST_DEVICE LBMC_FORCE_INLINE double operator()(Words& gen) const noexcept {
    LBMC_SAMPLER_NO_FP_CONTRACT
    return mean * standard_exponential(*tables.exponential, gen, PortableMath{tables.exp_log});
  }
  //! Calls f(pointer, count) for each table it reads (PortableSamplerTables).
  template <class F>
  void for_each_table(F&& f) {
    tables.for_each_table(f);
  }
};

//! Sampler for Uniform{a, b}: a + (b - a)·u with u = engine::uniform01 (the
//! 2^-53 grid on [0, 1)). Range: [a, b); a is possible, b is not (a result that
//! rounds up to b is replaced by the largest double below b). If b - a
//! overflows, a + h·u + h·u with h = b/2 - a/2 is used instead.
class UniformSampler {
 public:
  //! One output every draw (before_draw, words.hpp).
  static constexpr bool kFixedOutputs = true;
  //! Throws engine::InputError unless a < b, both finite.
  explicit UniformSampler(const Uniform& law);

  //! One variate; one 64-bit output.
  template <class Words>
  LBMC_HOST_DEVICE double operator()(Words& gen) const noexcept {
    LBMC_SAMPLER_NO_FP_CONTRACT
    const double u = engine::uniform01(gen);
    double x;
    if (!split_) [[likely]] {
      x = a_ + width_ * u;
    } else {
      const double t = width_ * u;  // width_ holds h here
      x = (a_ + t) + t;
    }
    return x < below_b_ ? x : below_b_;
  }

  //! The same on every stream and device (no tables).
  const UniformSampler& portable() const noexcept { return *this; }
  //! No tables to copy to a device.
  template <class F>
  void for_each_table(F&& /*f*/) {}

 private:
  double a_;
  double width_;
  double below_b_;
  bool split_ = false;
};

//! Sampler for Constant{value}. Range: {value}. Consumes no randomness.
class ConstantSampler {
 public:
  //! No output, every draw (before_draw, words.hpp).
  static constexpr bool kFixedOutputs = true;
  //! Holds the value; no tables.
  explicit ConstantSampler(const Constant& law) noexcept;
  //! Returns the value; the generator is not advanced.
  template <class Words>
  LBMC_HOST_DEVICE double operator()(Words& /*gen*/) const noexcept {
    return value_;
  }

  //! The same on every stream and device.
  const ConstantSampler& portable() const noexcept { return *this; }
  //! No tables to copy to a device.
  template <class F>
  void for_each_table(F&& /*f*/) {}

 private:
  double value_;
};

}  // namespace lbmc::dist
