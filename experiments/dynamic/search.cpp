// Common-random-number runs of several dynamic models, the ν search, the
// isoefficiency search and the exponent fit (see dynamic_search.hpp).
#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include <Eigen/Dense>
#include <fmt/format.h>

#include "lbmc/analytic/dynamic.hpp"
#include "lbmc/analytic/harmonic.hpp"
#include "lbmc/engine/errors.hpp"
#include "lbmc/engine/results.hpp"
#include "lbmc/exp/dynamic_search.hpp"

namespace lbmc::exp {

void CommonSample::add(const std::vector<double>& x) {
  const std::size_t k = x.size();
  if (mean.empty()) {
    mean.assign(k, 0.0);
    comoment.assign(k * k, 0.0);
  }
  ++count;
  const auto n = static_cast<double>(count);
  std::vector<double> before(k);
  for (std::size_t i = 0; i < k; ++i) {
    before[i] = x[i] - mean[i];
    mean[i] += before[i] / n;
  }
  // Welford: C_ij += (x_i − old x̄_i)(x_j − new x̄_j).
  for (std::size_t i = 0; i < k; ++i)
    for (std::size_t j = 0; j < k; ++j) comoment[i * k + j] += before[i] * (x[j] - mean[j]);
}

void CommonSample::merge(const CommonSample& other) {
  if (other.count == 0) return;
  if (count == 0) {
    *this = other;
    return;
  }
  const std::size_t k = mean.size();
  const auto na = static_cast<double>(count);
  const auto nb = static_cast<double>(other.count);
  const double n = na + nb;
  std::vector<double> delta(k);
  for (std::size_t i = 0; i < k; ++i) delta[i] = other.mean[i] - mean[i];
  for (std::size_t i = 0; i < k; ++i)
    for (std::size_t j = 0; j < k; ++j)
      comoment[i * k + j] += other.comoment[i * k + j] + delta[i] * delta[j] * na * nb / n;
  for (std::size_t i = 0; i < k; ++i) mean[i] += delta[i] * nb / n;
  count += other.count;
}

double CommonSample::mean_covariance(std::size_t i, std::size_t j) const {
  if (count < 2) return 0.0;
  const auto n = static_cast<double>(count);
  return comoment[i * mean.size() + j] / ((n - 1.0) * n);
}

namespace {

struct CommonKernel {
  using Accumulator = CommonSample;

  std::vector<DynamicSimulator> simulators;
  double t1 = 0.0;

  Accumulator make_accumulator() const {
    Accumulator acc;
    acc.t1 = t1;
    return acc;
  }

  void run(engine::Generator& gen, std::int64_t count, Accumulator& acc) const {
    std::vector<DynamicSimulator> sims = simulators;  // scratch space of this block
    std::vector<double> x(2 * sims.size());
    for (std::int64_t i = 0; i < count; ++i) {
      const std::uint64_t stream = gen();
      const std::size_t k = sims.size();
      for (std::size_t j = 0; j < k; ++j) {
        engine::Generator common = engine::keyed_generator(stream);
        x[j] = sims[j].completion_time(common);
        x[k + j] = sims[j].last_work();
      }
      acc.add(x);
    }
  }
};

bool fixed_count(const DynamicModel& model) { return model.model != SubtaskModel::exponential; }

// The grid ν_center·2^{j/den}, j = from..to, rounded for fixed-N models
// (to multiples of p when center >= 8p: full last rounds, see the header),
// without duplicates, increasing.
std::vector<double> nu_grid(const DynamicModel& base, double center, int from, int to, int den) {
  std::vector<double> grid;
  const auto p = static_cast<double>(base.p);
  for (int j = from; j <= to; ++j) {
    double nu = std::clamp(center * std::exp2(static_cast<double>(j) / den), 1.0, 2e9);
    if (fixed_count(base)) nu = center >= 8.0 * p ? p * std::round(nu / p) : std::round(nu);
    if (grid.empty() || nu > grid.back()) grid.push_back(nu);
  }
  return grid;
}

// η at each grid ν and the paired se of the difference with the best.
std::vector<NuPoint> evaluate_grid(const DynamicModel& base, const std::vector<double>& grid,
                                   const engine::RunPlan& plan, double z) {
  std::vector<DynamicModel> models;
  for (const double nu : grid) {
    DynamicModel m = base;
    m.nu = nu;
    models.push_back(m);
  }
  const ControlledMeans s = controlled_means(simulate_common(models, plan).sample);
  const double scale = base.t1 / static_cast<double>(base.p);
  const std::size_t k = grid.size();
  std::vector<NuPoint> points(k);
  std::size_t best = 0;
  for (std::size_t j = 0; j < k; ++j) {
    const engine::MeanSummary eta = efficiency_of(base, {s.mean[j], s.se(j)});
    points[j].nu = grid[j];
    points[j].eta = eta.mean;
    points[j].se = eta.se;
    if (points[j].eta > points[best].eta) best = j;
  }
  // d η_j = −(t1/p)/m_j² d m_j: Var(η_b − η_j) = g_b² V_bb + g_j² V_jj − 2 g_b g_j V_bj.
  const auto slope = [&](std::size_t j) { return scale / (s.mean[j] * s.mean[j]); };
  const auto cov = [&](std::size_t i, std::size_t j) { return s.covariance[i * k + j]; };
  for (std::size_t j = 0; j < k; ++j) {
    const double var = slope(best) * slope(best) * cov(best, best) + slope(j) * slope(j) * cov(j, j) -
                       2.0 * slope(best) * slope(j) * cov(best, j);
    points[j].se_diff = std::sqrt(std::max(0.0, var));
    points[j].within_noise = points[best].eta - points[j].eta <= z * points[j].se_diff;
  }
  return points;
}

const NuPoint& best_of(const std::vector<NuPoint>& points) {
  return *std::max_element(points.begin(), points.end(),
                           [](const NuPoint& a, const NuPoint& b) { return a.eta < b.eta; });
}

}  // namespace

double ControlledMeans::se(std::size_t j) const { return std::sqrt(std::max(0.0, covariance[j * mean.size() + j])); }

std::vector<engine::MeanSummary> controlled_summaries(const CommonSample& sample) {
  const ControlledMeans m = controlled_means(sample);
  std::vector<engine::MeanSummary> means;
  for (std::size_t j = 0; j < m.mean.size(); ++j) means.push_back({m.mean[j], m.se(j)});
  return means;
}

ControlledMeans controlled_means(const CommonSample& sample) {
  const double t1 = sample.t1;
  const std::size_t k = sample.mean.size() / 2;
  ControlledMeans out;
  out.count = sample.count;
  out.mean.resize(k);
  out.covariance.assign(k * k, 0.0);
  // Indices: T_p of model j is j, its T_1 is k + j.
  const auto c = [&](std::size_t a, std::size_t b) { return sample.mean_covariance(a, b); };
  std::vector<double> b(k, 0.0);
  for (std::size_t j = 0; j < k; ++j) {
    const double v = c(k + j, k + j);
    b[j] = v > 1e-24 * t1 * t1 ? c(j, k + j) / v : 0.0;  // no control for a constant T_1
    out.mean[j] = sample.mean[j] - b[j] * (sample.mean[k + j] - t1);
  }
  // Cov(e_i, e_j), e = T_p − b T_1, scaled to the means like mean_covariance.
  for (std::size_t i = 0; i < k; ++i)
    for (std::size_t j = 0; j < k; ++j)
      out.covariance[i * k + j] =
          c(i, j) - b[j] * c(i, k + j) - b[i] * c(k + i, j) + b[i] * b[j] * c(k + i, k + j);
  return out;
}

engine::Simulated<CommonSample> simulate_common(const std::vector<DynamicModel>& models, engine::RunPlan plan) {
  CommonKernel kernel;
  std::int64_t block = std::numeric_limits<std::int64_t>::max();
  for (const DynamicModel& m : models) {
    kernel.simulators.emplace_back(m);
    block = std::min(block, dynamic_block_reps(m));
  }
  plan.block_reps = std::max<std::int64_t>(1, block / static_cast<std::int64_t>(std::max<std::size_t>(1, models.size())));
  kernel.t1 = models.front().t1;
  engine::Simulated<CommonSample> result{kernel.make_accumulator(), {}};
  result.run = engine::run_replications(plan, kernel, result.sample);
  return result;
}

NuOptimum optimize_nu(const DynamicModel& base, const engine::RunPlan& plan, double level) {
  validate(base);
  const double z = engine::normal_critical(level);
  if (!std::isfinite(base.lambda))
    throw engine::InputError("--optimize-nu: lambda = inf has no optimal nu (eta grows with nu)");
  NuOptimum result;
  // The coarse window spans four octaves; while its best is on an edge it
  // moves three octaves that way (several levels put the root optimum far
  // above ρ = 1: the groups need large tasks to be efficient themselves).
  double center = base.lambda * base.t1 / static_cast<double>(base.p);
  for (int move = 0; move < 12; ++move) {
    result.coarse = evaluate_grid(base, nu_grid(base, center, -6, 2, 2), plan, z);
    const auto& grid = result.coarse;
    const double best = best_of(grid).nu;
    // An edge counts only when its neighbour is clearly worse (ties, as in
    // the deterministic model's plateau, do not move the window).
    if (grid.size() > 1 && best == grid.front().nu && best > 1.0 && !grid[1].within_noise) {
      center /= 8.0;
    } else if (grid.size() > 1 && best == grid.back().nu && !grid[grid.size() - 2].within_noise) {
      center *= 8.0;
    } else {
      break;
    }
  }
  result.fine = evaluate_grid(base, nu_grid(base, best_of(result.coarse).nu, -4, 4, 8), plan, z);
  result.nu = best_of(result.fine).nu;
  // The fine pass's within-noise set widened by one grid point each side (the
  // bracket of the argmax of a unimodal η), joined with the coarse set.
  const auto& fine = result.fine;
  std::size_t first = fine.size(), last = 0;
  for (std::size_t j = 0; j < fine.size(); ++j) {
    if (!fine[j].within_noise) continue;
    first = std::min(first, j);
    last = j;
  }
  result.nu_low = fine[first == 0 ? 0 : first - 1].nu;
  result.nu_high = fine[std::min(last + 1, fine.size() - 1)].nu;
  for (const NuPoint& point : result.coarse) {
    if (!point.within_noise) continue;
    result.nu_low = std::min(result.nu_low, point.nu);
    result.nu_high = std::max(result.nu_high, point.nu);
  }
  result.model = base;
  result.model.nu = result.nu;
  engine::RunPlan held = plan;
  held.seed = engine::derived_seed(plan.seed, kHeldOutSeed);
  const auto [sample, held_out_run] = simulate_common({result.model}, held);
  const ControlledMeans t = controlled_means(sample);
  result.t_p = engine::normal_estimate(t.mean[0], t.se(0), t.count, level);
  result.held_out_run = held_out_run;
  return result;
}

engine::MeanSummary held_out_efficiency(const NuOptimum& optimum) {
  return efficiency_of(optimum.model, {optimum.t_p.value, optimum.t_p.se});
}

double IsoefficiencySweep::start(double p) const {
  const auto theory = [&](double q) {
    return std::pow(q, analytic::isoefficiency_alpha(levels_)) * std::pow(std::log(q), analytic::isoefficiency_beta(levels_));
  };
  const std::size_t n = p_.size();
  if (n >= 2 && p_[n - 1] != p_[n - 2]) {
    const double exponent = std::log(t1_[n - 1] / t1_[n - 2]) / std::log(p_[n - 1] / p_[n - 2]);
    if (std::isfinite(exponent)) return t1_[n - 1] * std::pow(p / p_[n - 1], exponent);
  }
  if (n >= 1) return t1_[n - 1] * theory(p) / theory(p_[n - 1]);
  return scale_ * theory(p);
}

void IsoefficiencySweep::add(double p, const IsoefficiencyPoint& point) {
  p_.push_back(p);
  t1_.push_back(point.t1);
  slope_ = point.slope;
}

namespace {

// One evaluation of the isoefficiency search: η_max at t1 = e^x.
struct EfficiencyAt {
  double x = 0.0;
  double eta = 0.0;
  NuOptimum optimum;
};

constexpr int kMaxIsoefficiencyEvaluations = 60;

}  // namespace

IsoefficiencyPoint isoefficiency_t1(const DynamicModel& base, double eta0, double tol, const engine::RunPlan& plan,
                                    double level, double slope_hint) {
  IsoefficiencyPoint result;
  const auto at = [&](double x) {
    if (++result.evaluations > kMaxIsoefficiencyEvaluations)
      throw engine::RuntimeFailure(fmt::format("isoefficiency: no t1 brackets eta0 = {} in {} evaluations", eta0,
                                               kMaxIsoefficiencyEvaluations));
    DynamicModel m = base;
    m.t1 = std::exp(x);
    m.nu = 1.0;
    EfficiencyAt e{x, 0.0, optimize_nu(m, plan, level)};
    e.eta = held_out_efficiency(e.optimum).mean;
    return e;
  };
  const double width = std::log1p(tol);
  // Bracketing: steps towards η₀ that double, each cut short to 0.45·width
  // beyond where the slope (the hint, then the secant) puts η₀.
  EfficiencyAt last = at(std::log(base.t1));
  const bool start_reaches = last.eta >= eta0;
  const double direction = start_reaches ? -1.0 : 1.0;
  EfficiencyAt previous;
  double slope = slope_hint;
  for (double step = (slope > 0.0 ? 8.0 : 2.0) * width;; step *= 2.0) {
    if (result.evaluations > 1) slope = (last.eta - previous.eta) / (last.x - previous.x);
    const double move = slope > 0.0 ? std::min(step, std::abs(eta0 - last.eta) / slope + 0.45 * width) : step;
    EfficiencyAt next = at(last.x + direction * move);
    previous = std::exchange(last, std::move(next));
    if ((last.eta >= eta0) != start_reaches) break;
  }
  EfficiencyAt lo = std::move(start_reaches ? last : previous);
  EfficiencyAt hi = std::move(start_reaches ? previous : last);
  // Shrinking: η is close to linear in ln t1 over a bracket (common random
  // numbers), so each step aims 0.45·width beyond the interpolated root, on
  // the side that moves the farther end; a step that lands on the other side
  // (the line misled) is followed by a bisection step.
  bool misled = false;
  while (hi.x - lo.x > width) {
    const double root = lo.x + (eta0 - lo.eta) * (hi.x - lo.x) / (hi.eta - lo.eta);
    const bool raise_low = root - lo.x >= hi.x - root;
    double x = 0.5 * (lo.x + hi.x);
    if (!misled)
      x = std::clamp(raise_low ? root - 0.45 * width : root + 0.45 * width, lo.x + 0.25 * width, hi.x - 0.25 * width);
    EfficiencyAt e = at(x);
    const bool reaches = e.eta >= eta0;
    misled = !misled && reaches == raise_low;
    (reaches ? hi : lo) = std::move(e);
  }
  result.slope = (hi.eta - lo.eta) / (hi.x - lo.x);
  result.t1 = std::exp(hi.x);
  result.t1_below = std::exp(lo.x);
  result.log_t1_se = result.slope > 0.0 ? held_out_efficiency(hi.optimum).se / result.slope
                                        : std::numeric_limits<double>::infinity();
  result.optimum = std::move(hi.optimum);
  return result;
}

namespace {

// Ordinary least squares y = X b with the standard errors of b from the
// residual variance (zero without residual degrees of freedom).
struct Ols {
  Eigen::VectorXd coef;
  Eigen::VectorXd se;
};

Ols least_squares(const Eigen::MatrixXd& x, const Eigen::VectorXd& y) {
  Ols out{x.colPivHouseholderQr().solve(y), Eigen::VectorXd::Zero(x.cols())};
  const Eigen::Index dof = x.rows() - x.cols();
  if (dof > 0) {
    const double s2 = (y - x * out.coef).squaredNorm() / static_cast<double>(dof);
    out.se = (s2 * (x.transpose() * x).inverse()).diagonal().cwiseSqrt();
  }
  return out;
}

}  // namespace

ExponentFit fit_isoefficiency(const std::vector<double>& p, const std::vector<double>& t1, double beta_fixed) {
  const auto n = static_cast<Eigen::Index>(p.size());
  if (n < 2 || t1.size() != p.size()) throw engine::InputError("isoefficiency fit: needs at least two points");
  Eigen::MatrixXd x(n, 3), xh(n, 3);
  Eigen::VectorXd y(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    const double pi = p[static_cast<std::size_t>(i)];
    x(i, 0) = 1.0;
    x(i, 1) = std::log(pi);
    x(i, 2) = std::log(std::log(pi));
    xh.row(i) << 1.0, std::log(pi), std::log(analytic::harmonic(static_cast<std::int64_t>(std::llround(pi))));
    y(i) = std::log(t1[static_cast<std::size_t>(i)]);
  }
  ExponentFit fit;
  if (n >= 3) {
    const Ols free = least_squares(x, y);
    fit.c = free.coef(0);
    fit.alpha = free.coef(1);
    fit.beta = free.coef(2);
    fit.c_se = free.se(0);
    fit.alpha_se = free.se(1);
    fit.beta_se = free.se(2);
    const Ols harmonic = least_squares(xh, y);
    fit.alpha_harmonic = harmonic.coef(1);
    fit.beta_harmonic = harmonic.coef(2);
    fit.alpha_harmonic_se = harmonic.se(1);
    fit.beta_harmonic_se = harmonic.se(2);
  }
  // ln t1 − β ln ln p = c + α ln p.
  const Ols fixed = least_squares(x.leftCols(2), y - beta_fixed * x.col(2));
  fit.alpha_fixed_beta = fixed.coef(1);
  fit.alpha_fixed_beta_se = fixed.se(1);
  return fit;
}

}  // namespace lbmc::exp
