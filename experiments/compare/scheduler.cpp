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
#include <bit>
#include <limits>

#include "lbmc/exp/compare.hpp"

namespace lbmc::exp {

namespace {

std::size_t size_of(std::int64_t n) { return static_cast<std::size_t>(n); }

double largest(const std::vector<double>& values) {
  double most = 0.0;
  for (const double v : values) most = std::max(most, v);
  return most;
}

// The task indices in decreasing order of time, equal times by increasing
// index, in `order`, and the sort keys in that order in `keys` (the time
// back by time_of_key). The key is the complement of the time's bits: times
// >= 0 order as their bits do as unsigned integers (-0 is read as +0), so
// their complements order longest first. Below kRadixMin tasks, std::sort.
// Beyond, a least-significant-digit radix sort of (key, index) in passes of
// 8 bits (256 buckets: four passes of 65536 buckets were slower, their
// scatter missing the caches), stable, so equal keys keep the index order,
// and skipping a pass where every key has the same digit. Only the high 32
// bits are sorted on the whole array; runs of keys equal there (rare for
// times with a density: they agree to 20 bits of mantissa) are then
// ordered by the low 32 bits, by insertion when short and by the same
// passes when long, so that the sort stays exact and O(N) on any law.
constexpr std::size_t kRadixMin = std::size_t{1} << 14;
constexpr int kDigitBits = 8;
constexpr std::size_t kBuckets = std::size_t{1} << kDigitBits;
constexpr std::uint64_t kDigit = kBuckets - 1;
// Runs of equal high halves up to this length are sorted by insertion.
constexpr std::size_t kInsertionMax = 32;

struct SortBuffers {
  std::vector<std::uint64_t>& keys;
  std::vector<std::uint64_t>& scratch_keys;
  std::vector<std::uint32_t>& order;
  std::vector<std::uint32_t>& scratch_order;
  std::vector<std::size_t>& counts;
};

std::uint64_t key_of_time(double t) { return ~std::bit_cast<std::uint64_t>(t + 0.0); }
double time_of_key(std::uint64_t key) { return std::bit_cast<double>(~key); }

// Stable LSD radix passes over the digits [first_digit, end_digit) of the
// keys in [begin, end) of the buffers, their indices moving along.
void radix_passes(SortBuffers& b, std::size_t begin, std::size_t end, int first_digit, int end_digit) {
  const std::size_t n = end - begin;
  const auto passes = static_cast<std::size_t>(end_digit - first_digit);
  std::uint64_t* keys = b.keys.data() + begin;
  std::uint32_t* order = b.order.data() + begin;
  std::uint64_t* other_keys = b.scratch_keys.data() + begin;
  std::uint32_t* other_order = b.scratch_order.data() + begin;
  b.counts.assign(passes * kBuckets, 0);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t pass = 0; pass < passes; ++pass) {
      ++b.counts[pass * kBuckets + ((keys[i] >> (kDigitBits * (first_digit + static_cast<int>(pass)))) & kDigit)];
    }
  }
  bool swapped = false;
  for (std::size_t pass = 0; pass < passes; ++pass) {
    std::size_t* count = b.counts.data() + pass * kBuckets;
    const int shift = kDigitBits * (first_digit + static_cast<int>(pass));
    if (count[(keys[0] >> shift) & kDigit] == n) continue;  // one digit: nothing moves
    std::size_t offset = 0;
    for (std::size_t d = 0; d < kBuckets; ++d) {
      const std::size_t c = count[d];
      count[d] = offset;
      offset += c;
    }
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t to = count[(keys[i] >> shift) & kDigit]++;
      other_keys[to] = keys[i];
      other_order[to] = order[i];
    }
    std::swap(keys, other_keys);
    std::swap(order, other_order);
    swapped = !swapped;
  }
  if (swapped) {
    std::copy(keys, keys + n, other_keys);
    std::copy(order, order + n, other_order);
  }
}

// Sorts [begin, end), whose keys agree in their high 32 bits and whose
// indices ascend, by the low 32 bits, stably.
void sort_equal_high_run(SortBuffers& b, std::size_t begin, std::size_t end) {
  if (end - begin > kInsertionMax) {
    radix_passes(b, begin, end, 0, 4);
    return;
  }
  for (std::size_t i = begin + 1; i < end; ++i) {
    const std::uint64_t key = b.keys[i];
    const std::uint32_t index = b.order[i];
    std::size_t j = i;
    for (; j > begin && b.keys[j - 1] > key; --j) {
      b.keys[j] = b.keys[j - 1];
      b.order[j] = b.order[j - 1];
    }
    b.keys[j] = key;
    b.order[j] = index;
  }
}

void sort_longest_first(std::span<const double> times, SortBuffers b) {
  const std::size_t n = times.size();
  b.keys.resize(n);
  b.order.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    b.keys[i] = key_of_time(times[i]);
    b.order[i] = static_cast<std::uint32_t>(i);
  }
  if (n < kRadixMin) {
    std::sort(b.order.begin(), b.order.end(),
              [&](std::uint32_t x, std::uint32_t y) { return b.keys[x] < b.keys[y] || (b.keys[x] == b.keys[y] && x < y); });
    std::sort(b.keys.begin(), b.keys.end());
    return;
  }
  b.scratch_keys.resize(n);
  b.scratch_order.resize(n);
  radix_passes(b, 0, n, 4, 8);
  // Runs of equal high halves, each ordered by its low halves unless they
  // already are (equal or ascending keys, as for integer or constant times).
  for (std::size_t begin = 0; begin < n;) {
    const std::uint64_t high = b.keys[begin] >> 32;
    std::size_t end = begin + 1;
    bool sorted = true;
    for (; end < n && (b.keys[end] >> 32) == high; ++end) sorted = sorted && b.keys[end - 1] <= b.keys[end];
    if (!sorted) sort_equal_high_run(b, begin, end);
    begin = end;
  }
}

// Pairs of neighbours split when every processor holds one contiguous run:
// one per boundary between the `runs` non-empty runs.
std::int64_t contiguous_splits(std::int64_t runs) { return runs > 0 ? runs - 1 : 0; }

}  // namespace

std::uint64_t uniform_below(engine::Generator& gen, std::uint64_t bound) {
  // Lemire (2019), "Fast random integer generation in an interval": the high
  // word of x·bound is uniform on [0, bound) once the low words below
  // 2^64 mod bound, which over-represent some values, are rejected.
  __extension__ using Wide = unsigned __int128;
  Wide product = Wide{gen()} * bound;
  auto low = static_cast<std::uint64_t>(product);
  if (low < bound) {
    const std::uint64_t rejected = (0 - bound) % bound;  // 2^64 mod bound
    while (low < rejected) {
      product = Wide{gen()} * bound;
      low = static_cast<std::uint64_t>(product);
    }
  }
  return static_cast<std::uint64_t>(product >> 64);
}

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
  Outcome outcome = run_once(s, times, machine, gen);
  // Only the queue schedules pay h; balanced-block reports its own movement.
  const bool queued = s.kind == StrategyKind::self || s.kind == StrategyKind::chunk || s.kind == StrategyKind::guided;
  if (queued && machine.h != 0.0) {
    outcome.overhead = outcome.makespan - run_once(s, times, machine.without_costs(), gen).makespan;
  }
  return outcome;
}

Outcome Scheduler::run_once(const Strategy& s, std::span<const double> times, const Machine& machine,
                            engine::Generator& gen) {
  const std::int64_t procs = machine.procs;
  switch (s.kind) {
    case StrategyKind::block: return block(times, procs);
    case StrategyKind::cyclic: return cyclic(times, procs);
    case StrategyKind::random: return random(times, procs, gen);
    case StrategyKind::choice: return choice(times, procs, s.d, gen);
    case StrategyKind::self: return self(times, procs, machine.h);
    case StrategyKind::lpt: return lpt(times, procs);
    case StrategyKind::chunk: return chunked(times, procs, s.k, machine.h);
    case StrategyKind::guided: return chunked(times, procs, 0, machine.h);
    case StrategyKind::balanced_block: return balanced_block(times, machine);
  }
  return {};
}

Outcome Scheduler::block(std::span<const double> times, std::int64_t procs) {
  // Chunks of c = ⌈N/P⌉ contiguous tasks; the last processors may get fewer
  // or none.
  const std::size_t n = times.size();
  const std::size_t chunk = (n + size_of(procs) - 1) / size_of(procs);
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

Outcome Scheduler::cyclic(std::span<const double> times, std::int64_t procs) {
  loads_.assign(size_of(procs), 0.0);
  std::size_t p = 0;
  for (const double t : times) {
    loads_[p] += t;
    if (++p == loads_.size()) p = 0;
  }
  const auto pairs = static_cast<std::int64_t>(times.size()) - 1;
  return {largest(loads_), 0.0, procs > 1 ? pairs : 0};
}

Outcome Scheduler::random(std::span<const double> times, std::int64_t procs, engine::Generator& gen) {
  loads_.assign(size_of(procs), 0.0);
  const auto bound = static_cast<std::uint64_t>(procs);
  std::int64_t split = 0;
  std::uint64_t previous = 0;
  for (std::size_t i = 0; i < times.size(); ++i) {
    const std::uint64_t p = uniform_below(gen, bound);
    split += static_cast<std::int64_t>(i > 0 && p != previous);
    previous = p;
    loads_[p] += times[i];
  }
  return {largest(loads_), 0.0, split};
}

Outcome Scheduler::choice(std::span<const double> times, std::int64_t procs, std::int64_t d, engine::Generator& gen) {
  loads_.assign(size_of(procs), 0.0);
  counts_.assign(size_of(procs), 0);
  const std::int64_t split = d == 2 ? place_by_choice<2>(times, d, gen) : place_by_choice<0>(times, d, gen);
  return {largest(loads_), 0.0, split};
}

template <int kChoices>
std::int64_t Scheduler::place_by_choice(std::span<const double> times, std::int64_t d, engine::Generator& gen) {
  // kChoices: d known when compiled (the common choice:2, whose two draws
  // come from one output at once), or 0 for any d.
  const auto bound = static_cast<std::uint32_t>(loads_.size());
  HalfWordDraws draws(gen);
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

Outcome Scheduler::self(std::span<const double> times, std::int64_t procs, double h) {
  // List scheduling in task order: the processor free first takes task k
  // (1-based), which cannot start before the dispatcher reaches it at k·h.
  // Each processor's finish times only grow, so the makespan is the latest
  // left. Ties between processors free at the same time do not change any
  // finish time.
  first_free_.reset(procs);
  std::int64_t moved = 0;  // tasks after which the next goes elsewhere (the last counted, then taken back)
  bool last_moved = false;
  if (h == 0.0) {
    for (const double t : times) {
      last_moved = first_free_.advance_first<Ties::keep_first>(first_free_.first_time() + t);
      moved += static_cast<std::int64_t>(last_moved);
    }
  } else {
    double k = 0.0;
    for (const double t : times) {
      k += 1.0;
      last_moved = first_free_.advance_first<Ties::keep_first>(std::max(first_free_.first_time(), k * h) + t);
      moved += static_cast<std::int64_t>(last_moved);
    }
  }
  return {first_free_.latest(), 0.0, moved - static_cast<std::int64_t>(last_moved)};
}

Outcome Scheduler::lpt(std::span<const double> times, std::int64_t procs) {
  // Graham (1969): the longest task first (equal times in task order), each
  // to the least-loaded processor (equal loads: the lowest id).
  sort_longest_first(times, {keys_, scratch_keys_, order_, scratch_order_, counts_radix_});
  first_free_.reset(procs);
  // Each task's processor in the sorted order first (written in sequence),
  // then scattered to task order in a loop of its own: scattered inside the
  // placement loop, the stores' cache misses held up the tree's chain.
  std::vector<std::uint32_t>& placed = scratch_order_;
  placed.resize(times.size());
  for (std::size_t j = 0; j < times.size(); ++j) {
    placed[j] = first_free_.first();
    first_free_.advance_first<Ties::lowest_id>(first_free_.first_time() + time_of_key(keys_[j]));
  }
  owner_.resize(times.size());
  for (std::size_t j = 0; j < times.size(); ++j) owner_[order_[j]] = placed[j];
  std::int64_t split = 0;
  for (std::size_t i = 1; i < owner_.size(); ++i) split += static_cast<std::int64_t>(owner_[i] != owner_[i - 1]);
  return {first_free_.latest(), 0.0, split};
}

Outcome Scheduler::chunked(std::span<const double> times, std::int64_t procs, std::int64_t fixed, double h) {
  // List scheduling of chunks in queue order: chunk j (1-based) holds the
  // next `fixed` tasks (chunk:K; fewer for the last) or ⌈R/P⌉ of the R tasks
  // left (guided, Polychronopoulos & Kuck 1987); it goes to the processor
  // free first and starts at max(its free time, j·h). The
  // chunk's time is the sum of its tasks, added to its start once; with one
  // task a chunk this is self's schedule, value for value.
  first_free_.reset(procs);
  const std::size_t n = times.size();
  const std::size_t p = size_of(procs);
  double j = 0.0;
  std::int64_t moved = 0;  // chunks after which the next goes elsewhere (the last counted, then taken back)
  bool last_moved = false;
  for (std::size_t first = 0; first < n;) {
    const std::size_t left = n - first;
    const std::size_t size = fixed > 0 ? std::min(left, size_of(fixed)) : (left + p - 1) / p;
    double work = 0.0;
    for (std::size_t i = first; i < first + size; ++i) work += times[i];
    first += size;
    j += 1.0;
    last_moved = first_free_.advance_first<Ties::keep_first>(std::max(first_free_.first_time(), j * h) + work);
    moved += static_cast<std::int64_t>(last_moved);
  }
  return {first_free_.latest(), 0.0, moved - static_cast<std::int64_t>(last_moved)};
}

Outcome Scheduler::balanced_block(std::span<const double> times, const Machine& machine) {
  const std::size_t n = times.size();
  const std::int64_t procs = machine.procs;
  const auto p_count = size_of(procs);
  double total = 0.0;
  for (const double t : times) total += t;
  // With no work there is nothing to balance: the tasks stay in the block
  // layout and nothing moves.
  if (total == 0.0) return block(times, procs);

  // starts_[p]: the first task of processor p (starts_[P] = N). Task i goes
  // to min(P − 1, ⌊P·(S_i + t_i/2)/W⌋), which never decreases with i.
  starts_.assign(p_count + 1, static_cast<std::int64_t>(n));
  starts_[0] = 0;
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
      while (current < owner) starts_[++current] = static_cast<std::int64_t>(i);
    }
    load += times[i];
    before += times[i];
  }
  most = std::max(most, load);
  std::int64_t runs = 0;
  for (std::size_t p = 0; p < p_count; ++p) runs += static_cast<std::int64_t>(starts_[p + 1] > starts_[p]);

  // Approach 1 from the block layout, processor j holding [j·c, (j+1)·c) ∩
  // [0, N), c = ⌈N/P⌉. In the left pipeline every packet moves one link a
  // stage, so at stage s (1-based) processor j − s + 1 forwards the tasks of
  // source j bound s or more links left: those of j's block before the
  // first task of processor j − s + 1. The right pipeline likewise sends the
  // tasks of j's block from the first task of processor j + s on. A stage
  // costs τ + φ·(largest message); a pipeline runs while any message is
  // non-empty (Mehrotra's Max_L_Shift and Max_R_Shift stages).
  const auto count = static_cast<std::int64_t>(n);
  const std::int64_t chunk = (count + procs - 1) / procs;
  const auto block_start = [&](std::int64_t j) { return std::min(count, j * chunk); };
  double moving = 0.0;
  for (const int dir : {-1, +1}) {
    for (std::int64_t s = 1;; ++s) {
      std::int64_t largest_message = 0;
      for (std::int64_t j = 0; j < procs; ++j) {
        const std::int64_t lo = block_start(j);
        const std::int64_t hi = block_start(j + 1);
        std::int64_t sent = 0;
        if (dir < 0 && j - s + 1 >= 1) {
          sent = std::clamp(starts_[size_of(j - s + 1)], lo, hi) - lo;
        } else if (dir > 0 && j + s < procs) {
          sent = hi - std::clamp(starts_[size_of(j + s)], lo, hi);
        }
        largest_message = std::max(largest_message, sent);
      }
      if (largest_message == 0) break;
      moving += machine.tau + machine.phi * static_cast<double>(largest_message);
    }
  }
  return {moving + most, moving, contiguous_splits(runs)};
}

namespace {

Outcome outcome_of(const Strategy& s, std::span<const double> times, const Machine& machine, engine::Generator& gen) {
  return Scheduler().run(s, times, machine, gen);
}

double makespan_of(const Strategy& s, std::span<const double> times, std::int64_t procs, double h) {
  engine::Generator unused;
  return outcome_of(s, times, {procs, h, 0.0, 0.0}, unused).makespan;
}

}  // namespace

double makespan_block(std::span<const double> times, std::int64_t procs) {
  return makespan_of({StrategyKind::block}, times, procs, 0.0);
}
double makespan_cyclic(std::span<const double> times, std::int64_t procs) {
  return makespan_of({StrategyKind::cyclic}, times, procs, 0.0);
}
double makespan_random(std::span<const double> times, std::int64_t procs, engine::Generator& gen) {
  return outcome_of({StrategyKind::random}, times, {procs}, gen).makespan;
}
double makespan_choice(std::span<const double> times, std::int64_t procs, std::int64_t d, engine::Generator& gen) {
  return outcome_of({StrategyKind::choice, d}, times, {procs}, gen).makespan;
}
double makespan_self(std::span<const double> times, std::int64_t procs, double h) {
  return makespan_of({StrategyKind::self}, times, procs, h);
}
double makespan_lpt(std::span<const double> times, std::int64_t procs) {
  return makespan_of({StrategyKind::lpt}, times, procs, 0.0);
}
double makespan_chunk(std::span<const double> times, std::int64_t procs, std::int64_t k, double h) {
  return makespan_of({StrategyKind::chunk, 0, k}, times, procs, h);
}
double makespan_guided(std::span<const double> times, std::int64_t procs, double h) {
  return makespan_of({StrategyKind::guided}, times, procs, h);
}
Outcome schedule_outcome(const Strategy& s, std::span<const double> times, const Machine& machine,
                         engine::Generator& gen) {
  return outcome_of(s, times, machine, gen);
}

}  // namespace lbmc::exp
