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

// lpt's order: the tasks in decreasing order of time, equal times by
// increasing index. A time's key is the complement of its bits: times >= 0
// order as their bits do as unsigned integers (-0 is read as +0), so their
// complements order longest first. The keys are spread: their distance
// above the least key, shifted left past the bits every distance leaves
// zero, orders as they do and brings more of their varying bits to the top
// (7 more for exponential times at N = 1e6). Each task is then one 64-bit
// word, its spread key with the low index_bits bits (enough for N − 1)
// replaced by its index, so words order by (the key's high bits, index)
// and a radix pass moves 8 bytes a task (a key and an index apart were 12,
// and took 1.7x as long). The words are sorted
// 1. below kRadixMin tasks by std::sort; beyond, by a stable least-
//    significant-digit radix sort of their top 30 bits (all key) in three
//    passes of 10 bits (lpt 1.04x faster than with four of 8 on 32; 11-bit
//    digits were slower, their scatter missing the caches) that skips a
//    pass where every word has the same digit, each run of words equal
//    there (rare for laws with a density) then ordered by the other 34
//    bits, by insertion when short and by the same passes when long;
// 2. where the keys' low index_bits bits are not all alike (integer and
//    constant times leave them alike), within runs of words equal in their
//    key bits, by the whole key, read back from the times.
// The sort is exact, and linear on laws with a density.
constexpr std::size_t kRadixMin = std::size_t{1} << 14;
constexpr int kDigitBits = 10;
constexpr std::size_t kBuckets = std::size_t{1} << kDigitBits;
constexpr std::uint64_t kDigit = kBuckets - 1;
// The first sort orders the words' top kHighBits (all key: index_bits <= 32).
constexpr int kHighBits = 30;
constexpr int kLowBits = 64 - kHighBits;
// Runs of equal high bits up to this length are sorted by insertion.
constexpr std::size_t kInsertionMax = 32;

std::uint64_t key_of_time(double t) { return ~std::bit_cast<std::uint64_t>(t + 0.0); }

// The counts of each pass's digits, pass by pass, in counts (kPasses
// tables of kBuckets, twice). Even and odd words are counted in tables of
// their own, added up after: in one table, words that share a digit (the
// exponent's, for most laws) chain their increments of one counter through
// memory, 1.6x as long.
template <int kLowBit, std::size_t kPasses>
void count_digits(const std::uint64_t* words, std::size_t n, std::uint32_t* counts) {
  constexpr std::size_t kTable = kPasses * kBuckets;
  std::fill(counts, counts + 2 * kTable, std::uint32_t{0});
  std::uint32_t* odd = counts + kTable;
  const auto tally = [](std::uint32_t* table, std::uint64_t word) {
    for (std::size_t pass = 0; pass < kPasses; ++pass) {
      ++table[pass * kBuckets + ((word >> (kLowBit + kDigitBits * static_cast<int>(pass))) & kDigit)];
    }
  };
  std::size_t i = 0;
  for (; i + 1 < n; i += 2) {
    tally(counts, words[i]);
    tally(odd, words[i + 1]);
  }
  if (i < n) tally(counts, words[i]);
  for (std::size_t k = 0; k < kTable; ++k) counts[k] += odd[k];
}

// Stable LSD radix passes over kPasses digits of the n (< 2^32) words from
// bit kLowBit on, through scratch (n words).
template <int kLowBit, std::size_t kPasses>
void radix_sort(std::uint64_t* words, std::uint64_t* scratch, std::size_t n, std::vector<std::uint32_t>& counts) {
  counts.resize(2 * kPasses * kBuckets);
  count_digits<kLowBit, kPasses>(words, n, counts.data());
  std::uint64_t* from = words;
  std::uint64_t* to = scratch;
  for (std::size_t pass = 0; pass < kPasses; ++pass) {
    std::uint32_t* count = counts.data() + pass * kBuckets;
    const int shift = kLowBit + kDigitBits * static_cast<int>(pass);
    if (count[(from[0] >> shift) & kDigit] == n) continue;  // one digit: nothing moves
    std::uint32_t offset = 0;
    for (std::size_t d = 0; d < kBuckets; ++d) {
      const std::uint32_t c = count[d];
      count[d] = offset;
      offset += c;
    }
    for (std::size_t i = 0; i < n; ++i) to[count[(from[i] >> shift) & kDigit]++] = from[i];
    std::swap(from, to);
  }
  if (from != words) std::copy(from, from + n, words);
}

// Orders words[begin, end), equal in their high kHighBits, by the rest.
void sort_equal_high_run(std::uint64_t* words, std::uint64_t* scratch, std::size_t begin, std::size_t end,
                         std::vector<std::uint32_t>& counts) {
  if (end - begin > kInsertionMax) {
    radix_sort<0, (kLowBits + kDigitBits - 1) / kDigitBits>(words + begin, scratch + begin, end - begin, counts);
    return;
  }
  for (std::size_t i = begin + 1; i < end; ++i) {
    const std::uint64_t word = words[i];
    std::size_t j = i;
    for (; j > begin && words[j - 1] > word; --j) words[j] = words[j - 1];
    words[j] = word;
  }
}

// Calls order(begin, end) on each run of at least two words that agree in
// the bits that `shift` keeps.
template <class Order>
void for_each_equal_run(const std::uint64_t* words, std::size_t n, int shift, Order order) {
  for (std::size_t begin = 0; begin < n;) {
    const std::uint64_t high = words[begin] >> shift;
    std::size_t end = begin + 1;
    while (end < n && (words[end] >> shift) == high) ++end;
    if (end - begin > 1) order(begin, end);
    begin = end;
  }
}

// A key's distance above the least key, shifted left past the bits that
// every distance leaves zero: it orders as the key does.
struct SpreadKey {
  std::uint64_t least = 0;
  int lead = 0;

  static SpreadKey of(std::span<const double> times) {
    double shortest = times[0];
    double longest = times[0];
    for (const double t : times) {  // min and max vectorise; std::minmax_element does not
      shortest = std::min(shortest, t);
      longest = std::max(longest, t);
    }
    const std::uint64_t least = key_of_time(longest);
    return {least, std::min(63, std::countl_zero(key_of_time(shortest) - least))};
  }
  std::uint64_t operator()(double t) const { return (key_of_time(t) - least) << lead; }
};

// Orders runs of words that share their key bits by their whole keys, read
// back from the times. Runs wait in a batch of about kBatch words, whose
// reads are a loop of their own, independent of one another, so that their
// cache misses overlap: read inside a sort's comparisons, they waited one by
// one, and lpt of 3e8 exponential times took 2.2x as long as with (key,
// index) pairs, at that N a third of the words sharing their key bits.
class WholeKeyOrder {
 public:
  WholeKeyOrder(std::span<const double> times, std::uint64_t index_mask, SpreadKey spread)
      : times_(times), index_mask_(index_mask), spread_(spread) {}

  void add(std::uint64_t* first, std::uint64_t* last) {
    runs_.emplace_back(first, last);
    waiting_ += static_cast<std::size_t>(last - first);
    if (waiting_ >= kBatch) flush();
  }

  void flush() {
    keyed_.clear();
    for (const auto& [first, last] : runs_) {
      for (const std::uint64_t* w = first; w != last; ++w) keyed_.emplace_back(spread_(times_[*w & index_mask_]), *w);
    }
    auto from = keyed_.begin();
    for (const auto& [first, last] : runs_) {
      const auto to = from + (last - first);
      std::sort(from, to);  // by key, then word: equal keys in index order
      std::transform(from, to, first, [](const auto& keyed) { return keyed.second; });
      from = to;
    }
    runs_.clear();
    waiting_ = 0;
  }

 private:
  static constexpr std::size_t kBatch = 4096;
  std::span<const double> times_;
  std::uint64_t index_mask_;
  SpreadKey spread_;
  std::vector<std::pair<std::uint64_t*, std::uint64_t*>> runs_;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> keyed_;  // (whole key, word)
  std::size_t waiting_ = 0;                                      // words in runs_
};

// The words of `times` (at least one) in lpt's order (see above); returns
// the mask of their index bits.
std::uint64_t sort_longest_first(std::span<const double> times, ScratchVector<std::uint64_t>& words,
                                 ScratchVector<std::uint64_t>& scratch, std::vector<std::uint32_t>& counts) {
  const std::size_t n = times.size();
  const int index_bits = std::max(1, static_cast<int>(std::bit_width(n - 1)));
  const std::uint64_t index_mask = (std::uint64_t{1} << index_bits) - 1;
  const SpreadKey spread = SpreadKey::of(times);
  words.resize(n);
  const std::uint64_t first_low = spread(times[0]) & index_mask;
  std::uint64_t low_varies = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint64_t key = spread(times[i]);
    low_varies |= (key & index_mask) ^ first_low;
    words[i] = (key & ~index_mask) | i;
  }
  if (n < kRadixMin) {
    std::sort(words.begin(), words.end());
  } else {
    scratch.resize(n);
    radix_sort<kLowBits, kHighBits / kDigitBits>(words.data(), scratch.data(), n, counts);
  }
  // Runs of equal key bits lie within runs of equal high bits (index_bits <= 32).
  WholeKeyOrder by_whole_key(times, index_mask, spread);
  for_each_equal_run(words.data(), n, kLowBits, [&](std::size_t begin, std::size_t end) {
    std::uint64_t* run = words.data() + begin;
    const std::size_t length = end - begin;
    if (!std::is_sorted(run, run + length)) sort_equal_high_run(words.data(), scratch.data(), begin, end, counts);
    if (low_varies == 0) return;
    for_each_equal_run(run, length, index_bits,
                       [&](std::size_t first, std::size_t last) { by_whole_key.add(run + first, run + last); });
  });
  by_whole_key.flush();
  return index_mask;
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
