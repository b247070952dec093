// The replication driver.
//
// Replications are cut into blocks of `block_reps`; block b draws from
// block_generator(seed, b) into an accumulator of its own. Blocks run on
// OpenMP threads in waves of kWaveBlocks and are merged into the total in
// block order after each wave, so the total (and every byte printed from it)
// depends on the seed and the block layout only, never on --threads.
// With a target relative standard error (--target-rse X), waves are added
// until every mean the accumulator reports has se <= X·|mean| (DESIGN §5), or
// max_reps is reached; the decision is taken only at wave boundaries, which
// are themselves independent of the thread count.
//
// A kernel provides
//   using Accumulator = ...;              // with merge(const Accumulator&)
//   Accumulator make_accumulator() const;
//   void run(Generator&, std::int64_t count, Accumulator&) const;
// and the accumulator, found by argument-dependent lookup,
//   std::vector<MeanSummary> reported_means(const Accumulator&);
// every mean its rows report (the statistics named `mean` or `*.mean` and
// the ratios formed from them, such as an efficiency).
#pragma once

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <omp.h>

#include "lbmc/engine/interrupt.hpp"
#include "lbmc/engine/moments.hpp"
#include "lbmc/engine/progress.hpp"
#include "lbmc/engine/results.hpp"
#include "lbmc/engine/rng.hpp"

namespace lbmc::engine {

inline constexpr std::int64_t kWaveBlocks = 32;

struct RunPlan {
  std::uint64_t seed = 0;
  //! Replications to run; with target_rse, the minimum before checking it.
  std::int64_t reps = 0;
  std::optional<double> target_rse;
  //! Upper limit with target_rse.
  std::int64_t max_reps = 0;
  int threads = 1;
  //! Replications per block; set by the experiment from its work per
  //! replication (block_size_for), never from the thread count.
  std::int64_t block_reps = 1024;
  ProgressMode progress = ProgressMode::automatic;
  std::string label;

  //! Exactly `reps` replications under `seed` on `threads` threads, no
  //! progress line.
  static RunPlan fixed(std::uint64_t seed, std::int64_t reps, int threads) {
    RunPlan plan;
    plan.seed = seed;
    plan.reps = reps;
    plan.max_reps = reps;
    plan.threads = threads;
    plan.progress = ProgressMode::never;
    return plan;
  }
};

//! The summary of a moment accumulator's mean; {0, 0} (nothing to wait for)
//! when it holds no observation, as a statistic the run never reached.
inline MeanSummary summary_of(const Moments& m) noexcept {
  return m.count() == 0 ? MeanSummary{} : MeanSummary{m.mean(), m.mean_se()};
}
//! A bare moment accumulator reports its one mean.
inline std::vector<MeanSummary> reported_means(const Moments& m) { return {summary_of(m)}; }

//! --target-rse: true when every mean has se <= target·|mean| (a mean of 0
//! with se 0 counts as met; a mean of 0 with se > 0, or a NaN se, never does).
inline bool relative_se_met(const std::vector<MeanSummary>& means, double target) {
  return std::all_of(means.begin(), means.end(),
                     [target](const MeanSummary& m) { return m.se <= target * std::abs(m.mean); });
}

struct RunReport {
  std::int64_t reps = 0;
  std::int64_t blocks = 0;
  double wall_seconds = 0.0;
  //! With target_rse: whether the stopping rule held when the run ended.
  bool target_reached = false;
};

//! Replications per block so that one block draws about 2^16 variates:
//! depends on the work per replication only, never on the thread count.
constexpr std::int64_t block_size_for(std::int64_t variates_per_rep) {
  const std::int64_t per = std::max<std::int64_t>(1, variates_per_rep);
  return std::clamp<std::int64_t>((std::int64_t{1} << 16) / per, 1, 4096);
}

//! Runs the plan, merging every block into `total` in block order.
template <class Kernel>
RunReport run_replications(const RunPlan& plan, const Kernel& kernel, typename Kernel::Accumulator& total) {
  using Accumulator = typename Kernel::Accumulator;
  const auto target_met = [&plan](const Accumulator& acc) {
    return relative_se_met(reported_means(acc), *plan.target_rse);
  };
  const auto start = std::chrono::steady_clock::now();
  const bool open_ended = plan.target_rse.has_value();
  const std::int64_t limit = open_ended ? std::max(plan.max_reps, plan.reps) : plan.reps;
  Progress progress(plan.progress, plan.label);
  RunReport report;
  std::int64_t next_block = 0;
  while (report.reps < limit) {
    if (open_ended && report.reps >= plan.reps && target_met(total)) {
      report.target_reached = true;
      break;
    }
    // The blocks of this wave and their sizes (the last one may be short).
    std::vector<std::int64_t> sizes;
    std::int64_t planned = report.reps;
    while (static_cast<std::int64_t>(sizes.size()) < kWaveBlocks && planned < limit) {
      sizes.push_back(std::min(plan.block_reps, limit - planned));
      planned += sizes.back();
    }
    std::vector<Accumulator> partial;
    partial.reserve(sizes.size());
    for (std::size_t i = 0; i < sizes.size(); ++i) partial.push_back(kernel.make_accumulator());
    const auto wave = static_cast<std::int64_t>(sizes.size());
#pragma omp parallel for schedule(dynamic, 1) num_threads(plan.threads)
    for (std::int64_t i = 0; i < wave; ++i) {
      if (interrupt_requested()) continue;
      Generator gen = block_generator(plan.seed, static_cast<std::uint64_t>(next_block + i));
      kernel.run(gen, sizes[static_cast<std::size_t>(i)], partial[static_cast<std::size_t>(i)]);
    }
    if (interrupt_requested()) throw Interrupted();
    for (const Accumulator& block : partial) total.merge(block);
    next_block += wave;
    report.blocks = next_block;
    report.reps = planned;
    progress.update(report.reps, open_ended ? 0 : limit);
  }
  if (open_ended && !report.target_reached) report.target_reached = target_met(total);
  progress.finish();
  report.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return report;
}

}  // namespace lbmc::engine
