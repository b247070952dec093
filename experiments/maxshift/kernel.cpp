// The max-shift kernel: one pass over the loads for their sum, one pass for
// the prefix sums, the bridge and the shifts of Figure 1.
#include <algorithm>
#include <concepts>
#include <cmath>
#include <cstring>
#include <memory>
#include <span>
#include <vector>

#include "lbmc/dist/samplers.hpp"
#include "lbmc/engine/philox.hpp"
#include "lbmc/exp/device_kernels.hpp"
#include "lbmc/exp/maxshift.hpp"
#include "replication_shift.hpp"

// GCC's per-function optimize attribute; clang has none and keeps its
// strict max and min, which give the same values.
#if defined(__clang__)
#define LBMC_EXACT_MIN_MAX
#else
#define LBMC_EXACT_MIN_MAX __attribute__((optimize("finite-math-only", "no-signed-zeros")))
#endif

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

void BridgeCovariance::save(engine::ByteWriter& out) const {
  out.i64(count);
  out.f64s({sum.data(), static_cast<std::size_t>(sum.size())});
  out.f64s({outer.data(), static_cast<std::size_t>(outer.size())});
}

void BridgeCovariance::load(engine::ByteReader& in) {
  count = in.i64();
  const std::vector<double> sums = in.f64s();
  const std::vector<double> products = in.f64s();
  const auto n = static_cast<Eigen::Index>(sums.size());
  if (count < 0 || products.size() != sums.size() * sums.size()) {
    throw engine::RuntimeFailure("corrupt accumulator bytes: a covariance of mismatched sizes");
  }
  sum = Eigen::Map<const Eigen::VectorXd>(sums.data(), n);
  outer = Eigen::Map<const Eigen::MatrixXd>(products.data(), n, n);
}

Eigen::MatrixXd BridgeCovariance::covariance() const {
  const auto r = static_cast<double>(count);
  Eigen::MatrixXd c = outer.selfadjointView<Eigen::Upper>();
  c -= sum * sum.transpose() / r;
  return c / (r - 1.0);
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

namespace {

struct Range {
  double high = 0.0;
  double low = 0.0;
};

using Lanes = double __attribute__((vector_size(4 * sizeof(double))));

// Four values as doubles: doubles as they are; integer prefix sums
// (0 <= Y < 2^52) by writing them into the mantissa of 2^52 and subtracting
// 2^52, which is exact (AVX2 has no 64-bit integer to double conversion).
// (Out parameters: a vector returned by value would change the ABI.)
__attribute__((always_inline)) inline void load_lanes(const double* y, Lanes& lanes) {
  std::memcpy(&lanes, y, sizeof lanes);
}
__attribute__((always_inline)) inline void load_lanes(const std::int64_t* y, Lanes& lanes) {
  using Words = std::int64_t __attribute__((vector_size(4 * sizeof(std::int64_t))));
  Words words;
  std::memcpy(&words, y, sizeof words);
  words |= 0x4330000000000000;  // the bits of 2^52
  std::memcpy(&lanes, &words, sizeof lanes);
  lanes -= 0x1p52;
}

// The max and min of {0} ∪ {a·y_i − b·k_i : i < count}, for k_i = k_first + i.
// Max and min are exact in any order, so letting the compiler treat them as
// such (no NaN, no signed zero: neither occurs here) changes no result. The
// loop keeps two independent running maxima and minima of four lanes each
// (GCC vector types: two SSE2 registers or one AVX2 register), so that their
// latency stays off the critical path; a single chain waits on it for every
// four elements.
template <class Value>
__attribute__((always_inline)) LBMC_EXACT_MIN_MAX inline Range range_of(
    const Value* y, double k_first, std::size_t count, double a, double b) {
  constexpr std::size_t kStep = 8;  // two chains of four lanes
  Range range{0.0, 0.0};
  std::size_t i = 0;
  // Ternaries, not std::max: a function with its own optimize attribute does
  // not inline those, and calls would dominate at small n. Below 32 values
  // the lanes' setup costs more than it saves.
  if (count >= 4 * kStep) {
    Lanes high0{}, high1{}, low0{}, low1{};
    // k_i counted in the lanes (exact below 2^53).
    Lanes k0 = {k_first, k_first + 1.0, k_first + 2.0, k_first + 3.0};
    Lanes k1 = k0 + 4.0;
    for (; i + kStep <= count; i += kStep, k0 += 8.0, k1 += 8.0) {
      Lanes y0, y1;
      load_lanes(y + i, y0);
      load_lanes(y + i + 4, y1);
      const Lanes v0 = a * y0 - b * k0;
      const Lanes v1 = a * y1 - b * k1;
      high0 = v0 > high0 ? v0 : high0;
      high1 = v1 > high1 ? v1 : high1;
      low0 = v0 < low0 ? v0 : low0;
      low1 = v1 < low1 ? v1 : low1;
    }
    high0 = high0 > high1 ? high0 : high1;
    low0 = low0 < low1 ? low0 : low1;
    for (std::size_t j = 0; j < 4; ++j) {
      range.high = high0[j] > range.high ? high0[j] : range.high;
      range.low = low0[j] < range.low ? low0[j] : range.low;
    }
  }
  for (; i < count; ++i) {
    const double v = a * static_cast<double>(y[i]) - b * (k_first + static_cast<double>(i));
    range.high = v > range.high ? v : range.high;
    range.low = v < range.low ? v : range.low;
  }
  return range;
}

}  // namespace

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

// V_k = Y_k − k·mean for k < n (a·y with a = 1 is y itself, to the bit); V_n = 0.
__attribute__((target_clones("avx2", "default"))) LBMC_EXACT_MIN_MAX
BridgeExtremes bridge_extremes(const std::vector<double>& prefix, const Eigen::ArrayXd& ks, double mean,
                               double* bridge) {
  if (prefix.size() < 2) return {};
  const std::size_t last = prefix.size() - 1;
  const double* y = prefix.data();
  const double* k = ks.data();
  if (bridge != nullptr) {
    for (std::size_t i = 0; i < last; ++i) bridge[i] = bridge_value(y[i], mean, k[i]);
    bridge[last] = 0.0;
  }
  const Range range = range_of(y, k[0], last, 1.0, mean);
  return {range.high, range.low};
}

// With T = Y_n elements and 0-based processor k, Rshift_k = ⌊(Y_{k+1} − 1)·n/T⌋ − k
// = ⌊(u_k + T − n)/T⌋ and Lshift_k = k − ⌊Y_k·n/T⌋ = ⌈−u_{k−1}/T⌉, where
// u_j = Y_{j+1}·n − (j+1)·T (= n·V_{j+1}, u_{−1} = u_{n−1} = 0). ⌊·⌋ and ⌈·⌉
// are monotone, so each maximum is one rounding of max u or −min u. Processors
// without elements never raise them: their numerator is below that of the
// nearest processor with elements before them (right) or after them (left),
// and below 0 when there is none, while the 0 terms are at most the largest
// numerator of a processor with elements (the last one's right, the first
// one's left). The extremes of u are exact integers: found in double while
// (n + 1)·T < 2^53 (n·Y_k, k·T and their difference are then exact integers
// there, and so is Y_k < 2^52 read into a double), in 128-bit integers beyond;
// the roundings are integer divisions, so this equals the processor-by-processor
// computation at any size. The same integers decide D >= 1 (max |u| >= T) and
// W' = 0 (max u = 0) without rounding.
__attribute__((target_clones("avx2", "default"))) LBMC_EXACT_MIN_MAX
IntegerBridge integer_bridge(std::span<const std::int64_t> prefix) {
  IntegerBridge u;
  u.n = static_cast<std::int64_t>(prefix.size());
  u.total = u.n == 0 ? 0 : prefix.back();
  if (u.total <= 0) return u;
  const double count = static_cast<double>(u.n);
  const double total = static_cast<double>(u.total);
  if ((count + 1.0) * total < 0x1p53) {
    const Range r = range_of(prefix.data(), 1.0, prefix.size() - 1, count, total);
    u.high = static_cast<std::int64_t>(r.high);
    u.low = static_cast<std::int64_t>(r.low);
    return u;
  }
  for (std::int64_t k = 1; k < u.n; ++k) {
    const Int128 v = Int128{prefix[static_cast<std::size_t>(k - 1)]} * u.n - Int128{k} * u.total;
    u.high = v > u.high ? v : u.high;
    u.low = v < u.low ? v : u.low;
  }
  return u;
}

ProcessorShifts IntegerBridge::shifts() const {
  if (total <= 0) return {};
  return {max_right_shift(high, total, n), max_left_shift(low, total)};
}

ProcessorShifts processor_shifts(const std::vector<double>& loads) {
  std::vector<std::int64_t> prefix(loads.size());
  std::int64_t total = 0;
  for (std::size_t k = 0; k < loads.size(); ++k) prefix[k] = total += static_cast<std::int64_t>(loads[k]);
  return integer_bridge(prefix).shifts();
}

namespace {

// The moments of a block's stored W', D' and shifts, P(W' = 0) and P(D >= 1);
// `squares`: room for w.size() values.
void add_block_moments(MaxShiftSample& acc, std::span<const double> w, std::span<const double> d,
                       std::span<const double> right, std::span<const double> left, std::int64_t d_hits,
                       std::span<double> squares) {
  const auto moments_of_squares = [squares](std::span<const double> values) {
    std::transform(values.begin(), values.end(), squares.begin(), [](double x) { return x * x; });
    return engine::Moments::of(squares.first(values.size()));
  };
  acc.w_prime.merge(engine::Moments::of(w));
  acc.d_prime.merge(engine::Moments::of(d));
  acc.w_prime_sq.merge(moments_of_squares(w));
  acc.d_prime_sq.merge(moments_of_squares(d));
  acc.w_zero.add(std::count(w.begin(), w.end(), 0.0), static_cast<std::int64_t>(w.size()));
  acc.d_ge_1.add(d_hits, static_cast<std::int64_t>(w.size()));
  acc.max_rshift.merge(engine::Moments::of(right));
  acc.max_lshift.merge(engine::Moments::of(left));
}

}  // namespace

void fold_device_shifts(std::span<const double> values, bool integer_loads, MaxShiftSample& acc) {
  const auto stride = static_cast<std::size_t>(integer_loads ? kDeviceIntegerShiftValues : kDeviceShiftValues);
  const std::size_t reps = values.size() / stride;
  const std::span<double> w = acc.w_prime_values.append(reps);
  const std::span<double> d = acc.d_prime_values.append(reps, 1);
  // The shifts and the squares in storage the thread keeps: a GPU's
  // one-replication blocks would otherwise allocate three times a block.
  thread_local std::vector<double> scratch;
  const std::size_t shifts = integer_loads ? reps : 0;
  if (scratch.size() < 2 * shifts + reps) scratch.resize(2 * shifts + reps);
  const std::span<double> right(scratch.data(), shifts), left(scratch.data() + shifts, shifts);
  std::int64_t d_hits = 0;
  for (std::size_t r = 0; r < reps; ++r) {
    const double* v = values.data() + stride * r;
    w[r] = v[0];
    d[r] = v[1];
    d_hits += v[2] != 0.0 ? 1 : 0;
    if (integer_loads) {
      right[r] = v[3];
      left[r] = v[4];
    }
  }
  add_block_moments(acc, w, d, right, left, d_hits, std::span<double>(scratch).subspan(2 * shifts, reps));
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
  // replication when n is small. On the counter-based stream the loads are
  // drawn by the sampler's portable form (the source a GPU runs), a stream
  // per replication.
  template <engine::UniformWords Gen>
    requires std::same_as<Gen, engine::Generator> || requires(const Sampler& s) { s.portable(); }
  void run(Gen& gen, std::int64_t count, Accumulator& acc) const {
    // Scratch reused across blocks: at large n a block is a single
    // replication, and fresh pages for the prefix sums would cost more than
    // the draws.
    thread_local std::vector<double> prefix;
    thread_local std::vector<std::int64_t> whole_prefix;  // integer loads' prefix sums
    prefix.resize(static_cast<std::size_t>(integer_loads && !covariance ? 0 : n));
    whole_prefix.resize(static_cast<std::size_t>(integer_loads ? n : 0));
    Eigen::VectorXd bridge(covariance ? n : 0);
    if (covariance) acc.covariance.emplace();
    const auto reps = static_cast<std::size_t>(count);
    const std::span<double> w = acc.w_prime_values.append(reps);
    const std::span<double> d = acc.d_prime_values.append(reps, 1);
    std::vector<double> right(integer_loads ? reps : 0), left(right.size());
    std::int64_t d_hits = 0;
    const double scale = w_prime_scale();
    const double scale_per_n = scale / static_cast<double>(n);
    // A local copy of the generator stays in registers across the stores of
    // the inner loop; through the reference it is spilled and reloaded.
    Gen local = gen;
    // The sampler's parameters too: stores to the prefix sums could alias the
    // kernel's copy, which would then be reloaded for every draw.
    const auto draw = dist::sampler_for<Gen>(sampler);
    for (std::size_t r = 0; r < reps; ++r) {
      // Pass 1: draw and store prefix sums (the serial sum hides behind the
      // sampler). Pass 2: a dependency-free reduction over them.
      if (integer_loads) {
        // Integer loads sum in a 64-bit integer: exact, held in a register,
        // and stored as it is; pass 2 reads the exact integers n·V.
        const std::int64_t whole = dist::integer_prefix_sums(draw, local, whole_prefix);
        if (covariance) {
          std::transform(whole_prefix.begin(), whole_prefix.end(), prefix.begin(),
                         [](std::int64_t y) { return static_cast<double>(y); });
          bridge_extremes(prefix, ks, static_cast<double>(whole) / static_cast<double>(n), bridge.data());
          acc.covariance->add(bridge);
        }
        // W' and D' from the exact integers n·V: one rounding each.
        const IntegerBridge u = integer_bridge(whole_prefix);
        w[r] = static_cast<double>(u.high) * scale_per_n;
        d[r] = static_cast<double>(u.max_abs()) * scale_per_n;
        d_hits += u.reaches_one_processor() ? 1 : 0;
        const ProcessorShifts shifts = u.shifts();
        right[r] = static_cast<double>(shifts.max_right);
        left[r] = static_cast<double>(shifts.max_left);
      } else {
        double total = 0.0;
        for (double& y : prefix) y = total += draw(local);
        const double mean = total / static_cast<double>(n);
        const BridgeExtremes extremes = bridge_extremes(prefix, ks, mean, covariance ? bridge.data() : nullptr);
        if (covariance) acc.covariance->add(bridge);
        const ShiftValues shift = shift_values(extremes.max, extremes.min, mean, scale);
        w[r] = shift.w_prime;
        d[r] = shift.d_prime;
        d_hits += shift.reaches_one_processor ? 1 : 0;
      }
      engine::next_replication(local);
    }
    gen = local;
    std::vector<double> squares(reps);
    add_block_moments(acc, w, d, right, left, d_hits, squares);
  }

  // 1/(σ√n), which turns max V into W'.
  double w_prime_scale() const { return 1.0 / (sigma * std::sqrt(static_cast<double>(n))); }

  // On a GPU (device.hpp): the loads on the counter-based stream, without
  // the covariance; each replication's values as run() computes them
  // (replication_shift.hpp; integer loads in integers), folded into a
  // block's accumulator as run() builds it.
  std::unique_ptr<engine::DeviceReplications> on_device(const engine::DeviceLaunchPlan& plan) const
    requires requires { sampler.portable(); }
  {
    if (integer_loads) {
      return device_integer_shifts(sampler.portable(), n, w_prime_scale() / static_cast<double>(n), plan);
    }
    return device_shifts(sampler.portable(), n, w_prime_scale(), plan);
  }
  void fold(std::span<const double> values, Accumulator& acc) const {
    fold_device_shifts(values, integer_loads, acc);
  }
};

}  // namespace

engine::Simulated<MaxShiftSample> simulate_max_shift(const dist::LoadLaw& law, std::int64_t n, bool covariance,
                                  engine::RunPlan plan) {
  plan.block_reps = engine::block_size_for(covariance ? n * n : n);
  const double sigma = dist::standard_deviation(law);
  const bool integer_loads = dist::is_integer_valued(law);
  engine::Simulated<MaxShiftSample> result;
  dist::visit_sampler(law, [&](const auto& sampler) {
    using Kernel = MaxShiftKernel<std::decay_t<decltype(sampler)>>;
    const Kernel kernel{sampler, n, sigma, integer_loads, covariance};
    result.run = engine::run_replications(plan, kernel, result.sample);
  });
  return result;
}

}  // namespace lbmc::exp
