// Direct sampling of Z = max of n iid loads by inversion of P(Z <= x) = F(x)^n
// (DESIGN §7): one draw per replication instead of n.
//
// - Continuous laws: Z = F⁻¹(U^{1/n}) for U uniform on (0,1), evaluated as the
//   upper quantile at q = 1 − U^{1/n} = −expm1(−E/n), E = −ln U a standard
//   exponential variate, so no digits are lost to 1 − U^{1/n} when n is
//   large. Range: the interior of the law's support.
// - Integer laws: inversion of a table of P(Z = k) with a Chen & Asau guide
//   table (the samplers' InversionTable), over the values outside of which
//   each tail of Z holds less than 2^-64; those tails are below the 2^-63
//   resolution of the table's thresholds and are never drawn. Range: the
//   integers of the table. Tables of at most kDirectTableMaxCells cells take
//   each P(Z = k) from the law's cdf (three evaluations a cell); wider ones
//   from analytic::max_mass_run (one mass a cell, the cdf at every 256th).
//   Past 2^24 cells there is no table: a draw is the smallest k with
//   P(Z <= k) >= u, u on the midpoints of the 2^-53 grid, by a search of the
//   cdf (analytic::max_quantile; ~60 cdf evaluations).
// - Empirical laws: inversion of a table of P(Z = a) over the sample's
//   distinct values a. Range: the sample's values.
// - Point masses return their value and draw nothing.
// - fill() draws a whole block: the exponentials first, then normal and
//   exponential maxima through the vectorised loops of direct_batch.hpp
//   (Wichura's AS 241 and a table-free logarithm), then the scalar path for
//   the few draws outside their domain. It consumes the same generator
//   outputs as one operator() call per draw and agrees with them to about
//   1e-15 relative.
// Exact in law (up to the resolution of the uniform and of the quantile
// function); it consumes different random numbers from the brute-force
// kernel, so the two agree in distribution, not draw by draw.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "lbmc/dist/discrete_samplers.hpp"
#include "lbmc/dist/ziggurat.hpp"
#include "lbmc/dist/laws.hpp"
#include "lbmc/engine/rng.hpp"
#include "lbmc/exp/maxload.hpp"

namespace lbmc::exp {

class DirectMaxSampler {
 public:
  //! Throws engine::InputError for n < 1.
  DirectMaxSampler(const dist::LoadLaw& law, std::int64_t n);

  //! One draw of the maximum of n loads.
  double operator()(engine::Generator& gen) const;
  //! out.size() draws, the same as that many calls of operator() would give
  //! up to the last bits: normal and exponential maxima go through the
  //! vectorised loops of direct_batch.hpp.
  void fill(engine::Generator& gen, std::span<double> out) const;

 private:
  enum class Kind { point, continuous, table, search, atoms };
  // The continuous draw given x = E/n, E the standard exponential drawn.
  double from_exponential(double x) const;
  dist::LoadLaw law_;
  std::int64_t n_;
  double per_n_;  // 1/n
  Kind kind_;
  double point_ = 0.0;
  dist::ExponentialSampler unit_exponential_{dist::Exponential{1.0}};
  dist::InversionTable table_;
  std::vector<double> atoms_;  // the distinct values of an empirical law
};

//! ln(1 − e^{−x}) for x > 0, to a few ulp: the log of the upper tail
//! probability 1 − U^{1/n} of a direct draw, with one logarithm when x is
//! small (a series for ln((1 − e^{−x})/x)), ln(−expm1(−x)) otherwise.
double log_one_minus_exp_neg(double x);

}  // namespace lbmc::exp
