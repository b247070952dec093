// Direct draws of the maximum of n iid loads.
#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include <boost/math/constants/constants.hpp>
#include <boost/math/special_functions/erf.hpp>
#include <fmt/format.h>

#include "lbmc/analytic/max_of_iid.hpp"
#include "lbmc/dist/integer_search.hpp"
#include "lbmc/engine/errors.hpp"
#include "direct_batch.hpp"
#include "direct_max.hpp"

namespace lbmc::exp {
namespace {

constexpr double kNegligible = 0x1p-64;
// erfc_inv evaluated in double: a few ulp, against long double internally.
const boost::math::policies::policy<boost::math::policies::promote_double<false>> kFastPolicy;
constexpr double kMaxCells = 0x1p24;
// Integer maxima whose table would pass kMaxCells are drawn by a search of
// the cdf when n is at least this: ~60 cdf evaluations a draw (up to ~1 ms
// each) against n draws of the law.
constexpr double kSearchMinN = 0x1p26;

}  // namespace

DirectMaxSampler::DirectMaxSampler(const dist::LoadLaw& law, std::int64_t n)
    : law_(law), n_(n), per_n_(1.0 / static_cast<double>(n)), kind_(Kind::continuous) {
  if (n < 1) throw engine::InputError(fmt::format("maximum of n loads: n = {} must be >= 1", n));
  if (dist::variance(law) == 0.0) {
    kind_ = Kind::point;
    point_ = dist::mean(law);
    return;
  }
  if (dist::is_continuous(law)) return;
  if (std::holds_alternative<dist::Empirical>(law)) {
    // A table over the sample's distinct values.
    kind_ = Kind::atoms;
    atoms_ = dist::atoms(law).values;
    std::vector<double> probs;
    probs.reserve(atoms_.size());
    const analytic::MaxOfIid max{law, n};
    for (const double a : atoms_) probs.push_back(analytic::pdf(max, a));
    table_ = dist::InversionTable(0.0, probs, 0.0, 0.0);
    return;
  }
  kind_ = Kind::table;
  const analytic::MaxOfIid max{law, n};
  // [lo, hi]: P(Z < lo) < 2^-64 and P(Z > hi) < 2^-64.
  double lo = analytic::quantile(max, kNegligible);
  while (lo > dist::support_min(law) && analytic::cdf(max, lo - 1) >= kNegligible) --lo;
  const double median = analytic::quantile(max, 0.5);
  const double hi =
      dist::first_integer([&](double k) { return analytic::cdf(boost::math::complement(max, k)) < kNegligible; },
                          median, median, dist::support_max(law));
  if (hi - lo >= kMaxCells) {
    kind_ = Kind::search;
    return;
  }
  std::vector<double> probs;
  if (hi - lo < kDirectTableMaxCells) {
    probs.reserve(static_cast<std::size_t>(hi - lo + 1));
    for (double k = lo; k <= hi; ++k) probs.push_back(analytic::pdf(max, k));
  } else {
    probs = analytic::mass_run(max, lo, hi);
  }
  table_ = dist::InversionTable(lo, probs, analytic::cdf(max, lo - 1),
                                analytic::cdf(boost::math::complement(max, hi)));
}

double log_one_minus_exp_neg(double x) {
  // ln((1 − e^{−x})/x) = −x/2 + x²/24 − x⁴/2880 + O(x⁶): below 10⁻³ the
  // next term is under 10⁻²³, so one logarithm suffices.
  if (x < 1e-3) return std::log(x) + x * (-0.5 + x * (1.0 / 24.0 - x * x * (1.0 / 2880.0)));
  return std::log(-std::expm1(-x));
}

double DirectMaxSampler::from_exponential(double x) const {
  // Closed forms of the upper quantile at q = −expm1(−x) where the law has
  // one; Boost's erfc_inv in double precision (no long double promotion) for
  // the normal.
  if (const auto* e = std::get_if<dist::Exponential>(&law_)) return -e->mean * log_one_minus_exp_neg(x);
  const double q = -std::expm1(-x);
  if (const auto* u = std::get_if<dist::Uniform>(&law_)) return u->b - (u->b - u->a) * q;
  if (const auto* g = std::get_if<dist::Normal>(&law_)) {
    return g->mu + g->sigma * boost::math::constants::root_two<double>() * boost::math::erfc_inv(2.0 * q, kFastPolicy);
  }
  return dist::quantile_upper(law_, q);
}

double DirectMaxSampler::operator()(engine::Generator& gen) const {
  switch (kind_) {
    case Kind::point: return point_;
    // U^{1/n} = e^{−E/n} with E = −ln U standard exponential (ziggurat).
    case Kind::continuous: return from_exponential(unit_exponential_(gen) * per_n_);
    // The smallest k with P(Z <= k) >= u, u uniform on the midpoints of the
    // 2^-53 grid.
    case Kind::search:
      return analytic::quantile(analytic::MaxOfIid{law_, n_}, (static_cast<double>(gen() >> 11) + 0.5) * 0x1p-53);
    case Kind::atoms: return atoms_[std::clamp<std::size_t>(table_.locate(gen() >> 1), 1, table_.size()) - 1];
    case Kind::table: {
      // Cells 0 and size()+1 are the tails of mass < 2^-64, which the 2^-63
      // thresholds leave empty; the clamp guards against their rounding.
      const std::size_t cell = std::clamp<std::size_t>(table_.locate(gen() >> 1), 1, table_.size());
      return table_.lo() + static_cast<double>(cell - 1);
    }
  }
  return point_;
}

void DirectMaxSampler::fill(engine::Generator& gen, std::span<double> out) const {
  const auto* normal = std::get_if<dist::Normal>(&law_);
  const auto* exponential = std::get_if<dist::Exponential>(&law_);
  if (kind_ != Kind::continuous || (normal == nullptr && exponential == nullptr)) {
    for (double& z : out) z = (*this)(gen);
    return;
  }
  // Chunks small enough for the exponentials to stay in L1 between the passes.
  constexpr std::size_t kChunk = 512;
  std::array<double, kChunk> e;
  engine::Generator local = gen;  // in registers, not behind the reference
  for (std::size_t first = 0; first < out.size(); first += kChunk) {
    const std::size_t count = std::min(kChunk, out.size() - first);
    double* const z = out.data() + first;
    for (std::size_t i = 0; i < count; ++i) e[i] = unit_exponential_(local);
    if (normal != nullptr) {
      normal_max_batch(e.data(), z, count, per_n_, normal->mu, normal->sigma);
    } else {
      exponential_max_batch(e.data(), z, count, per_n_, exponential->mean);
    }
    for (std::size_t i = 0; i < count; ++i) {
      if (std::isnan(z[i])) z[i] = from_exponential(e[i] * per_n_);
    }
  }
  gen = local;
}

MaxMethod choose_max_method(const dist::LoadLaw& law, std::int64_t n) {
  if (!dist::is_continuous(law)) {
    if (n < 2) return MaxMethod::brute;
    if (std::holds_alternative<dist::Empirical>(law)) return MaxMethod::direct;  // a table of its values
    // The table spans the range where P(Z = k) >= 2^-64; the quantiles at
    // 2^-64 and 1 − 2^-52 bound most of it, cheaply. A wide table costs about
    // a mass evaluation a cell (~100 draws), built once; beyond kMaxCells the
    // direct draws search the cdf (kSearchMinN).
    const analytic::MaxOfIid max{law, n};
    const double width = analytic::quantile(max, 1.0 - 0x1p-52) - analytic::quantile(max, kNegligible);
    const auto dn = static_cast<double>(n);
    const bool direct = width <= kDirectTableMaxCells || (width < kMaxCells && dn >= width) || dn >= kSearchMinN;
    return direct ? MaxMethod::direct : MaxMethod::brute;
  }
  return n >= kDirectContinuousMinN ? MaxMethod::direct : MaxMethod::brute;
}

}  // namespace lbmc::exp
