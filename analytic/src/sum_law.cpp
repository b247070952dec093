// The law of a sum of n iid task times (see sum_law.hpp).
#include "lbmc/analytic/sum_law.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include <fmt/format.h>

#include "lbmc/analytic/max_of_iid.hpp"
#include "lbmc/engine/errors.hpp"

namespace lbmc::analytic {
namespace {

// The families closed under sums whose sum law is a law of the table: its
// spec, and the shift for geometric trials (n + NegBinomial(n, P) failures).
// Empty spec: not such a family.
struct SumSpec {
  std::string spec;
  double shift = 0.0;
};
SumSpec family_sum_spec(const dist::LoadLaw& task, double n) {
  if (const auto* g = std::get_if<dist::Gamma>(&task)) return {fmt::format("gamma:{},{}", n * g->k, g->theta)};
  if (const auto* po = std::get_if<dist::Poisson>(&task)) return {fmt::format("poisson:{}", n * po->lambda)};
  if (const auto* b = std::get_if<dist::Binomial>(&task)) {
    return {fmt::format("binomial:{},{}", n * static_cast<double>(b->trials), b->p)};
  }
  if (const auto* nb = std::get_if<dist::NegBinomial>(&task)) {
    return {fmt::format("negbinomial:{},{}", n * nb->r, nb->p)};
  }
  if (const auto* ge = std::get_if<dist::Geometric>(&task)) return {fmt::format("negbinomial:{},{}", n, ge->p), n};
  return {};
}

// S = shift + a value of `law`, built in place (a temporary SumLaw moved into
// the optional draws GCC's false maybe-uninitialized warning on the lattice
// alternative).
std::optional<SumLaw> shifted(double shift, dist::LoadLaw law) {
  std::optional<SumLaw> sum(std::in_place);
  sum->shift = shift;
  sum->law.emplace<dist::LoadLaw>(std::move(law));
  return sum;
}

}  // namespace

std::optional<SumLaw> sum_law(const dist::LoadLaw& task, std::int64_t n) {
  if (n < 0) throw engine::InputError(fmt::format("sum of n task times: n = {} must be >= 0", n));
  const auto dn = static_cast<double>(n);
  if (n == 0) return shifted(0.0, dist::Constant{0.0});
  if (const auto* c = std::get_if<dist::Constant>(&task)) return shifted(0.0, dist::Constant{dn * c->value});
  if (const auto* g = std::get_if<dist::Normal>(&task)) {
    return shifted(0.0, dist::Normal{dn * g->mu, std::sqrt(dn) * g->sigma});
  }
  if (const auto* e = std::get_if<dist::Exponential>(&task)) return shifted(0.0, dist::Gamma{dn, e->mean});
  if (auto lattice = lattice_sum(task, n)) {
    std::optional<SumLaw> sum(std::in_place);
    sum->law.emplace<LatticeLaw>(std::move(*lattice));
    return sum;
  }
  const SumSpec family = family_sum_spec(task, dn);
  if (family.spec.empty()) return std::nullopt;
  try {
    return shifted(family.shift, dist::parse_load_law(family.spec));
  } catch (const engine::InputError&) {
    return std::nullopt;
  }
}

SumTails sum_tails(const SumLaw& sum, double x) {
  if (const auto* lattice = std::get_if<LatticeLaw>(&sum.law)) {
    const double j = std::floor(x - lattice->lo);
    if (!(j >= 0.0)) return {0.0, 1.0};
    if (j >= static_cast<double>(lattice->mass.size())) return {1.0, 0.0};
    const auto cell = static_cast<std::size_t>(j);
    return {lattice->below[cell], lattice->above[cell]};
  }
  const auto& law = std::get<dist::LoadLaw>(sum.law);
  const double at = x - sum.shift;
  const double below = dist::cdf(law, at);
  return {below, below <= 0.5 ? 1.0 - below : dist::ccdf(law, at)};
}

bool is_integer_valued(const SumLaw& sum) {
  if (std::holds_alternative<LatticeLaw>(sum.law)) return true;
  return dist::is_integer_valued(std::get<dist::LoadLaw>(sum.law));
}

double quantile_upper(const SumLaw& sum, double q) {
  if (const auto* lattice = std::get_if<LatticeLaw>(&sum.law)) {
    const auto& above = lattice->above;
    const auto cell = std::partition_point(above.begin(), above.end(), [q](double t) { return t > q; });
    return lattice->lo + static_cast<double>(cell - above.begin());
  }
  return sum.shift + dist::quantile_upper(std::get<dist::LoadLaw>(sum.law), q);
}

TailTable tail_table(const SumLaw& sum, double lo, double hi) {
  if (!is_integer_valued(sum)) {
    throw engine::InputError("tail table of a sum: the law of the sum is not on the integers");
  }
  const auto cells = static_cast<std::size_t>(hi - lo + 1.0);
  TailTable table{lo, std::vector<double>(cells), std::vector<double>(cells)};
  const auto at = [&](std::size_t i) { return lo + static_cast<double>(i); };
  if (std::holds_alternative<LatticeLaw>(sum.law)) {
    for (std::size_t i = 0; i < cells; ++i) {
      const SumTails t = sum_tails(sum, at(i));
      table.below[i] = t.below;
      table.above[i] = t.above;
    }
    return table;
  }
  const auto& law = std::get<dist::LoadLaw>(sum.law);
  std::vector<double> mass(cells);
  for (std::size_t i = 0; i < cells; ++i) mass[i] = dist::pdf(law, at(i) - sum.shift);
  for (std::size_t first = 0; first < cells; first += kTailTableStride) {
    const std::size_t last = std::min(first + kTailTableStride, cells) - 1;
    table.below[first] = dist::cdf(law, at(first) - sum.shift);
    for (std::size_t i = first + 1; i <= last; ++i) table.below[i] = std::min(1.0, table.below[i - 1] + mass[i]);
    table.above[last] = dist::ccdf(law, at(last) - sum.shift);
    for (std::size_t i = last; i > first; --i) table.above[i - 1] = std::min(1.0, table.above[i] + mass[i]);
  }
  return table;
}

double max_quantile(const SumLaw& sum, std::int64_t count, double alpha) {
  if (const auto* lattice = std::get_if<LatticeLaw>(&sum.law)) return max_quantile(*lattice, count, alpha);
  return sum.shift + quantile(MaxOfIid{std::get<dist::LoadLaw>(sum.law), count}, alpha);
}

double max_mean(const SumLaw& sum, std::int64_t count) {
  if (const auto* lattice = std::get_if<LatticeLaw>(&sum.law)) return max_mean(*lattice, count);
  return sum.shift + mean(MaxOfIid{std::get<dist::LoadLaw>(sum.law), count});
}

}  // namespace lbmc::analytic
