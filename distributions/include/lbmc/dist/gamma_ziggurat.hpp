// Gamma variates of shape K < 1 by a ziggurat on the law of X^K (part of
// samplers.hpp, which is the header to include; GammaSampler,
// task_time_samplers.hpp, draws K < 1 through it).
//
// Design note
// - If X ~ Gamma(K, 1), Z = X^K has the density
//     g(z) = exp(-z^(1/K)) / Γ(1 + K),   z > 0
//   (x = z^(1/K), dx/dz = z^(1/K - 1)/K: the generalized gamma of Stacy
//   1962, Ann. Math. Statist. 33:1187-1192, with d = 1, p = 1/K), bounded,
//   decreasing, with Γ(1 + K)·g(0) = 1: the shape a ziggurat wants. So Z is
//   drawn by the ziggurat of Marsaglia & Tsang (2000, J. Stat. Softw. 5(8);
//   ziggurat.hpp) on f(z) = exp(-z^a), a = 1/K rounded to double (the law
//   drawn is Gamma(K') with K' = 1/a, an ulp from K, as for Weibull), and
//   the value is THETA·Z^a by FixedPower (fixed_power.hpp), as Weibull
//   raises E^(1/K). One generator output for nearly every draw, where the
//   boost Gamma(K + 1)·U^(1/K) (Marsaglia & Tsang 2000, ACM TOMS 26:363-372,
//   §6) took about 3.1.
// - The table: 1024 layers of equal area v (ZigguratTable). Its base strip
//   is r f(r) plus the tail beyond r, where (z = x^K', x0 = r^a)
//     ∫_r^∞ exp(-z^a) dz = K' Γ(K', x0) = K' x0^K' e^(-x0) C(K', x0),
//   C(s, x) = Γ(s, x) x^(-s) e^x by Legendre's continued fraction (DLMF
//   8.9.2; Numerical Recipes 6.2.7, evaluated backwards)
//     C(s, x) = 1/(x + 1 - s - 1(1 - s)/(x + 3 - s - 2(2 - s)/(x + 5 - s - ...))),
//   so v = r f(r) (1 + K' C(K', x0)) since x0^K' = r. x0, f(r) and v are
//   double-double (double_double.hpp), rounded; the layers upwards are
//   double, with portable_log and portable_exp (portable_exp_log.hpp):
//     f_{i+1} = f_i + v/x_i,   x_{i+1} = (-log f_{i+1})^K'.
//   The unknown is x0 rather than r (for small K, r = x0^K' crowds near 1,
//   where a double resolves x0 only to a·2^-52): regula falsi with the
//   Illinois modification on log(L/n(x0)), n(x0) the number of layers of
//   area v(x0) that fit under f (the highest layer built below the top plus
//   the share of one more that the gap to the top holds: L exactly where the
//   layers close; continuous, and nearly linear in x0 after the logarithm).
//   7 to 16 passes, until |log(L/n)| <= 2^-48: the top layer's area is v
//   within 2^-38 relative (the construction checks 2^-36), the others within
//   the rounding of one sum and one quotient (~2^-43 relative). Only
//   + - * / and these exp and log: the same table on every IEEE-754
//   platform, solved per sampler in about 0.6 ms.
// - Drawing, as the exponential's (ziggurat.hpp): one 64-bit output, bits
//   0-9 the layer i, bits 12-63 an integer m, z = (2m+1)·2^-53·x_i, accepted
//   at once inside the layer's inner rectangle (an integer compare). The
//   fraction of draws past it falls with K: 0.64% near K = 1 (the
//   exponential's), 0.32% at K = 0.3, 0.11% at K = 0.01, where the shape is
//   nearly a box on [0, 1]; 1.004 outputs a draw on average at K = 0.3.
// - Wedge test (layer i >= 1, z beyond the inner rectangle): the height
//   f_i + u (f_{i+1} - f_i) against exp(-z^a), both exp and the power by
//   portable_exp(a·portable_log(z)): no C library in any decision.
// - Tail (the base strip beyond r; 3.4e-5 of the draws at K = 0.3): X
//   given X > x0 for Gamma(K'), by rejection (Devroye 1986, "Non-Uniform
//   Random Variate Generation", §II.3) from x = x0 + E, accepted with
//   probability (x/x0)^(K' - 1) <= 1 (the conditional density x^(K'-1) e^-x
//   over the proposal's e^-(x - x0), up to the constant x0^(K'-1)); at
//   least (1 + 1/x0)^(K'-1) >= 0.87 of the proposals are accepted (Jensen).
//   E = -log U by inversion, U = engine::uniform_open01 (E <= 54 ln 2 =
//   37.4: the tail beyond x0 + 37.4 holds e^-37.4 < 2^-53 of the tail's
//   mass), so that the sampler needs no exponential table.
// - Range: (0, inf) in exact arithmetic; 0 by underflow of THETA·z^a when
//   the exact law has mass below the smallest double (K = 0.01 and
//   z < 2^-10.7, the same probability as for the exact gamma), never inf.
//   The values lie on the image of z's grid: relative steps of
//   a·2^-52 near X = 1 (2^-45 at K = 0.01).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "lbmc/dist/fixed_power.hpp"
#include "lbmc/dist/laws.hpp"
#include "lbmc/dist/portable_exp_log.hpp"
#include "lbmc/dist/sampler_support.hpp"
#include "lbmc/dist/ziggurat.hpp"
#include "lbmc/engine/rng.hpp"

namespace lbmc::dist {

//! The ziggurat of f(z) = exp(-z^a) for the gamma of shape K' = 1/a < 1,
//! and the start of its tail in the gamma's own units.
struct GammaPowerTable {
  //! The layers (ziggurat.hpp): 1024, of equal area v.
  ZigguratTable<1024, false> layers;
  //! a = 1/K rounded: f(z) = exp(-z^a), the value z^a.
  double exponent = 1.0;
  //! x0 = r^a rounded: the base strip beyond r is the gamma's X > x0.
  double tail_start = 0.0;
  //! 1 - K' = 1 - 1/a: the tail's proposal x is accepted with probability
  //! (x/x0)^-(1 - K').
  double tail_power = 0.0;
};

//! The table for the exponent a > 1 (see the design note above); throws
//! std::logic_error if the layers do not close.
GammaPowerTable gamma_power_table(double exponent);

//! Sampler for Gamma{k, theta} with k < 1: THETA·Z^(1/k), Z = X^k drawn by
//! its own ziggurat (design note above).
class SmallShapeGammaSampler {
 public:
  //! Throws engine::InputError unless 0 < k < 1 and theta > 0 is finite.
  explicit SmallShapeGammaSampler(const Gamma& law);

  //! One variate; one generator output on 99.7% of the draws at k = 0.3.
  double operator()(engine::Generator& gen) const {
    LBMC_SAMPLER_NO_FP_CONTRACT
    const ZigguratTable<1024, false>& t = table_->layers;
    for (;;) {
      const detail::ZigguratPoint p = detail::ziggurat_point(t, gen());
      if (!p.inside(t)) [[unlikely]] {
        if (p.entry == 0) return detail::with_generator_copy(gen, [this](engine::Generator& g) { return tail(g); });
        if (!under_curve(p.entry, p.z, engine::uniform01(gen))) continue;
      }
      return power_(p.z);
    }
  }

  //! The table the sampler draws from.
  const GammaPowerTable& table() const noexcept { return *table_; }

 private:
  // THETA·X for X given X > x0 (the base strip's tail), by rejection.
  double tail(engine::Generator& gen) const;
  // Whether the point at abscissa z in layer i >= 1, at height fraction u
  // of the layer, lies under f(z) = exp(-z^a).
  bool under_curve(std::size_t i, double z, double u) const noexcept;

  std::shared_ptr<const GammaPowerTable> table_;
  FixedPower power_;  // THETA·z^a
  const ExpLogTables* math_ = &exp_log_tables();
  double theta_;
};

}  // namespace lbmc::dist
