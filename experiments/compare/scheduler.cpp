// The schedules of `lbmc compare`, executed on one replication's times
// (compare.hpp has the model). Each keeps only what its outcome needs:
// per-processor loads (block, cyclic, random, choice), task counts
// (choice), a winner tree of processor finish times (self, lpt, chunk:K,
// guided; first_free.hpp), whose first processor is given its new time in
// log2 P compare-and-selects per task or chunk, or the first task of each
// balanced block. Buffers live in one Scheduler per
// block of replications: no allocation per replication.
//
// Neighbouring pairs split: block and balanced-block split one pair per
// boundary between non-empty blocks; cyclic every pair when P > 1; random
// and choice count consecutive tasks sent to different processors; the
// queue schedules keep a chunk's tasks together, and the next chunk goes to
// the same processor exactly when that processor, with its new finish time,
// is again the first free (ties keep it first); lpt records each task's
// processor (ties to the lowest id) and counts afterwards.
#include <algorithm>

#include "longest_first.hpp"
#include "scheduler.hpp"
#include "strategy_table.hpp"

namespace lbmc::exp {

namespace {

std::size_t size_of(std::int64_t n) { return static_cast<std::size_t>(n); }

double largest(const std::vector<double>& values) {
  double most = 0.0;
  for (const double v : values) most = std::max(most, v);
  return most;
}

// The first free processor of a queue schedule as it takes one task or
// chunk after another, counting the turns after which the next goes
// elsewhere (ties keep the first processor first).
class QueueLeader {
 public:
  explicit QueueLeader(FirstFree& tree) : tree_(tree), first_(tree.first()) {}

  [[nodiscard]] double free_at() const { return first_.time(); }
  //! The first processor finishes its new work at `time`.
  void finish_at(double time) {
    const FirstFree::First next = tree_.advance<Ties::keep_first>(first_, time);
    last_moved_ = next.id != first_.id;
    moved_ += static_cast<std::int64_t>(last_moved_);
    first_ = next;
  }
  //! Neighbouring pairs split: moves between turns, the last one's not counted.
  [[nodiscard]] std::int64_t split_pairs() const { return moved_ - static_cast<std::int64_t>(last_moved_); }

 private:
  FirstFree& tree_;
  FirstFree::First first_;
  std::int64_t moved_ = 0;
  bool last_moved_ = false;
};

// The pairs of neighbouring tasks with different owners, counted in 32 bits
// a stretch (the loop then vectorises).
std::int64_t neighbours_apart(std::span<const std::uint32_t> owner) {
  constexpr std::size_t kStretch = std::size_t{1} << 31;
  std::int64_t apart = 0;
  for (std::size_t first = 1; first < owner.size(); first += kStretch) {
    const std::size_t last = std::min(owner.size(), first + kStretch);
    std::uint32_t stretch = 0;
    for (std::size_t i = first; i < last; ++i) stretch += static_cast<std::uint32_t>(owner[i] != owner[i - 1]);
    apart += stretch;
  }
  return apart;
}

// Pairs of neighbours split when every processor holds one contiguous run:
// one per boundary between the `runs` non-empty runs.
std::int64_t contiguous_splits(std::int64_t runs) { return runs > 0 ? runs - 1 : 0; }

// balanced-block's layout of `times` (total work `total` > 0) on `procs`
// processors: starts[p] the first task of processor p (starts[P] = N), task
// i going to min(P − 1, ⌊P·(S_i + t_i/2)/W⌋), which never decreases with i.
// Returns the largest processor's work.
double balanced_layout(std::span<const double> times, std::int64_t procs, double total,
                       std::vector<std::int64_t>& starts) {
  const std::size_t n = times.size();
  const auto p_count = size_of(procs);
  starts.assign(p_count + 1, static_cast<std::int64_t>(n));
  starts[0] = 0;
  const double scale = static_cast<double>(procs) / total;
  double before = 0.0;
  double load = 0.0;
  double most = 0.0;
  std::size_t current = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double middle = before + 0.5 * times[i];
    const auto owner = std::min(p_count - 1, static_cast<std::size_t>(scale * middle));
    if (owner != current) {
      most = std::max(most, load);
      load = 0.0;
      while (current < owner) starts[++current] = static_cast<std::int64_t>(i);
    }
    load += times[i];
    before += times[i];
  }
  return std::max(most, load);
}

// The time of Mehrotra's Approach 1 from the block layout, processor j
// holding [j·c, (j+1)·c) ∩ [0, N), c = ⌈N/P⌉, to the layout of `starts`
// (balanced_layout). In the left pipeline every packet moves one link a
// stage, so at stage s (1-based) processor j − s + 1 forwards the tasks of
// source j bound s or more links left: those of j's block before the first
// task of processor j − s + 1. The right pipeline likewise sends the tasks
// of j's block from the first task of processor j + s on. A stage costs
// τ + φ·(largest message); a pipeline runs while any message is non-empty
// (Mehrotra's Max_L_Shift and Max_R_Shift stages).
double approach1_movement(const std::vector<std::int64_t>& starts, std::int64_t tasks, const Machine& machine) {
  const std::int64_t procs = machine.procs;
  const std::int64_t chunk = (tasks + procs - 1) / procs;
  const auto block_start = [&](std::int64_t j) { return std::min(tasks, j * chunk); };
  double moving = 0.0;
  for (const int dir : {-1, +1}) {
    for (std::int64_t s = 1;; ++s) {
      std::int64_t largest_message = 0;
      for (std::int64_t j = 0; j < procs; ++j) {
        const std::int64_t lo = block_start(j);
        const std::int64_t hi = block_start(j + 1);
        std::int64_t sent = 0;
        if (dir < 0 && j - s + 1 >= 1) {
          sent = std::clamp(starts[size_of(j - s + 1)], lo, hi) - lo;
        } else if (dir > 0 && j + s < procs) {
          sent = hi - std::clamp(starts[size_of(j + s)], lo, hi);
        }
        largest_message = std::max(largest_message, sent);
      }
      if (largest_message == 0) break;
      moving += machine.tau + machine.phi * static_cast<double>(largest_message);
    }
  }
  return moving;
}

}  // namespace

double makespan_lower_bound(std::span<const double> times, std::int64_t procs) {
  double total = 0.0;
  double longest = 0.0;
  for (const double t : times) {
    total += t;
    longest = std::max(longest, t);
  }
  return std::max(total / static_cast<double>(procs), longest);
}

Outcome Scheduler::run(const Strategy& s, std::span<const double> times, const Machine& machine,
                       engine::Generator& gen) {
  const StrategyEntry& entry = entry_of(s);
  Outcome outcome = (this->*entry.schedule)({times, machine, s.parameter, &gen});
  // Only the queue schedules pay h; balanced-block reports its own movement.
  if (entry.dispatch == Dispatch::queue && machine.h != 0.0) {
    const Job free_dispatch{times, machine.without_costs(), s.parameter, &gen};
    outcome.overhead = outcome.makespan - (this->*entry.schedule)(free_dispatch).makespan;
  }
  return outcome;
}

Outcome Scheduler::block(const Job& job) {
  // Chunks of c = ⌈N/P⌉ contiguous tasks; the last processors may get fewer
  // or none.
  const std::span<const double> times = job.times;
  const std::size_t n = times.size();
  const std::size_t chunk = (n + size_of(job.machine.procs) - 1) / size_of(job.machine.procs);
  double most = 0.0;
  std::int64_t runs = 0;
  for (std::size_t first = 0; first < n; first += chunk) {
    const std::size_t last = std::min(n, first + chunk);
    double load = 0.0;
    for (std::size_t i = first; i < last; ++i) load += times[i];
    most = std::max(most, load);
    ++runs;
  }
  return {most, 0.0, contiguous_splits(runs)};
}

Outcome Scheduler::cyclic(const Job& job) {
  const std::int64_t procs = job.machine.procs;
  loads_.assign(size_of(procs), 0.0);
  std::size_t p = 0;
  for (const double t : job.times) {
    loads_[p] += t;
    if (++p == loads_.size()) p = 0;
  }
  const auto pairs = static_cast<std::int64_t>(job.times.size()) - 1;
  return {largest(loads_), 0.0, procs > 1 ? pairs : 0};
}

Outcome Scheduler::random(const Job& job) {
  const std::span<const double> times = job.times;
  loads_.assign(size_of(job.machine.procs), 0.0);
  const auto bound = static_cast<std::uint64_t>(job.machine.procs);
  std::int64_t split = 0;
  std::uint64_t previous = 0;
  for (std::size_t i = 0; i < times.size(); ++i) {
    const std::uint64_t p = engine::uniform_below(*job.gen, bound);
    split += static_cast<std::int64_t>(i > 0 && p != previous);
    previous = p;
    loads_[p] += times[i];
  }
  return {largest(loads_), 0.0, split};
}

Outcome Scheduler::choice(const Job& job) {
  loads_.assign(size_of(job.machine.procs), 0.0);
  counts_.assign(size_of(job.machine.procs), 0);
  const std::int64_t d = job.parameter;
  const std::int64_t split =
      d == 2 ? place_by_choice<2>(job.times, d, *job.gen) : place_by_choice<0>(job.times, d, *job.gen);
  return {largest(loads_), 0.0, split};
}

template <int kChoices>
std::int64_t Scheduler::place_by_choice(std::span<const double> times, std::int64_t d, engine::Generator& gen) {
  // kChoices: d known when compiled (the common choice:2, whose two draws
  // come from one output at once), or 0 for any d.
  const auto bound = static_cast<std::uint32_t>(loads_.size());
  engine::HalfWordDraws draws(gen);
  std::uint32_t* counts = counts_.data();
  double* loads = loads_.data();
  // The fewest tasks among d uniform draws with replacement; a later draw
  // wins only with strictly fewer, so ties go to the first drawn. A mask,
  // not a branch: which draw wins is a coin flip the branch predictor
  // cannot learn (and the compiler may turn ?: into a branch).
  std::uint32_t best = 0;
  std::uint32_t fewest = 0;
  const auto consider = [&](std::uint32_t other) {
    const std::uint32_t count = counts[other];
    const std::uint32_t take = 0u - static_cast<std::uint32_t>(count < fewest);
    best ^= (best ^ other) & take;
    fewest ^= (fewest ^ count) & take;
  };
  // The first task is counted as a split and taken back at the end.
  std::int64_t split = -static_cast<std::int64_t>(!times.empty());
  std::uint32_t previous = bound;
  for (const double t : times) {
    if constexpr (kChoices == 2) {
      const auto [first, second] = draws.pair_below(bound);
      best = first;
      fewest = counts[best];
      consider(second);
    } else {
      best = draws.below(bound);
      fewest = counts[best];
      for (std::int64_t k = 1; k < d; ++k) consider(draws.below(bound));
    }
    split += static_cast<std::int64_t>(best != previous);
    previous = best;
    counts[best] = fewest + 1;
    loads[best] += t;
  }
  return split;
}

Outcome Scheduler::self(const Job& job) {
  // List scheduling in task order: the processor free first takes task k
  // (1-based), which cannot start before the dispatcher reaches it at k·h.
  // Each processor's finish times only grow, so the makespan is the latest
  // left. Ties between processors free at the same time do not change any
  // finish time.
  const std::span<const double> times = job.times;
  const double h = job.machine.h;
  first_free_.reset(job.machine.procs);
  QueueLeader leader(first_free_);
  if (h == 0.0) {
    for (const double t : times) leader.finish_at(leader.free_at() + t);
  } else {
    double k = 0.0;
    for (const double t : times) {
      k += 1.0;
      leader.finish_at(std::max(leader.free_at(), k * h) + t);
    }
  }
  return {first_free_.latest(), 0.0, leader.split_pairs()};
}

Outcome Scheduler::lpt(const Job& job) {
  // Graham (1969): the longest task first (equal times in task order), each
  // to the least-loaded processor (equal loads: the lowest id).
  const std::span<const double> times = job.times;
  const std::size_t n = times.size();
  const std::uint64_t index_mask = n == 0 ? 0 : sort_longest_first(times, words_, scratch_words_, counts_radix_);
  first_free_.reset(job.machine.procs);
  // Each task's time is read by its index, and its processor goes straight
  // to its place in task order, a store scattered over N places. Both cache
  // lines are fetched kAhead tasks before: a store that missed the caches
  // would hold the tree's stores behind it in the store queue and stall the
  // placements (the owners scattered in a loop of their own took 1.6 ns a
  // task more at N = 1e6; without the times fetched ahead, lpt took 4x as
  // long).
  constexpr std::size_t kAhead = 64;
  owner_.resize(n);
  std::uint32_t* owner = owner_.data();
  const std::uint64_t* words = words_.data();
  FirstFree::First leader = first_free_.first();
  for (std::size_t j = 0; j < n; ++j) {
    const std::uint64_t ahead = words[j + kAhead < n ? j + kAhead : j] & index_mask;
    __builtin_prefetch(owner + ahead, 1);
    __builtin_prefetch(times.data() + ahead);
    const std::uint64_t task = words[j] & index_mask;
    owner[task] = leader.id;
    leader = first_free_.advance<Ties::lowest_id>(leader, leader.time() + times[task]);
  }
  return {first_free_.latest(), 0.0, neighbours_apart(owner_)};
}

Outcome Scheduler::chunk(const Job& job) { return chunked(job.times, job.machine.procs, job.parameter, job.machine.h); }

Outcome Scheduler::guided(const Job& job) { return chunked(job.times, job.machine.procs, 0, job.machine.h); }

Outcome Scheduler::chunked(std::span<const double> times, std::int64_t procs, std::int64_t fixed, double h) {
  // List scheduling of chunks in queue order: chunk j (1-based) holds the
  // next `fixed` tasks (chunk:K; fewer for the last) or ⌈R/P⌉ of the R tasks
  // left (guided, Polychronopoulos & Kuck 1987); it goes to the processor
  // free first and starts at max(its free time, j·h). The
  // chunk's time is the sum of its tasks, added to its start once; with one
  // task a chunk this is self's schedule, value for value.
  first_free_.reset(procs);
  QueueLeader leader(first_free_);
  const std::size_t n = times.size();
  const std::size_t p = size_of(procs);
  double j = 0.0;
  for (std::size_t first = 0; first < n;) {
    const std::size_t left = n - first;
    const std::size_t size = fixed > 0 ? std::min(left, size_of(fixed)) : (left + p - 1) / p;
    double work = 0.0;
    for (std::size_t i = first; i < first + size; ++i) work += times[i];
    first += size;
    j += 1.0;
    leader.finish_at(std::max(leader.free_at(), j * h) + work);
  }
  return {first_free_.latest(), 0.0, leader.split_pairs()};
}

Outcome Scheduler::balanced_block(const Job& job) {
  double total = 0.0;
  for (const double t : job.times) total += t;
  // With no work there is nothing to balance: the tasks stay in the block
  // layout and nothing moves.
  if (total == 0.0) return block(job);
  const double most = balanced_layout(job.times, job.machine.procs, total, starts_);
  std::int64_t runs = 0;
  for (std::size_t p = 0; p + 1 < starts_.size(); ++p) runs += static_cast<std::int64_t>(starts_[p + 1] > starts_[p]);
  const double moving = approach1_movement(starts_, static_cast<std::int64_t>(job.times.size()), job.machine);
  return {moving + most, moving, contiguous_splits(runs)};
}

}  // namespace lbmc::exp
