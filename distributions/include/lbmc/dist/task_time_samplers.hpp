// Samplers of the task-time laws: gamma, lognormal, Weibull, Pareto,
// geometric, negative binomial and empirical (part of samplers.hpp, which is
// the header to include).
//
// Design note
// - Gamma(K, THETA): Marsaglia & Tsang (2000, ACM TOMS 26:363-372) on our
//   ziggurat normal and the open uniform: d = K - 1/3, c = 1/sqrt(9d),
//   v = (1 + c x)^3, accept d·v when u < 1 - 0.0331 x^4 (the squeeze, no
//   logarithm) or ln u < x^2/2 + d(1 - v + ln v). K < 1 by the usual boost
//   (their §6): Gamma(K+1)·u^(1/K), with u^(1/K) = exp(-E/K) from our
//   exponential. Range: (0, inf); 0 itself only by underflow of exp(-E/K)
//   when K is small (K = 0.01 and E > 7.1).
// - Lognormal(MU, SIGMA): exp(MU + SIGMA·z), z our normal. Range: (0, inf).
// - Weibull(K, LAMBDA): inversion, LAMBDA·E^(1/K) = LAMBDA·exp(ln(E)/K) with
//   E = -ln U our exponential (ziggurat). Range: [0, inf); 0 only when
//   ln(E)/K underflows the exponential.
// - Pareto(ALPHA, XM): inversion, XM·exp(E/ALPHA), E as above. Range:
//   [XM, inf); XM itself when E = 0.
// - Geometric(P), trials: inversion in O(1): 1 + floor(E/r), r = -ln(1 - P),
//   since P(floor(E/r) >= k) = e^(-rk) = (1 - P)^k exactly. Range: 1, 2, ...;
//   P = 1 is the point 1 and draws nothing.
// - Negative binomial(R, P), failures: inversion of a table of its masses
//   with a Chen & Asau guide (InversionTable), over [0, hi] with P(X > hi) <=
//   2^-40 (bounded by the ratio of successive masses, which tends to 1 - P);
//   beyond hi an exact sequential search on the conditional tail. When the
//   table would pass 2^18 cells (2 MiB of thresholds): the gamma–Poisson mixture, Poisson(G) with
//   G ~ Gamma(R, (1 - P)/P), the Poisson drawn by PTRS (mean >= 10) or by
//   sequential inversion. Range: 0, 1, ...; P = 1 is the point 0.
// - Empirical: inversion of the sorted sample: the value of index
//   floor(m·u), u the 64-bit output over 2^64 (the 128-bit product: every
//   index with probability 1/m up to m/2^64). Range: the sample's values.
// - Reproducibility: the gamma, lognormal, Weibull, Pareto, geometric and
//   mixture paths call std::exp, std::log, std::pow or std::floor on every
//   draw (or, for gamma, on the rare draws past the squeeze); a C library
//   whose last bit differs changes a value by an ulp, and could flip a
//   decision with a probability of order 1e-16. The table paths are integer
//   compares.
#pragma once

#include <cmath>
#include <cstdint>
#include <memory>
#include <vector>

#include "lbmc/dist/inversion_table.hpp"
#include "lbmc/dist/laws.hpp"
#include "lbmc/dist/sampler_support.hpp"
#include "lbmc/dist/ziggurat.hpp"
#include "lbmc/engine/rng.hpp"

namespace lbmc::dist {

//! Sampler for Gamma{k, theta}: Marsaglia–Tsang (boosted for k < 1).
class GammaSampler {
 public:
  //! Throws engine::InputError unless k > 0 and theta > 0, both finite.
  explicit GammaSampler(const Gamma& law);

  //! One variate; about 2.1 outputs of the generator for k >= 1.
  double operator()(engine::Generator& gen) const {
    LBMC_SAMPLER_NO_FP_CONTRACT
    const double g = draw_shape_at_least_one(gen);
    if (!boosted_) [[likely]] return theta_ * g;
    // u^(1/K) = exp(-E/K), E = -ln u standard exponential.
    return theta_ * g * std::exp(-unit_exponential_(gen) * inverse_k_);
  }
  //! The law the sampler was built from.
  const Gamma& law() const noexcept { return law_; }

 private:
  // Gamma(d + 1/3) with d = k - 1/3 (k + 1 when boosted), scale 1.
  double draw_shape_at_least_one(engine::Generator& gen) const {
    LBMC_SAMPLER_NO_FP_CONTRACT
    for (;;) {
      double x = 0.0;
      double v = 0.0;
      do {
        x = unit_normal_(gen);
        v = 1.0 + c_ * x;
      } while (v <= 0.0);
      v = v * v * v;
      const double u = engine::uniform_open01(gen);
      const double x2 = x * x;
      if (u < 1.0 - 0.0331 * (x2 * x2)) return d_ * v;
      if (std::log(u) < 0.5 * x2 + d_ * (1.0 - v + std::log(v))) return d_ * v;
    }
  }

  Gamma law_;
  NormalSampler unit_normal_{Normal{0.0, 1.0}};
  ExponentialSampler unit_exponential_{Exponential{1.0}};
  double d_ = 0.0;
  double c_ = 0.0;
  double theta_ = 1.0;
  double inverse_k_ = 1.0;
  bool boosted_ = false;
};

//! Sampler for Lognormal{mu, sigma}: exp(mu + sigma·z).
class LognormalSampler {
 public:
  //! Throws engine::InputError unless sigma > 0, both finite.
  explicit LognormalSampler(const Lognormal& law);
  //! One variate.
  double operator()(engine::Generator& gen) const {
    LBMC_SAMPLER_NO_FP_CONTRACT
    return std::exp(law_.mu + law_.sigma * unit_normal_(gen));
  }
  //! The law the sampler was built from.
  const Lognormal& law() const noexcept { return law_; }

 private:
  Lognormal law_;
  NormalSampler unit_normal_{Normal{0.0, 1.0}};
};

//! Sampler for Weibull{k, lambda}: lambda·E^(1/k).
class WeibullSampler {
 public:
  //! Throws engine::InputError unless k > 0 and lambda > 0, both finite.
  explicit WeibullSampler(const Weibull& law);
  //! One variate.
  double operator()(engine::Generator& gen) const {
    LBMC_SAMPLER_NO_FP_CONTRACT
    const double e = unit_exponential_(gen);
    return law_.lambda * (law_.k == 1.0 ? e : std::exp(std::log(e) * inverse_k_));
  }
  //! The law the sampler was built from.
  const Weibull& law() const noexcept { return law_; }

 private:
  Weibull law_;
  ExponentialSampler unit_exponential_{Exponential{1.0}};
  double inverse_k_ = 1.0;
};

//! Sampler for Pareto{alpha, xm}: xm·exp(E/alpha).
class ParetoSampler {
 public:
  //! Throws engine::InputError unless alpha > 0 and xm > 0, both finite.
  explicit ParetoSampler(const Pareto& law);
  //! One variate.
  double operator()(engine::Generator& gen) const {
    LBMC_SAMPLER_NO_FP_CONTRACT
    return law_.xm * std::exp(unit_exponential_(gen) * inverse_alpha_);
  }
  //! The law the sampler was built from.
  const Pareto& law() const noexcept { return law_; }

 private:
  Pareto law_;
  ExponentialSampler unit_exponential_{Exponential{1.0}};
  double inverse_alpha_ = 1.0;
};

//! Sampler for Geometric{p} (trials): 1 + floor(E/r), r = -ln(1 - p).
class GeometricSampler {
 public:
  //! Throws engine::InputError unless 0 < p <= 1.
  explicit GeometricSampler(const Geometric& law);
  //! One variate; p = 1 gives 1 and draws nothing.
  double operator()(engine::Generator& gen) const {
    LBMC_SAMPLER_NO_FP_CONTRACT
    if (inverse_rate_ == 0.0) return 1.0;
    return 1.0 + std::floor(unit_exponential_(gen) * inverse_rate_);
  }
  //! The law the sampler was built from.
  const Geometric& law() const noexcept { return law_; }

 private:
  Geometric law_;
  ExponentialSampler unit_exponential_{Exponential{1.0}};
  double inverse_rate_ = 0.0;  // 1/r; 0 for the point mass
};

//! Sampler for NegBinomial{r, p} (failures): table inversion, or the
//! gamma–Poisson mixture past 2^16 cells.
class NegBinomialSampler {
 public:
  //! Throws engine::InputError unless r > 0 and 0 < p <= 1.
  explicit NegBinomialSampler(const NegBinomial& law);
  //! One variate.
  double operator()(engine::Generator& gen) const {
    LBMC_SAMPLER_NO_FP_CONTRACT
    if (!table_.thresholds().empty()) [[likely]] {
      const std::size_t i = table_.locate(gen() >> 1);
      if (i - 1 < table_.size()) [[likely]] return static_cast<double>(i - 1);
      return detail::with_generator_copy(gen, [this](engine::Generator& g) { return upper_tail(g); });
    }
    if (mixture_) return mixture(gen);
    return 0.0;
  }
  //! True when the sampler draws from the gamma–Poisson mixture.
  bool uses_mixture() const noexcept { return mixture_ != nullptr; }
  //! The law the sampler was built from.
  const NegBinomial& law() const noexcept { return law_; }

 private:
  double upper_tail(engine::Generator& gen) const;  // cold: conditional tail search
  double mixture(engine::Generator& gen) const;

  NegBinomial law_;
  InversionTable table_;
  std::shared_ptr<const GammaSampler> mixture_;  // Gamma(r, (1-p)/p), for the mixture
};

//! Sampler for an Empirical law: a uniformly chosen value of its sample.
class EmpiricalSampler {
 public:
  //! Throws engine::InputError for an empty sample.
  explicit EmpiricalSampler(const Empirical& law);
  //! One variate; one 64-bit output.
  double operator()(engine::Generator& gen) const noexcept {
    __extension__ using Wide = unsigned __int128;  // GCC and Clang
    return values_[static_cast<std::size_t>((static_cast<Wide>(gen()) * size_) >> 64)];
  }
  //! The law the sampler was built from.
  const Empirical& law() const noexcept { return law_; }

 private:
  Empirical law_;
  const double* values_ = nullptr;
  std::uint64_t size_ = 0;
};

}  // namespace lbmc::dist
