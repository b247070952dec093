// The schedules of `lbmc compare`, executed on one replication's times
// (compare.hpp has the model, scheduler.cpp the schedules): one Scheduler
// per block of replications holds every buffer the schedules reuse, and
// runs the strategy's schedule that the table names (strategy_table.hpp).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "lbmc/engine/rng.hpp"
#include "lbmc/engine/scratch_vector.hpp"
#include "first_free.hpp"
#include "machine.hpp"
#include "strategy.hpp"

namespace lbmc::exp {

using engine::ScratchVector;

//! LB = max(W/P, max_i t_i): no schedule of these times on P processors
//! finishes earlier (some processor does at least the mean work, and the
//! longest task runs somewhere). 0 for no tasks.
double makespan_lower_bound(std::span<const double> times, std::int64_t procs);

//! What one strategy's schedule gave on one replication's times.
struct Outcome {
  double makespan = 0.0;         //!< C
  double overhead = 0.0;         //!< C − C₀, C₀ the makespan with free dispatch and movement
  std::int64_t split_pairs = 0;  //!< neighbouring pairs (i, i + 1) on different processors
};

//! What one schedule runs on: a replication's times (each >= 0), the
//! machine, the strategy's parameter and the replication's generator
//! (random and choice draw from it).
struct Job {
  std::span<const double> times;
  Machine machine;
  std::int64_t parameter = 0;
  engine::Generator* gen = nullptr;
};

//! Executes strategies on a replication's times, reusing its buffers
//! (per processor: loads, counts, the winner tree of first_free.hpp, the
//! balanced layout; per task: lpt's processor of each task, and the order
//! of the tasks by time, sorted as words of a key and an index).
class Scheduler {
 public:
  //! The schedule of `s` on `times` (each >= 0) on `machine`; draws from
  //! `gen` for random and choice. With a dispatch cost h > 0 the queue
  //! schedules run a second time without it, for C₀.
  Outcome run(const Strategy& s, std::span<const double> times, const Machine& machine, engine::Generator& gen);

  // The schedules, one a strategy: the table (strategy_table.hpp) names them.
  Outcome block(const Job& job);
  Outcome cyclic(const Job& job);
  Outcome random(const Job& job);
  Outcome choice(const Job& job);
  Outcome self(const Job& job);
  Outcome lpt(const Job& job);
  Outcome chunk(const Job& job);
  Outcome guided(const Job& job);
  Outcome balanced_block(const Job& job);

 private:
  // choice's placements into loads_ and counts_; returns the split pairs.
  template <int kChoices>
  std::int64_t place_by_choice(std::span<const double> times, std::int64_t d, engine::Generator& gen);
  // chunk:K (fixed > 0) or guided (fixed = 0).
  Outcome chunked(std::span<const double> times, std::int64_t procs, std::int64_t fixed, double h);

  std::vector<double> loads_;
  std::vector<std::uint32_t> counts_;                  // choice: tasks per processor (N < 2^32)
  FirstFree first_free_;                               // self, lpt, chunk:K, guided
  ScratchVector<std::uint32_t> owner_;                 // lpt: each task's processor
  ScratchVector<std::uint64_t> words_, scratch_words_; // lpt's sort: a time's key with its task's index
  std::vector<std::uint32_t> counts_radix_;
  std::vector<std::int64_t> starts_;                   // balanced-block: first task of each processor
};

}  // namespace lbmc::exp
