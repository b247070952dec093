// Kernels of the random assignment: multinomial loads by throwing or by
// conditional binomials, and the paper's iid Poisson loads.
#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

#include <fmt/format.h>

#include "lbmc/dist/discrete_samplers.hpp"
#include "lbmc/engine/errors.hpp"
#include "lbmc/engine/interrupt.hpp"
#include "lbmc/engine/per_thread.hpp"
#include "lbmc/engine/rng.hpp"
#include "lbmc/exp/assign.hpp"
#include "throwing.hpp"

namespace lbmc::exp {
namespace {

// Throwing N tasks into far more bins than tasks counts the bins hit: the
// N bin indices, sorted, whose longest run is the maximum load. Same draws,
// same maximum, in O(N) memory instead of O(P).
bool counts_bins_hit(std::int64_t tasks, std::int64_t bins) { return tasks <= bins / 8; }

// The throws a ThrowCounter counts: every throwing point but the sparse ones
// and those past its 32-bit counters.
bool counts_throws(AssignModel model, MultinomialMethod method, std::int64_t tasks, std::int64_t bins) {
  return model == AssignModel::multinomial && method == MultinomialMethod::throwing &&
         !counts_bins_hit(tasks, bins) && ThrowCounter::fits(tasks, bins);
}

// Binomial(trials, p) for parameters that change every call: BTRS through a
// sampler with no table (cheap to set up) when trials·min(p, 1−p) >= 10,
// otherwise the sampler's small inversion table, searched without the value
// guide that would cost more to build than the one draw it serves.
inline double binomial_once(engine::Generator& gen, std::int64_t trials, double p) {
  static constexpr dist::DiscreteOptions kOneDraw{0x1p-32, 1, false};
  return dist::BinomialSampler(dist::Binomial{trials, p}, kOneDraw)(gen);
}

struct AssignKernel {
  using Accumulator = AssignSample;
  AssignModel model;
  MultinomialMethod method;
  std::int64_t tasks;
  std::int64_t groups;  // bins: processors / group
  std::int64_t group;
  dist::PoissonSampler poisson;  // Poisson(N/P · L): the load of a group
  // The throws' counters and buckets, kept from block to block: with a
  // replication a block (N >= 2^16), a ThrowCounter built for each block
  // would be mapped and zeroed for every replication (N = P = 10^6: 6 MB,
  // about a sixth of the run).
  std::shared_ptr<engine::PerThread<ThrowCounter>> throw_counters;

  Accumulator make_accumulator() const { return {}; }

  bool sparse() const { return counts_bins_hit(tasks, groups); }

  // One replication of N or P = 1e18 steps never ends: its loops look for a
  // stop between spans of steps.
  void run(engine::Generator& gen, std::int64_t count, Accumulator& acc) const {
    if (throw_counters) {
      ThrowCounter& throws = throw_counters->get([this] { return ThrowCounter(tasks, groups); });
      for (std::int64_t r = 0; r < count; ++r) add(static_cast<double>(throws.max_count(gen)), acc);
      return;
    }
    std::vector<std::int64_t> loads(static_cast<std::size_t>(load_counters(model, method, tasks, groups)));
    for (std::int64_t r = 0; r < count; ++r) add(draw_max(gen, loads), acc);
  }

  void add(double max, Accumulator& acc) const {
    acc.max_load.add(max);
    acc.unit_time.add(std::ceil(max / static_cast<double>(group)));
  }

  // Every method but the throws a ThrowCounter counts.
  double draw_max(engine::Generator& gen, std::vector<std::int64_t>& loads) const {
    if (model == AssignModel::poisson) {
      double max = 0.0;
      for (engine::PolledSpans s(groups); s.next();) {
        for (std::int64_t i = s.first; i < s.last; ++i) max = std::max(max, poisson(gen));
      }
      return max;
    }
    if (method == MultinomialMethod::throwing && sparse()) {
      const auto bins = static_cast<std::uint64_t>(groups);
      for (auto& bin : loads) bin = static_cast<std::int64_t>(engine::uniform_below(gen, bins));
      std::sort(loads.begin(), loads.end());
      std::int64_t longest = 0;
      for (std::size_t i = 0, run_start = 0; i < loads.size(); ++i) {
        if (loads[i] != loads[run_start]) run_start = i;
        longest = std::max(longest, static_cast<std::int64_t>(i - run_start + 1));
      }
      return static_cast<double>(longest);
    }
    if (method == MultinomialMethod::throwing) {
      std::fill(loads.begin(), loads.end(), 0);
      const auto bins = static_cast<std::uint64_t>(groups);
      for (engine::PolledSpans s(tasks); s.next();) {
        for (std::int64_t t = s.first; t < s.last; ++t) {
          ++loads[static_cast<std::size_t>(engine::uniform_below(gen, bins))];
        }
      }
      return static_cast<double>(*std::max_element(loads.begin(), loads.end()));
    }
    std::int64_t remaining = tasks;
    double max = 0.0;
    for (std::int64_t i = 0; i + 1 < groups && remaining > 0; ++i) {
      if (i % engine::kInterruptPollSpan == 0) engine::throw_if_interrupted();
      const double c = binomial_once(gen, remaining, 1.0 / static_cast<double>(groups - i));
      max = std::max(max, c);
      remaining -= static_cast<std::int64_t>(c);
    }
    return std::max(max, static_cast<double>(remaining));
  }
};

}  // namespace

MultinomialMethod choose_multinomial_method(std::int64_t tasks, std::int64_t bins) {
  return tasks <= 64 * bins ? MultinomialMethod::throwing : MultinomialMethod::conditional;
}

double poisson_group_mean(std::int64_t tasks, std::int64_t processors, std::int64_t group) {
  return static_cast<double>(tasks) / static_cast<double>(processors) * static_cast<double>(group);
}

void require_within_laws(AssignModel model, std::int64_t tasks, std::int64_t processors, std::int64_t group) {
  if (model == AssignModel::multinomial && tasks > (std::int64_t{1} << 53)) {
    throw engine::InputError(
        fmt::format("--N {}: the multinomial model counts at most 2^53 tasks (its binomial draws' range)", tasks));
  }
  const double group_mean = poisson_group_mean(tasks, processors, group);
  if (model == AssignModel::poisson && group_mean > dist::kMaxIntegerMean) {
    throw engine::InputError(fmt::format(
        "--model poisson: N/P*L = {:g} at N = {}, P = {}, L = {} exceeds 1e10, the largest mean of poisson:LAMBDA",
        group_mean, tasks, processors, group));
  }
}

std::int64_t load_counters(AssignModel model, MultinomialMethod method, std::int64_t tasks, std::int64_t bins) {
  if (model != AssignModel::multinomial || method != MultinomialMethod::throwing) return 0;
  return counts_bins_hit(tasks, bins) ? tasks : bins;
}

double assign_scratch_bytes(AssignModel model, MultinomialMethod method, std::int64_t tasks, std::int64_t bins) {
  return counts_throws(model, method, tasks, bins) ? ThrowCounter::scratch_bytes(tasks, bins)
                                                  : 8.0 * static_cast<double>(load_counters(model, method, tasks, bins));
}

const char* to_string(AssignModel model) { return model == AssignModel::poisson ? "poisson" : "multinomial"; }
const char* to_string(MultinomialMethod method) {
  return method == MultinomialMethod::throwing ? "throwing" : "conditional-binomials";
}

engine::Simulated<AssignSample> simulate_assign(AssignModel model, std::int64_t tasks, std::int64_t processors, std::int64_t group,
                             engine::RunPlan plan, std::optional<MultinomialMethod> method) {
  const std::int64_t groups = processors / group;
  AssignKernel kernel{model, method.value_or(choose_multinomial_method(tasks, groups)), tasks, groups, group,
                      dist::PoissonSampler(dist::Poisson{poisson_group_mean(tasks, processors, group)}), nullptr};
  if (counts_throws(kernel.model, kernel.method, tasks, groups)) {
    kernel.throw_counters = std::make_shared<engine::PerThread<ThrowCounter>>(plan.threads);
  }
  const std::int64_t work = model == AssignModel::poisson ? groups
                            : kernel.method == MultinomialMethod::throwing ? tasks
                                                                            : groups;
  plan.block_reps = engine::block_size_for(work);
  engine::Simulated<AssignSample> result;
  result.run = engine::run_replications(plan, kernel, result.sample);
  return result;
}

}  // namespace lbmc::exp
