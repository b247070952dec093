// The strategies of `lbmc compare` and their per-replication kernel
// (compare.hpp has the model). Each replication draws its N task times once
// and executes every strategy on them; the schedules keep only what their
// makespan needs: per-processor loads (block, cyclic, random, choice), task
// counts (choice) or a binary min-heap of processor finish times (self,
// lpt, chunk:K, guided), whose top is replaced in O(log P) per task or chunk. Buffers live in
// one Scheduler per block of replications: no allocation per replication.
#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "lbmc/dist/samplers.hpp"
#include "lbmc/engine/errors.hpp"
#include "lbmc/engine/lists.hpp"
#include "lbmc/exp/compare.hpp"

namespace lbmc::exp {

namespace {

constexpr double kEps = std::numeric_limits<double>::epsilon();
constexpr double kInf = std::numeric_limits<double>::infinity();

std::size_t size_of(std::int64_t n) { return static_cast<std::size_t>(n); }

// A binary min-heap of processor finish times (or loads) in heap[0, n),
// followed by one +inf sentinel at heap[n], so that the second child of the
// last parent can be read without a bounds test.
void reset_heap(std::vector<double>& heap, std::int64_t procs) {
  heap.assign(size_of(procs) + 1, 0.0);
  heap.back() = std::numeric_limits<double>::infinity();
}

// The heap with its top replaced by `value` (>= the top): a sift-down whose
// choice of the smaller child is arithmetic. Measured at N = 1e6, P = 1024:
// about 50 ns a task, bound by the chain from one task's top to the next and
// by where the new value stops (a 4-ary heap and a loser tree were no faster).
void replace_top(std::vector<double>& heap, double value) {
  double* h = heap.data();
  const std::size_t n = heap.size() - 1;
  std::size_t i = 0;
  std::size_t child = 1;
  while (child < n) {
    child += static_cast<std::size_t>(h[child + 1] < h[child]);
    if (!(h[child] < value)) break;
    h[i] = h[child];
    i = child;
    child = 2 * i + 1;
  }
  h[i] = value;
}

// The largest entry of a heap, its sentinel excluded.
double heap_largest(const std::vector<double>& heap) {
  double most = 0.0;
  for (std::size_t i = 0; i + 1 < heap.size(); ++i) most = std::max(most, heap[i]);
  return most;
}

// Sorts times >= 0 in increasing order. Below kRadixMin values, std::sort;
// beyond, a least-significant-digit radix sort on the bits of the doubles,
// which order as unsigned integers for values >= 0 (-0 is read as +0), in
// passes of 16 bits, skipping a pass where every key has the same digit.
// Equal times are interchangeable in a schedule, so either order of ties
// gives the same makespan.
constexpr std::size_t kRadixMin = std::size_t{1} << 14;

void sort_times(std::vector<double>& values, std::vector<std::uint64_t>& keys, std::vector<std::uint64_t>& scratch,
                std::vector<std::size_t>& counts) {
  const std::size_t n = values.size();
  if (n < kRadixMin) {
    std::sort(values.begin(), values.end());
    return;
  }
  constexpr int kPasses = 4;
  constexpr std::size_t kBuckets = std::size_t{1} << 16;
  keys.resize(n);
  scratch.resize(n);
  counts.assign(kPasses * kBuckets, 0);
  for (std::size_t i = 0; i < n; ++i) {
    const auto key = std::bit_cast<std::uint64_t>(values[i] + 0.0);
    keys[i] = key;
    for (int pass = 0; pass < kPasses; ++pass) ++counts[size_of(pass) * kBuckets + ((key >> (16 * pass)) & 0xFFFF)];
  }
  for (int pass = 0; pass < kPasses; ++pass) {
    std::size_t* count = counts.data() + size_of(pass) * kBuckets;
    const int shift = 16 * pass;
    if (count[(keys[0] >> shift) & 0xFFFF] == n) continue;  // one digit: nothing moves
    std::size_t offset = 0;
    for (std::size_t b = 0; b < kBuckets; ++b) {
      const std::size_t c = count[b];
      count[b] = offset;
      offset += c;
    }
    for (const std::uint64_t key : keys) scratch[count[(key >> shift) & 0xFFFF]++] = key;
    keys.swap(scratch);
  }
  for (std::size_t i = 0; i < n; ++i) values[i] = std::bit_cast<double>(keys[i]);
}

double largest(const std::vector<double>& values) {
  double most = 0.0;
  for (const double v : values) most = std::max(most, v);
  return most;
}

// x where mathematics says x >= limit: a value below it by no more than the
// rounding of the sums (relative `tol`) is read as the limit.
double at_least(double x, double limit, double tol) { return x < limit && x >= limit * (1.0 - tol) ? limit : x; }
// x where mathematics says x <= limit, likewise.
double at_most(double x, double limit, double tol) { return x > limit && x <= limit * (1.0 + tol) ? limit : x; }

const char* kind_name(StrategyKind kind) {
  switch (kind) {
    case StrategyKind::block: return "block";
    case StrategyKind::cyclic: return "cyclic";
    case StrategyKind::random: return "random";
    case StrategyKind::choice: return "choice";
    case StrategyKind::self: return "self";
    case StrategyKind::lpt: return "lpt";
    case StrategyKind::chunk: return "chunk";
    case StrategyKind::guided: return "guided";
  }
  return "";
}

}  // namespace

std::string to_string(const Strategy& s) {
  if (s.kind == StrategyKind::choice) return fmt::format("choice:{}", s.d);
  if (s.kind == StrategyKind::chunk) return fmt::format("chunk:{}", s.k);
  return kind_name(s.kind);
}

std::vector<Strategy> parse_strategies(std::string_view text) {
  std::vector<Strategy> strategies;
  for (const std::string_view item : engine::split(text, ',')) {
    Strategy s;
    if (item.substr(0, 7) == "choice:") {
      s.kind = StrategyKind::choice;
      try {
        s.d = engine::parse_integer(item.substr(7));
      } catch (const engine::InputError&) {
        throw engine::InputError(fmt::format("'{}': D must be an integer >= 1", item));
      }
      if (s.d < 1) throw engine::InputError(fmt::format("'{}': D must be >= 1", item));
    } else if (item.substr(0, 6) == "chunk:") {
      s.kind = StrategyKind::chunk;
      try {
        s.k = engine::parse_integer(item.substr(6));
      } catch (const engine::InputError&) {
        throw engine::InputError(fmt::format("'{}': K must be an integer >= 1", item));
      }
      if (s.k < 1) throw engine::InputError(fmt::format("'{}': K must be >= 1", item));
    } else {
      bool known = false;
      for (const StrategyKind kind : {StrategyKind::block, StrategyKind::cyclic, StrategyKind::random,
                                      StrategyKind::self, StrategyKind::lpt, StrategyKind::guided}) {
        if (item == kind_name(kind)) {
          s.kind = kind;
          known = true;
        }
      }
      if (!known) {
        throw engine::InputError(
            fmt::format("'{}' is not a strategy (block, cyclic, random, choice:D, self, lpt, chunk:K, guided)", item));
      }
    }
    if (std::find(strategies.begin(), strategies.end(), s) == strategies.end()) strategies.push_back(s);
  }
  if (strategies.size() > size_of(kMaxStrategies)) {
    throw engine::InputError(fmt::format("'{}': at most {} strategies", text, kMaxStrategies));
  }
  return strategies;
}

bool is_list_schedule(const Strategy& s, double h) {
  if (s.kind == StrategyKind::lpt) return true;
  return h == 0.0 && (s.kind == StrategyKind::self || (s.kind == StrategyKind::chunk && s.k == 1));
}

std::int64_t largest_chunk(const Strategy& s, std::int64_t tasks, std::int64_t procs) {
  switch (s.kind) {
    case StrategyKind::self:
    case StrategyKind::lpt: return 1;
    case StrategyKind::chunk: return std::min(s.k, tasks);
    case StrategyKind::guided: return tasks / procs + static_cast<std::int64_t>(tasks % procs != 0);
    default: return 0;
  }
}

std::optional<double> ratio_upper_bound(const Strategy& s, std::int64_t tasks, std::int64_t procs, double h) {
  const double p = static_cast<double>(procs);
  if (is_list_schedule(s, h)) return 2.0 - 1.0 / p;  // Graham (1966)
  if (h != 0.0 || (s.kind != StrategyKind::chunk && s.kind != StrategyKind::guided)) return std::nullopt;
  // Graham's argument on the chunks (compare.hpp): 1 + (1 − 1/P)·min(K*, P).
  const std::int64_t most = largest_chunk(s, tasks, procs);
  if (most <= 1) return 2.0 - 1.0 / p;
  return 1.0 + (1.0 - 1.0 / p) * static_cast<double>(std::min(most, procs));
}

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

double Scheduler::makespan(const Strategy& s, std::span<const double> times, std::int64_t procs, double h,
                           engine::Generator& gen) {
  switch (s.kind) {
    case StrategyKind::block: return block(times, procs);
    case StrategyKind::cyclic: return cyclic(times, procs);
    case StrategyKind::random: return random(times, procs, gen);
    case StrategyKind::choice: return choice(times, procs, s.d, gen);
    case StrategyKind::self: return self(times, procs, h);
    case StrategyKind::lpt: return lpt(times, procs);
    case StrategyKind::chunk: return chunked(times, procs, s.k, h);
    case StrategyKind::guided: return chunked(times, procs, 0, h);
  }
  return 0.0;
}

double Scheduler::block(std::span<const double> times, std::int64_t procs) {
  // Chunks of c = ⌈N/P⌉ contiguous tasks; the last processors may get fewer
  // or none.
  const std::size_t n = times.size();
  const std::size_t chunk = (n + size_of(procs) - 1) / size_of(procs);
  double most = 0.0;
  for (std::size_t first = 0; first < n; first += chunk) {
    const std::size_t last = std::min(n, first + chunk);
    double load = 0.0;
    for (std::size_t i = first; i < last; ++i) load += times[i];
    most = std::max(most, load);
  }
  return most;
}

double Scheduler::cyclic(std::span<const double> times, std::int64_t procs) {
  loads_.assign(size_of(procs), 0.0);
  std::size_t p = 0;
  for (const double t : times) {
    loads_[p] += t;
    if (++p == loads_.size()) p = 0;
  }
  return largest(loads_);
}

double Scheduler::random(std::span<const double> times, std::int64_t procs, engine::Generator& gen) {
  loads_.assign(size_of(procs), 0.0);
  const auto bound = static_cast<std::uint64_t>(procs);
  for (const double t : times) loads_[uniform_below(gen, bound)] += t;
  return largest(loads_);
}

double Scheduler::choice(std::span<const double> times, std::int64_t procs, std::int64_t d, engine::Generator& gen) {
  loads_.assign(size_of(procs), 0.0);
  counts_.assign(size_of(procs), 0);
  const auto bound = static_cast<std::uint64_t>(procs);
  for (const double t : times) {
    // The fewest tasks among d uniform draws with replacement; a later draw
    // wins only with strictly fewer, so ties go to the first drawn.
    std::uint64_t best = uniform_below(gen, bound);
    for (std::int64_t k = 1; k < d; ++k) {
      const std::uint64_t other = uniform_below(gen, bound);
      if (counts_[other] < counts_[best]) best = other;
    }
    ++counts_[best];
    loads_[best] += t;
  }
  return largest(loads_);
}

double Scheduler::self(std::span<const double> times, std::int64_t procs, double h) {
  // List scheduling in task order: the processor free first (the heap's
  // top) takes task k (1-based), which cannot start before the dispatcher
  // reaches it at k·h. Each processor's finish times only grow, so the
  // makespan is the largest entry left. Ties between processors free at the
  // same time do not change any finish time.
  reset_heap(heap_, procs);
  if (h == 0.0) {
    for (const double t : times) replace_top(heap_, heap_[0] + t);
  } else {
    double k = 0.0;
    for (const double t : times) {
      k += 1.0;
      replace_top(heap_, std::max(heap_[0], k * h) + t);
    }
  }
  return heap_largest(heap_);
}

double Scheduler::lpt(std::span<const double> times, std::int64_t procs) {
  // Graham (1969): the longest task first, each to the least-loaded processor.
  sorted_.assign(times.begin(), times.end());
  sort_times(sorted_, keys_, scratch_, counts_radix_);
  reset_heap(heap_, procs);
  for (auto t = sorted_.rbegin(); t != sorted_.rend(); ++t) replace_top(heap_, heap_[0] + *t);
  return heap_largest(heap_);
}

double Scheduler::chunked(std::span<const double> times, std::int64_t procs, std::int64_t fixed, double h) {
  // List scheduling of chunks in queue order: chunk j (1-based) holds the
  // next `fixed` tasks (chunk:K; fewer for the last) or ⌈R/P⌉ of the R tasks
  // left (guided, Polychronopoulos & Kuck 1987); it goes to the processor
  // free first (the heap's top) and starts at max(its free time, j·h). The
  // chunk's time is the sum of its tasks, added to its start once; with one
  // task a chunk this is self's schedule, value for value.
  reset_heap(heap_, procs);
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
    replace_top(heap_, std::max(heap_[0], j * h) + work);
  }
  return heap_largest(heap_);
}

double makespan_block(std::span<const double> times, std::int64_t procs) {
  engine::Generator unused;
  return Scheduler().makespan({StrategyKind::block, 0}, times, procs, 0.0, unused);
}
double makespan_cyclic(std::span<const double> times, std::int64_t procs) {
  engine::Generator unused;
  return Scheduler().makespan({StrategyKind::cyclic, 0}, times, procs, 0.0, unused);
}
double makespan_random(std::span<const double> times, std::int64_t procs, engine::Generator& gen) {
  return Scheduler().makespan({StrategyKind::random, 0}, times, procs, 0.0, gen);
}
double makespan_choice(std::span<const double> times, std::int64_t procs, std::int64_t d, engine::Generator& gen) {
  return Scheduler().makespan({StrategyKind::choice, d}, times, procs, 0.0, gen);
}
double makespan_self(std::span<const double> times, std::int64_t procs, double h) {
  engine::Generator unused;
  return Scheduler().makespan({StrategyKind::self, 0}, times, procs, h, unused);
}
double makespan_lpt(std::span<const double> times, std::int64_t procs) {
  engine::Generator unused;
  return Scheduler().makespan({StrategyKind::lpt, 0}, times, procs, 0.0, unused);
}
double makespan_chunk(std::span<const double> times, std::int64_t procs, std::int64_t k, double h) {
  engine::Generator unused;
  return Scheduler().makespan({StrategyKind::chunk, 0, k}, times, procs, h, unused);
}
double makespan_guided(std::span<const double> times, std::int64_t procs, double h) {
  engine::Generator unused;
  return Scheduler().makespan({StrategyKind::guided, 0}, times, procs, h, unused);
}

std::vector<engine::MeanSummary> reported_means(const CompareSample& s) {
  std::vector<engine::MeanSummary> means;
  // Slots of strategies not listed hold no replications: mean 0, se 0, met.
  for (const StrategyStats& st : s.strategy) {
    means.push_back(engine::summary_of(st.makespan));
    means.push_back(engine::summary_of(st.efficiency));
    means.push_back(engine::summary_of(st.ratio));
  }
  return means;
}

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
  const double n = static_cast<double>(spec.tasks);
  double draws = n;
  for (const Strategy& s : spec.strategies) {
    if (s.kind == StrategyKind::random) draws += n;
    if (s.kind == StrategyKind::choice) draws += n * static_cast<double>(s.d);
  }
  return draws;
}

double compare_thread_bytes(std::int64_t tasks, std::int64_t procs) {
  return 32.0 * static_cast<double>(tasks) + 24.0 * static_cast<double>(procs) + 0x1.0p21;
}

namespace {

template <class Sampler>
struct CompareKernel {
  using Accumulator = CompareSample;

  Sampler sampler;
  const CompareSpec* spec;
  std::vector<double> upper;        // per strategy: ratio_upper_bound, or +inf
  double tol;                       // rounding of a sum of N times, relative

  Accumulator make_accumulator() const { return {}; }

  void run(engine::Generator& gen, std::int64_t count, Accumulator& acc) const {
    const std::int64_t procs = spec->procs;
    const double p = static_cast<double>(procs);
    std::vector<double> times(size_of(spec->tasks));
    Scheduler scheduler;
    for (std::int64_t r = 0; r < count; ++r) {
      double total = 0.0;
      double longest = 0.0;
      for (double& t : times) {
        t = sampler(gen);
        total += t;
        longest = std::max(longest, t);
      }
      const double mean_load = total / p;
      const double bound = std::max(mean_load, longest);
      double first_efficiency = 0.0;
      for (std::size_t s = 0; s < spec->strategies.size(); ++s) {
        StrategyStats& st = acc.strategy[s];
        const double c = scheduler.makespan(spec->strategies[s], times, procs, spec->h, gen);
        st.makespan.add(c);
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

}  // namespace

engine::Simulated<CompareSample> simulate_compare(const CompareSpec& spec, engine::RunPlan plan) {
  if (spec.tasks < 1) throw engine::InputError(fmt::format("compare: N = {} tasks must be >= 1", spec.tasks));
  if (spec.procs < 1) throw engine::InputError(fmt::format("compare: P = {} processors must be >= 1", spec.procs));
  if (!(spec.h >= 0.0) || !std::isfinite(spec.h)) {
    throw engine::InputError(fmt::format("compare: h = {} must be a finite number >= 0", spec.h));
  }
  if (spec.strategies.empty() || spec.strategies.size() > size_of(kMaxStrategies)) {
    throw engine::InputError(fmt::format("compare: {} strategies (1 to {})", spec.strategies.size(), kMaxStrategies));
  }
  for (const Strategy& s : spec.strategies) {
    if (s.kind == StrategyKind::choice && (s.d < 1 || s.d > spec.procs)) {
      throw engine::InputError(fmt::format("compare: {} needs 1 <= D <= P = {}", to_string(s), spec.procs));
    }
    if (s.kind == StrategyKind::chunk && s.k < 1) {
      throw engine::InputError(fmt::format("compare: {} needs K >= 1", to_string(s)));
    }
  }
  dist::require_nonnegative(spec.law, "task times must be >= 0");
  if (!(dist::mean(spec.law) > 0.0)) {
    throw engine::InputError(fmt::format("compare: task law {} has mean <= 0", dist::to_spec(spec.law)));
  }
  // About 2^16 units of work a block: N draws and N steps per strategy.
  const auto work = static_cast<std::int64_t>(std::min(
      0x1.0p62, static_cast<double>(spec.tasks) * (1.0 + static_cast<double>(spec.strategies.size()))));
  plan.block_reps = engine::block_size_for(work);
  std::vector<double> upper;
  for (const Strategy& s : spec.strategies) {
    upper.push_back(ratio_upper_bound(s, spec.tasks, spec.procs, spec.h).value_or(kInf));
  }
  const double tol = (2.0 * static_cast<double>(spec.tasks) + 4.0) * kEps;
  engine::Simulated<CompareSample> result;
  dist::visit_sampler(spec.law, [&](const auto& sampler) {
    using Kernel = CompareKernel<std::decay_t<decltype(sampler)>>;
    const Kernel kernel{sampler, &spec, upper, tol};
    result.run = engine::run_replications(plan, kernel, result.sample);
  });
  return result;
}

}  // namespace lbmc::exp
