// The max-shift kernel: one pass over the loads for their sum, one pass for
// the prefix sums, the bridge and the shifts of Figure 1.
#include <algorithm>
#include <array>
#include <cmath>
#include <span>
#include <vector>

#include "lbmc/dist/samplers.hpp"
#include "lbmc/exp/maxshift.hpp"

namespace lbmc::exp {

void BridgeCovariance::add(const Eigen::Ref<const Eigen::VectorXd>& v) {
  if (count == 0 && sum.size() == 0) {
    sum = Eigen::VectorXd::Zero(v.size());
    outer = Eigen::MatrixXd::Zero(v.size(), v.size());
  }
  ++count;
  sum += v;
  outer.selfadjointView<Eigen::Upper>().rankUpdate(v);
}

void BridgeCovariance::merge(const BridgeCovariance& other) {
  if (other.count == 0) return;
  if (count == 0) {
    *this = other;
    return;
  }
  count += other.count;
  sum += other.sum;
  outer.triangularView<Eigen::Upper>() += other.outer;
}

Eigen::MatrixXd BridgeCovariance::covariance() const {
  const auto r = static_cast<double>(count);
  Eigen::MatrixXd c = outer.selfadjointView<Eigen::Upper>();
  c -= sum * sum.transpose() / r;
  return c / (r - 1.0);
}

void MaxShiftSample::merge(const MaxShiftSample& other) {
  w_prime.merge(other.w_prime);
  w_prime_sq.merge(other.w_prime_sq);
  d_prime.merge(other.d_prime);
  d_prime_sq.merge(other.d_prime_sq);
  w_prime_values.merge(other.w_prime_values);
  d_prime_values.merge(other.d_prime_values);
  w_zero.merge(other.w_zero);
  d_ge_1.merge(other.d_ge_1);
  max_r_shift.merge(other.max_r_shift);
  max_l_shift.merge(other.max_l_shift);
  if (other.covariance) {
    if (!covariance) covariance.emplace();
    covariance->merge(*other.covariance);
  }
}

double covariance_bytes(std::int64_t n) {
  const auto cells = static_cast<double>(n) * static_cast<double>(n);
  return static_cast<double>(engine::kWaveBlocks + 1) * 8.0 * (cells + static_cast<double>(n));
}

namespace {

// Destination processor of global element g after balancing: ⌊g/X̄⌋ with
// X̄ = total/n (Mehrotra Figure 1, step 3), in exact integer arithmetic.
// When X̄ is not an integer, processors end with ⌊X̄⌋ or ⌈X̄⌉ elements,
// spread evenly along the array.
__extension__ using Wide = __int128;  // g·n may pass 2^63

struct Destination {
  std::int64_t n, total;
  // With total·n < 2^53 the double quotient g·n/total is correctly rounded
  // and cannot round up to an integer it lies below (the gap is at least
  // 1/total, more than half an ulp of a quotient below n), so its floor is
  // exact and spares a 128-bit division per element.
  bool fast = static_cast<double>(total) * static_cast<double>(n) < 0x1p53;
  std::int64_t operator()(std::int64_t g) const {
    if (fast) return static_cast<std::int64_t>(static_cast<double>(g * n) / static_cast<double>(total));
    return static_cast<std::int64_t>(Wide{g} * n / total);
  }
};

}  // namespace

// The max and min reductions are exact in any order, so letting the compiler
// treat them as such (no NaN, no signed zero: neither occurs in V_k) changes
// no result and lets it vectorise them; unrolled with separate running
// maxima and minima per copy, their latency leaves the critical path.
__attribute__((target_clones("avx2", "default"),
               optimize("finite-math-only", "no-signed-zeros", "unroll-loops", "variable-expansion-in-unroller")))
BridgeExtremes bridge_extremes(const std::vector<double>& prefix, const Eigen::ArrayXd& ks, double mean,
                               double* bridge) {
  if (prefix.size() < 2) return {};
  const std::size_t last = prefix.size() - 1;
  const double* y = prefix.data();
  const double* k = ks.data();
  if (bridge != nullptr) {
    for (std::size_t i = 0; i < last; ++i) bridge[i] = y[i] - mean * k[i];
    bridge[last] = 0.0;
  }
  double high = 0.0;
  double low = 0.0;
  for (std::size_t i = 0; i < last; ++i) {
    const double v = y[i] - mean * k[i];
    high = v > high ? v : high;
    low = v < low ? v : low;
  }
  return {high, high > -low ? high : -low};
}

namespace {

// Processor by processor, with the exact destination of each element.
ProcessorShifts processor_shifts_by_processor(const std::vector<double>& prefix) {
  const auto n = static_cast<std::int64_t>(prefix.size());
  const Destination dest{n, static_cast<std::int64_t>(prefix.back())};
  ProcessorShifts shifts;
  bool any = false;
  std::int64_t y = 0;  // Y_k: elements before processor k
  for (std::int64_t k = 0; k < n; ++k) {
    const auto next = static_cast<std::int64_t>(prefix[static_cast<std::size_t>(k)]);
    if (next > y) {
      const std::int64_t right = dest(next - 1) - k;
      const std::int64_t left = k - dest(y);
      shifts.max_right = any ? std::max(shifts.max_right, right) : right;
      shifts.max_left = any ? std::max(shifts.max_left, left) : left;
      any = true;
    }
    y = next;
  }
  return shifts;
}

}  // namespace

// With T = Y_n elements and k an integer, Rshift_k = ⌊(Y_{k+1} − 1)·n/T⌋ − k
// = ⌊((Y_{k+1} − 1)·n − k·T)/T⌋ and Lshift_k = k − ⌊Y_k·n/T⌋ = ⌈(k·T − Y_k·n)/T⌉.
// ⌊·⌋ and ⌈·⌉ are monotone, so each maximum is one rounding of the largest
// numerator. While n·T < 2^53 the numerators are exact integers in double and
// the final quotient rounds to the right side of every integer (the argument
// of Destination), so this equals the processor-by-processor computation with
// one division a replication instead of two per processor. The maximum over
// processors holding elements vectorises like bridge_extremes (no traps are
// enabled, so the compiler may compute both sides of a selection).
__attribute__((target_clones("avx2", "default"),
               optimize("finite-math-only", "no-signed-zeros", "no-trapping-math", "unroll-loops",
                        "variable-expansion-in-unroller")))
ProcessorShifts processor_shifts_from_prefix(const std::vector<double>& prefix) {
  const std::size_t n = prefix.size();
  const double total = n == 0 ? 0.0 : prefix.back();
  if (total <= 0.0) return {};
  const double count = static_cast<double>(n);
  if (total * count >= 0x1p53 || n >= (std::size_t{1} << 31)) return processor_shifts_by_processor(prefix);
  constexpr double none = -0x1p62;  // below every numerator
  double right = prefix[0] > 0.0 ? (prefix[0] - 1.0) * count : none;
  double left = prefix[0] > 0.0 ? 0.0 : none;
  const auto last = static_cast<std::int32_t>(n);
  for (std::int32_t k = 1; k < last; ++k) {
    const double before = prefix[static_cast<std::size_t>(k) - 1];
    const double next = prefix[static_cast<std::size_t>(k)];
    const double kt = static_cast<double>(k) * total;
    const double r = next > before ? (next - 1.0) * count - kt : none;
    const double l = next > before ? kt - before * count : none;
    right = r > right ? r : right;
    left = l > left ? l : left;
  }
  return {static_cast<std::int64_t>(std::floor(right / total)), static_cast<std::int64_t>(-std::floor(-left / total))};
}

ProcessorShifts processor_shifts(const std::vector<double>& loads) {
  std::vector<double> prefix(loads.size());
  double total = 0.0;
  for (std::size_t k = 0; k < loads.size(); ++k) prefix[k] = total += loads[k];
  return processor_shifts_from_prefix(prefix);
}

namespace {

template <class Sampler>
struct MaxShiftKernel {
  using Accumulator = MaxShiftSample;

  Sampler sampler;
  std::int64_t n;
  double sigma;
  bool integer_loads;
  bool covariance;
  Eigen::ArrayXd ks = bridge_indices(n);

  Accumulator make_accumulator() const { return {}; }

  // Per replication the kernel only stores W', D' and the indicators; the
  // block's moments are then taken from the stored batches (two passes,
  // engine::Moments::of), which costs far less than six online updates a
  // replication when n is small.
  void run(engine::Generator& gen, std::int64_t count, Accumulator& acc) const {
    // Scratch reused across blocks: at large n a block is a single
    // replication, and fresh pages for the prefix sums would cost more than
    // the draws.
    thread_local std::vector<double> prefix;
    prefix.resize(static_cast<std::size_t>(n));
    Eigen::VectorXd bridge(covariance ? n : 0);
    if (covariance) acc.covariance.emplace();
    const std::size_t first = acc.w_prime_values.held_values().size();
    acc.w_prime_values.reserve(first + static_cast<std::size_t>(count));
    acc.d_prime_values.reserve(first + static_cast<std::size_t>(count));
    std::vector<double> d_ge_1, right, left;
    d_ge_1.reserve(static_cast<std::size_t>(count));
    const double scale = 1.0 / (sigma * std::sqrt(static_cast<double>(n)));
    // A local copy of the generator stays in registers across the stores of
    // the inner loop; through the reference it is spilled and reloaded.
    engine::Generator local = gen;
    // The sampler's parameters too: stores to the prefix sums could alias the
    // kernel's copy, which would then be reloaded for every draw.
    const Sampler draw = sampler;
    for (std::int64_t r = 0; r < count; ++r) {
      // Pass 1: draw and store prefix sums (the serial sum hides behind the
      // sampler). Pass 2: a dependency-free reduction over them.
      double total = 0.0;
      for (double& y : prefix) y = total += draw(local);
      const double mean = total / static_cast<double>(n);
      const BridgeExtremes extremes = bridge_extremes(prefix, ks, mean, covariance ? bridge.data() : nullptr);
      if (covariance) acc.covariance->add(bridge);
      acc.w_prime_values.add(extremes.max * scale);
      acc.d_prime_values.add(extremes.max_abs * scale);
      d_ge_1.push_back(extremes.max_abs >= mean ? 1.0 : 0.0);
      if (integer_loads) {
        const ProcessorShifts shifts = processor_shifts_from_prefix(prefix);
        right.push_back(static_cast<double>(shifts.max_right));
        left.push_back(static_cast<double>(shifts.max_left));
      }
    }
    gen = local;
    const auto w = acc.w_prime_values.held_values().subspan(first);
    const auto d = acc.d_prime_values.held_values().subspan(first);
    std::vector<double> scratch(w.size());
    const auto transformed = [&](std::span<const double> values, auto f) {
      std::transform(values.begin(), values.end(), scratch.begin(), f);
      return engine::Moments::of(scratch);
    };
    acc.w_prime.merge(engine::Moments::of(w));
    acc.d_prime.merge(engine::Moments::of(d));
    acc.w_prime_sq.merge(transformed(w, [](double x) { return x * x; }));
    acc.d_prime_sq.merge(transformed(d, [](double x) { return x * x; }));
    acc.w_zero.merge(transformed(w, [](double x) { return x == 0.0 ? 1.0 : 0.0; }));
    acc.d_ge_1.merge(engine::Moments::of(d_ge_1));
    acc.max_r_shift.merge(engine::Moments::of(right));
    acc.max_l_shift.merge(engine::Moments::of(left));
  }
};

}  // namespace

MaxShiftSample simulate_max_shift(const dist::LoadLaw& law, std::int64_t n, bool covariance,
                                  engine::RunPlan plan) {
  plan.block_reps = engine::block_size_for(covariance ? n * n : n);
  const double sigma = dist::standard_deviation(law);
  const bool integer_loads = std::holds_alternative<dist::Binomial>(law) || std::holds_alternative<dist::Poisson>(law);
  MaxShiftSample sample;
  dist::visit_sampler(law, [&](const auto& sampler) {
    using Kernel = MaxShiftKernel<std::decay_t<decltype(sampler)>>;
    const Kernel kernel{sampler, n, sigma, integer_loads, covariance};
    const double target = plan.target_rse.value_or(0.0);
    sample.run = engine::run_replications(plan, kernel, sample, [&](const MaxShiftSample& acc) {
      return acc.w_prime.mean_se() <= target * std::abs(acc.w_prime.mean()) &&
             acc.d_prime.mean_se() <= target * std::abs(acc.d_prime.mean());
    });
  });
  return sample;
}

}  // namespace lbmc::exp
