// The per-replication kernel of `lbmc compare` and what is reported of it
// (compare.hpp has the model): each replication fills its N task times
// once (compare_workload.hpp) and runs every strategy on them through one
// Scheduler per block of replications (scheduler.cpp).
#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "lbmc/dist/samplers.hpp"
#include "lbmc/engine/errors.hpp"
#include "lbmc/engine/interrupt.hpp"
#include "lbmc/exp/run_options.hpp"
#include "compare.hpp"
#include "scheduler.hpp"
#include "strategy.hpp"

namespace lbmc::exp {

namespace {

constexpr double kEps = std::numeric_limits<double>::epsilon();
constexpr double kInf = std::numeric_limits<double>::infinity();

std::size_t size_of(std::int64_t n) { return static_cast<std::size_t>(n); }

// x where mathematics says x >= limit: a value below it by no more than the
// rounding of the sums (relative `tol`) is read as the limit.
double at_least(double x, double limit, double tol) { return x < limit && x >= limit * (1.0 - tol) ? limit : x; }
// x where mathematics says x <= limit, likewise.
double at_most(double x, double limit, double tol) { return x > limit && x <= limit * (1.0 + tol) ? limit : x; }

}  // namespace

std::string efficiency_ranking(const CompareSpec& spec, const CompareSample& sample) {
  std::vector<std::size_t> order(spec.strategies.size());
  std::size_t width = 0;
  for (std::size_t i = 0; i < order.size(); ++i) {
    order[i] = i;
    width = std::max(width, to_string(spec.strategies[i]).size());
  }
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return sample.strategy[a].efficiency.mean() > sample.strategy[b].efficiency.mean();
  });
  std::string text = "  ranking by efficiency.mean (+- se):\n";
  for (std::size_t rank = 0; rank < order.size(); ++rank) {
    const engine::Moments& e = sample.strategy[order[rank]].efficiency;
    // Two significant digits of the se, the mean to the same decimal.
    const double se = e.mean_se();
    int decimals = 4;
    if (std::isfinite(se) && se > 0.0) decimals = std::clamp(1 - static_cast<int>(std::floor(std::log10(se))), 1, 12);
    text += fmt::format("  {:>3}  {:<{}}  {:.{}f} +- {:.{}f}\n", rank + 1, to_string(spec.strategies[order[rank]]),
                        width, e.mean(), decimals, se, decimals);
  }
  return text;
}

double compare_variates_per_rep(const CompareSpec& spec) {
  const double n = static_cast<double>(spec.tasks());
  double draws = n;
  for (const Strategy& s : spec.strategies) draws += n * static_cast<double>(draws_per_task(s));
  return draws;
}

double compare_thread_bytes(std::int64_t tasks, std::int64_t procs) {
  return kCompareTaskBytes * static_cast<double>(tasks) + kCompareProcessorBytes * static_cast<double>(procs) + 0x1.0p15;
}

namespace {

// Fills a replication's times: iid draws from the law's sampler, the ar1
// field, or the measured times.
template <class Sampler>
struct TimesFiller {
  Sampler sampler;
  const Workload* workload;
  CorrelatedTimes correlated;

  void operator()(engine::Generator& gen, std::span<double> times) const {
    switch (workload->field.kind) {
      case Field::Kind::iid:
        for (double& t : times) t = sampler(gen);
        return;
      case Field::Kind::ar1: correlated.fill(gen, times); return;
      case Field::Kind::measured: std::copy(workload->measured->begin(), workload->measured->end(), times.begin()); return;
    }
  }
};

template <class Sampler>
struct CompareKernel {
  using Accumulator = CompareSample;

  TimesFiller<Sampler> fill;
  const CompareSpec* spec;
  std::vector<double> upper;  // per strategy: ratio_upper_bound, or +inf
  double tol;                 // rounding of a sum of N times, relative

  Accumulator make_accumulator() const { return {}; }

  void run(engine::Generator& gen, std::int64_t count, Accumulator& acc) const {
    const Machine& machine = spec->machine;
    const double p = static_cast<double>(machine.procs);
    const double pairs = static_cast<double>(spec->tasks() - 1);
    ScratchVector<double> times(size_of(spec->tasks()));
    Scheduler scheduler;
    for (std::int64_t r = 0; r < count; ++r) {
      fill(gen, times);
      double total = 0.0;
      double longest = 0.0;
      for (const double t : times) {
        total += t;
        longest = std::max(longest, t);
      }
      const double mean_load = total / p;
      const double bound = std::max(mean_load, longest);
      double first_efficiency = 0.0;
      for (std::size_t s = 0; s < spec->strategies.size(); ++s) {
        engine::throw_if_interrupted();  // a schedule of 4e9 tasks takes minutes
        StrategyStats& st = acc.strategy[s];
        const Outcome outcome = scheduler.run(spec->strategies[s], times, machine, gen);
        const double c = outcome.makespan;
        st.makespan.add(c);
        st.overhead.add(outcome.overhead);
        if (pairs > 0.0) st.split_pairs.add(static_cast<double>(outcome.split_pairs) / pairs);
        double efficiency = c == 0.0 ? 1.0 : 0.0;  // W = 0: nothing to do, idle only for dispatch
        if (total > 0.0) {
          const double q = at_least(c / mean_load, 1.0, tol);  // P·C/W >= 1
          efficiency = 1.0 / q;
          st.imbalance.add(q - 1.0);
        }
        st.efficiency.add(efficiency);
        if (bound > 0.0) {
          double ratio = at_least(c / bound, 1.0, tol);
          ratio = at_most(ratio, upper[s], tol);
          st.ratio.add(ratio);
        }
        if (s == 0) {
          first_efficiency = efficiency;
        } else {
          st.efficiency_diff.add(efficiency - first_efficiency);
        }
      }
    }
  }
};

void require_cost(const char* name, double value) {
  if (!(value >= 0.0 && value <= kMaxCost)) {
    throw engine::InputError(fmt::format("compare: {} = {} is not in [0, 1e100]", name, value));
  }
}

}  // namespace

engine::Simulated<CompareSample> simulate_compare(const CompareSpec& spec, engine::RunPlan plan) {
  const Workload& workload = spec.workload;
  const Machine& machine = spec.machine;
  if (spec.tasks() < 1) throw engine::InputError(fmt::format("compare: N = {} tasks must be >= 1", spec.tasks()));
  if (spec.tasks() > std::int64_t{0xFFFFFFFF}) {
    throw engine::InputError(fmt::format("compare: N = {} tasks exceeds 2^32 - 1", spec.tasks()));
  }
  if (spec.procs() < 1) throw engine::InputError(fmt::format("compare: P = {} processors must be >= 1", spec.procs()));
  if (spec.procs() > std::int64_t{0xFFFFFFFF}) {
    throw engine::InputError(fmt::format("compare: P = {} processors exceeds 2^32 - 1", spec.procs()));
  }
  require_cost("h", machine.h);
  require_cost("tau", machine.tau);
  require_cost("phi", machine.phi);
  if (spec.strategies.empty() || spec.strategies.size() > size_of(kMaxStrategies)) {
    throw engine::InputError(fmt::format("compare: {} strategies (1 to {})", spec.strategies.size(), kMaxStrategies));
  }
  for (const Strategy& s : spec.strategies) require_parameter_in_range(s, spec.procs());
  if (workload.field.kind == Field::Kind::measured) {
    if (!workload.measured || static_cast<std::int64_t>(workload.measured->size()) != workload.tasks) {
      throw engine::InputError("compare: the measured times do not match N");
    }
  } else {
    dist::require_nonnegative(workload.law, "task times must be >= 0");
    if (!(dist::mean(workload.law) > 0.0)) {
      throw engine::InputError(fmt::format("compare: task law {} has mean <= 0", dist::to_spec(workload.law)));
    }
  }
  // About 2^16 units of work a block: N draws and N steps per strategy.
  const auto work = static_cast<std::int64_t>(std::min(
      0x1.0p62, static_cast<double>(spec.tasks()) * (1.0 + static_cast<double>(spec.strategies.size()))));
  plan.block_reps = engine::block_size_for(work);
  std::vector<double> upper;
  for (const Strategy& s : spec.strategies) {
    upper.push_back(ratio_upper_bound(s, spec.tasks(), machine).value_or(kInf));
  }
  const double tol = (2.0 * static_cast<double>(spec.tasks()) + 4.0) * kEps;
  engine::Simulated<CompareSample> result;
  // Measured times never call the law's sampler; a constant one costs nothing to build.
  const dist::LoadLaw sampled = workload.field.kind == Field::Kind::measured ? dist::LoadLaw{dist::Constant{0.0}} : workload.law;
  dist::visit_sampler(sampled, [&](const auto& sampler) {
    using Sampler = std::decay_t<decltype(sampler)>;
    const CompareKernel<Sampler> kernel{{sampler, &workload, CorrelatedTimes(workload)}, &spec, upper, tol};
    result.run = engine::run_replications(plan, kernel, result.sample);
  });
  return result;
}

}  // namespace lbmc::exp
