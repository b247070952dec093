// The source a GPU runs under --device cuda, run on the host: Philox calls
// as Random123 computes them, the per-replication streams, maxload's maxima
// and maxshift's W', D' and D >= 1 under --rng philox equal to what the
// device kernels compute (the same functions, one replication at a time),
// and the driver's device path (launches in two slots, folded on the host)
// giving the bytes of the CPU's, with an emulated device.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <memory>
#include <span>
#include <numeric>
#include <utility>
#include <vector>

#include "lbmc/dist/samplers.hpp"
#include "lbmc/engine/device.hpp"
#include "lbmc/engine/driver.hpp"
#include "lbmc/engine/fields.hpp"
#include "lbmc/engine/philox.hpp"
#include "lbmc/engine/run_journal.hpp"
#include "lbmc/exp/maxload.hpp"
#include "lbmc/exp/maxshift.hpp"
#include "lbmc/exp/scatter.hpp"
#include "maxload/replication_max.hpp"
#include "maxshift/replication_shift.hpp"
#include "scatter/replication_scatter.hpp"

namespace shared_kernel_test {

namespace {

using lbmc::engine::PhiloxStream;
using lbmc::engine::PhiloxWords;
namespace dist = lbmc::dist;
namespace engine = lbmc::engine;
namespace exp = lbmc::exp;

// The values of blocks [first, last) as a device kernel computes them:
// replication r of block b from PhiloxWords(key of b, b, r), through
// `replication`, which appends the replication's values.
template <class Replication>
std::vector<double> kernel_values(const engine::DeviceLaunchPlan& plan, std::int64_t first, std::int64_t last,
                                  const Replication& replication) {
  std::vector<double> values;
  for (std::int64_t b = first; b < last; ++b) {
    const std::int64_t size = engine::block_size(b, plan.block_reps, plan.reps_limit);
    for (std::int64_t r = 0; r < size; ++r) {
      const auto block = static_cast<std::uint64_t>(b);
      PhiloxWords words(engine::philox_block_key(plan.seed, block), block, static_cast<std::uint64_t>(r));
      replication(words, values);
    }
  }
  return values;
}

// The maxima of n draws, as device_maxima computes them.
template <class Sampler>
std::vector<double> kernel_maxima(const Sampler& draw, std::int64_t n, const engine::DeviceLaunchPlan& plan,
                                  std::int64_t first, std::int64_t last) {
  return kernel_values(plan, first, last, [&](PhiloxWords& words, std::vector<double>& values) {
    values.push_back(exp::replication_max(draw, words, n));
  });
}

// The maximum and the minimum of n >= 1 draws.
template <class Words>
std::pair<double, double> range_of_draws(const dist::PortableNormal& draw, Words& words, std::int64_t n) {
  double high = draw(words);
  double low = high;
  for (std::int64_t i = 1; i < n; ++i) {
    const double x = draw(words);
    high = std::max(high, x);
    low = std::min(low, x);
  }
  return {high, low};
}

// The maximum and the minimum of n draws: two values a replication.
std::vector<double> kernel_ranges(const dist::PortableNormal& draw, std::int64_t n,
                                  const engine::DeviceLaunchPlan& plan, std::int64_t first, std::int64_t last) {
  return kernel_values(plan, first, last, [&](PhiloxWords& words, std::vector<double>& values) {
    const auto [high, low] = range_of_draws(draw, words, n);
    values.push_back(high);
    values.push_back(low);
  });
}

// A device that computes on the host, `per_launch` blocks at a time: the
// maxima of n draws, or with `ranges` their maxima and minima.
class EmulatedDevice final : public engine::DeviceReplications {
 public:
  EmulatedDevice(dist::PortableNormal draw, std::int64_t n, engine::DeviceLaunchPlan plan, std::int64_t per_launch,
                 bool ranges)
      : draw_(draw), n_(n), plan_(plan), per_launch_(per_launch), ranges_(ranges) {}
  std::int64_t blocks_per_launch() const override { return per_launch_; }
  std::int64_t values_per_replication() const override { return ranges_ ? 2 : 1; }
  void launch(int slot, std::int64_t first, std::int64_t last) override {
    CHECK(last - first <= per_launch_);
    CHECK(!pending_[slot]);
    slots_[slot] = ranges_ ? kernel_ranges(draw_, n_, plan_, first, last)
                           : kernel_maxima(draw_, n_, plan_, first, last);
    pending_[slot] = true;
  }
  std::span<const double> collect(int slot) override {
    CHECK(pending_[slot]);
    pending_[slot] = false;
    return slots_[slot];
  }

 private:
  dist::PortableNormal draw_;
  std::int64_t n_;
  engine::DeviceLaunchPlan plan_;
  std::int64_t per_launch_;
  bool ranges_;
  std::array<std::vector<double>, 2> slots_;
  std::array<bool, 2> pending_{};
};

// maxload's brute-force kernel in small: maxima of n normals, on the
// counter-based stream or on the emulated device. With `ranges` the device
// returns each replication's maximum and minimum, and the minima's moments
// join the accumulator's maxima (a kernel of two values a replication).
struct MaximaKernel {
  using Accumulator = exp::MaxLoadSample;
  dist::PortableNormal draw;
  std::int64_t n;
  std::int64_t per_launch;
  bool ranges = false;

  Accumulator make_accumulator() const { return {}; }
  template <class Gen>
  void run(Gen& gen, std::int64_t count, Accumulator& acc) const {
    const std::span<double> maxima = acc.quantiles.append(static_cast<std::size_t>(count));
    std::vector<double> minima;
    for (double& max : maxima) {
      if (ranges) {
        const auto [high, low] = range_of_draws(draw, gen, n);
        max = high;
        minima.push_back(low);
      } else {
        max = exp::replication_max(draw, gen, n);
      }
      engine::next_replication(gen);
    }
    acc.moments.merge(engine::Moments::of(maxima));
    acc.moments.merge(engine::Moments::of(minima));
  }
  std::unique_ptr<engine::DeviceReplications> on_device(const engine::DeviceLaunchPlan& plan) const {
    return std::make_unique<EmulatedDevice>(draw, n, plan, per_launch, ranges);
  }
  void fold(std::span<const double> values, Accumulator& acc) const {
    const std::size_t stride = ranges ? 2 : 1;
    const std::span<double> maxima = acc.quantiles.append(values.size() / stride);
    std::vector<double> minima;
    for (std::size_t r = 0; r < maxima.size(); ++r) {
      maxima[r] = values[stride * r];
      if (ranges) minima.push_back(values[stride * r + 1]);
    }
    acc.moments.merge(engine::Moments::of(maxima));
    acc.moments.merge(engine::Moments::of(minima));
  }
};

}  // namespace

TEST_SUITE("fast") {
  TEST_CASE("shared kernel: philox_call is Random123's Philox4x32-10 for any key and counter") {
    std::uint64_t mix = 2026;
    for (int trial = 0; trial < 500; ++trial) {
      const std::uint64_t key = engine::splitmix64(mix);
      const std::uint64_t low = engine::splitmix64(mix);
      const std::uint64_t high = engine::splitmix64(mix);
      const auto expected = engine::philox4x32_10(
          {static_cast<std::uint32_t>(low), static_cast<std::uint32_t>(low >> 32), static_cast<std::uint32_t>(high),
           static_cast<std::uint32_t>(high >> 32)},
          {static_cast<std::uint32_t>(key), static_cast<std::uint32_t>(key >> 32)});
      CHECK(engine::philox_call(key, low, high) == expected);
    }
  }

  TEST_CASE("shared kernel: replication r of a block draws Philox calls (i | r 2^52 - block) - the same one call at a time and 16 at a time") {
    const std::uint64_t seed = 77;
    const std::uint64_t block = 5;
    const std::uint64_t key = engine::philox_block_key(seed, block);
    CHECK(key == engine::block_seed_words(seed, block)[0]);
    PhiloxStream stream = engine::block_philox(seed, block);
    for (std::uint64_t r = 0; r < 6; ++r) {
      PhiloxWords words(key, block, r);
      const std::uint64_t drawn = 7 + 13 * r;  // past a refill of 32 words for r >= 2
      for (std::uint64_t i = 0; i < drawn; ++i) {
        const auto call = engine::philox_call(key, (i / 2) | (r << 52), block);
        const std::uint64_t expected = i % 2 == 0 ? call[0] | (std::uint64_t{call[1]} << 32)
                                                  : call[2] | (std::uint64_t{call[3]} << 32);
        CHECK(words() == expected);
        CHECK(stream() == expected);
      }
      CHECK(stream.drawn() == drawn);
      stream.next_replication();
    }
  }

  TEST_CASE("shared kernel: a replication's steps change none of its outputs - whatever the draws between them use") {
    const std::uint64_t key = engine::philox_block_key(91, 3);
    for (std::uint64_t pattern = 0; pattern < 64; ++pattern) {
      PhiloxWords plain(key, 3, pattern % 7);
      PhiloxWords stepped(key, 3, pattern % 7);
      // Draws of 0, 1, 2 or 3 outputs after each step (a constant, the fast
      // path, rejections), in a pattern of its own for each case.
      std::uint64_t mix = pattern;
      for (int k = 0; k < 200; ++k) {
        stepped.step();
        const std::uint64_t outputs = engine::splitmix64(mix) % 4;
        for (std::uint64_t o = 0; o < outputs; ++o) REQUIRE(stepped() == plain());
      }
    }
  }

  TEST_CASE("shared kernel: maxload's maxima under --rng philox are the device kernel's - replication by replication") {
    // Normal and exponential maxima go through the ziggurats' wedge tests and
    // tails with lbmc's own exp and log; 3000 replications in blocks of 1024
    // (the last one short).
    const std::uint64_t seed = 31;
    const std::int64_t n = 64;
    const std::int64_t reps = 3000;
    const auto check_law = [&](const dist::LoadLaw& law, const auto& portable) {
      engine::RunPlan plan = engine::RunPlan::fixed(seed, reps, 2);
      plan.stream = engine::Stream::philox;
      const auto [sample, run] = exp::simulate_max_load(law, n, plan);
      const std::int64_t block_reps = engine::block_size_for(n);
      const engine::DeviceLaunchPlan device{seed, block_reps, reps, 0};
      std::vector<double> expected = kernel_maxima(portable, n, device, 0, (reps + block_reps - 1) / block_reps);
      std::sort(expected.begin(), expected.end());
      const lbmc::engine::QuantileResult result = sample.quantiles.result();
      const std::span<const double> stored = result.sorted_values();
      REQUIRE(stored.size() == expected.size());
      CHECK(std::equal(stored.begin(), stored.end(), expected.begin()));
    };
    check_law(dist::Normal{0, 1}, dist::NormalSampler(dist::Normal{0, 1}).portable());
    check_law(dist::Exponential{2}, dist::ExponentialSampler(dist::Exponential{2}).portable());
    check_law(dist::Uniform{-1, 3}, dist::UniformSampler(dist::Uniform{-1, 3}).portable());
    // The integer laws by their tables (Binomial(40, 0.9) counted down from
    // the top) and by rejection (PTRS, BTRS), with lbmc's own log.
    for (const dist::Poisson law : {dist::Poisson{10}, dist::Poisson{1e8}}) {
      const dist::PoissonSampler sampler(law);
      check_law(law, sampler.portable());
    }
    for (const dist::Binomial law : {dist::Binomial{4096, 0.5}, dist::Binomial{40, 0.9}, dist::Binomial{1000000000, 0.3}}) {
      const dist::BinomialSampler sampler(law);
      check_law(law, sampler.portable());
    }
  }

  TEST_CASE("shared kernel: maxshift's W' - D' and D >= 1 under --rng philox are the device kernel's - replication by replication") {
    // The host keeps the prefix sums and takes the bridge's extremes in a
    // vectorised pass; the device kernel draws the loads twice. n = 2, 37
    // (a scalar tail after the lanes) and 64, in blocks of 1024 or more, the
    // last one short.
    const std::uint64_t seed = 47;
    const std::int64_t reps = 2500;
    const auto check_law = [&](const dist::LoadLaw& law, const auto& portable, std::int64_t n) {
      CAPTURE(n);
      engine::RunPlan plan = engine::RunPlan::fixed(seed, reps, 2);
      plan.stream = engine::Stream::philox;
      const auto [sample, run] = exp::simulate_max_shift(law, n, false, plan);
      const double scale = 1.0 / (dist::standard_deviation(law) * std::sqrt(static_cast<double>(n)));
      const std::int64_t block_reps = engine::block_size_for(n);
      const engine::DeviceLaunchPlan device{seed, block_reps, reps, 0};
      std::vector<double> w, d;
      std::int64_t hits = 0;
      kernel_values(device, 0, (reps + block_reps - 1) / block_reps, [&](PhiloxWords& words, std::vector<double>&) {
        const exp::ShiftValues shift = exp::replication_shift(portable, words, n, scale);
        w.push_back(shift.w_prime);
        d.push_back(shift.d_prime);
        hits += shift.reaches_one_processor ? 1 : 0;
      });
      std::sort(w.begin(), w.end());
      std::sort(d.begin(), d.end());
      const lbmc::engine::QuantileResult w_result = sample.w_prime_values.result();
      const lbmc::engine::QuantileResult d_result = sample.d_prime_values.result();
      const std::span<const double> w_stored = w_result.sorted_values();
      const std::span<const double> d_stored = d_result.sorted_values();
      REQUIRE(w_stored.size() == w.size());
      REQUIRE(d_stored.size() == d.size());
      CHECK(std::equal(w_stored.begin(), w_stored.end(), w.begin()));
      CHECK(std::equal(d_stored.begin(), d_stored.end(), d.begin()));
      CHECK(sample.d_ge_1.hits() == hits);
      CHECK(sample.d_ge_1.trials() == reps);
      return hits;
    };
    for (const std::int64_t n : {2, 37, 64}) {
      // Mean 5 and sigma 1: D >= 1 in some replications and not in others.
      const std::int64_t hits = check_law(dist::Normal{5, 1}, dist::NormalSampler(dist::Normal{5, 1}).portable(), n);
      if (n == 64) {
        CHECK(hits > reps / 10);
        CHECK(hits < reps - reps / 10);
      }
      check_law(dist::Exponential{2}, dist::ExponentialSampler(dist::Exponential{2}).portable(), n);
      check_law(dist::Uniform{-1, 3}, dist::UniformSampler(dist::Uniform{-1, 3}).portable(), n);
    }
  }

  TEST_CASE("shared kernel: maxshift of integer loads under --rng philox is the device kernel's - shifts decided in integers") {
    // The host keeps the exact prefix sums and their integer bridge; the
    // device kernel sums the loads twice in 64-bit integers and forms n·V in
    // 128 bits.
    const std::uint64_t seed = 59;
    const std::int64_t reps = 2500;
    const auto check_law = [&](const dist::LoadLaw& law, const auto& portable, std::int64_t n) {
      CAPTURE(n);
      engine::RunPlan plan = engine::RunPlan::fixed(seed, reps, 2);
      plan.stream = engine::Stream::philox;
      const auto [sample, run] = exp::simulate_max_shift(law, n, false, plan);
      const double scale = 1.0 / (dist::standard_deviation(law) * std::sqrt(static_cast<double>(n)));
      const std::int64_t block_reps = engine::block_size_for(n);
      const engine::DeviceLaunchPlan device{seed, block_reps, reps, 0};
      std::vector<double> w, d;
      engine::Moments right, left;
      std::int64_t hits = 0;
      kernel_values(device, 0, (reps + block_reps - 1) / block_reps, [&](PhiloxWords& words, std::vector<double>&) {
        const exp::IntegerShiftValues shift =
            exp::replication_integer_shift(portable, words, n, scale / static_cast<double>(n));
        w.push_back(shift.w_prime);
        d.push_back(shift.d_prime);
        right.add(static_cast<double>(shift.max_right));
        left.add(static_cast<double>(shift.max_left));
        hits += shift.reaches_one_processor ? 1 : 0;
      });
      std::sort(w.begin(), w.end());
      std::sort(d.begin(), d.end());
      const lbmc::engine::QuantileResult w_result = sample.w_prime_values.result();
      const lbmc::engine::QuantileResult d_result = sample.d_prime_values.result();
      const std::span<const double> w_stored = w_result.sorted_values();
      const std::span<const double> d_stored = d_result.sorted_values();
      REQUIRE(w_stored.size() == w.size());
      CHECK(std::equal(w_stored.begin(), w_stored.end(), w.begin()));
      CHECK(std::equal(d_stored.begin(), d_stored.end(), d.begin()));
      CHECK(sample.d_ge_1.hits() == hits);
      // The shifts' moments are merged block by block on the host, here
      // added one by one: equal to a few ulps.
      CHECK(sample.max_rshift.count() == right.count());
      CHECK(sample.max_rshift.mean() == doctest::Approx(right.mean()).epsilon(1e-13));
      CHECK(sample.max_lshift.mean() == doctest::Approx(left.mean()).epsilon(1e-13));
      CHECK(sample.max_rshift.variance() == doctest::Approx(right.variance()).epsilon(1e-12));
      return hits;
    };
    for (const std::int64_t n : {2, 37, 64}) {
      const dist::Poisson poisson{10};
      const std::int64_t hits = check_law(poisson, dist::PoissonSampler(poisson).portable(), n);
      if (n == 64) CHECK(hits > 0);
      const dist::Binomial binomial{40, 0.9};
      check_law(binomial, dist::BinomialSampler(binomial).portable(), n);
    }
  }

  TEST_CASE("shared kernel: the integer bridge's extremes are n*Y_k - k*T's in 64 bits and past them in 128") {
    // u_k stepped by n·X_k - T against n·Y_k - k·T from the same draws, in
    // 128 bits: Poisson(10) at n = 64 (64-bit steps), Poisson(1e10) at n =
    // 50000 (n·T about 2.5e19: 128-bit steps).
    const auto check_law = [](const auto& portable, std::int64_t n, bool past_64_bits) {
      CAPTURE(n);
      for (std::uint64_t r = 0; r < 3; ++r) {
        PhiloxWords words(engine::philox_block_key(61, 0), 0, r);
        PhiloxWords again = words;
        std::vector<std::int64_t> draws;
        for (std::int64_t k = 0; k < n; ++k) {
          draws.push_back(static_cast<std::int64_t>(engine::stepped_draw(portable, again)));
        }
        const std::int64_t total = std::accumulate(draws.begin(), draws.end(), std::int64_t{0});
        CHECK((exp::DeviceInt128{total} * n > exp::DeviceInt128{INT64_MAX}) == past_64_bits);
        exp::DeviceInt128 high = 0, low = 0;
        std::int64_t y = 0;
        for (std::int64_t k = 1; k < n; ++k) {
          y += draws[static_cast<std::size_t>(k - 1)];
          const exp::DeviceInt128 u = exp::DeviceInt128{y} * n - exp::DeviceInt128{k} * total;
          high = std::max(high, u);
          low = std::min(low, u);
        }
        REQUIRE(high > 0);
        REQUIRE(low < 0);
        const exp::IntegerShiftValues shift = exp::replication_integer_shift(portable, words, n, 1.0);
        CHECK(shift.w_prime == static_cast<double>(high));
        CHECK(shift.d_prime == static_cast<double>(std::max(high, -low)));
        CHECK(shift.max_right == exp::max_right_shift(high, total, n));
        CHECK(shift.max_left == exp::max_left_shift(low, total));
      }
    };
    const dist::Poisson small{10}, large{1e10};
    check_law(dist::PoissonSampler(small).portable(), 64, false);
    check_law(dist::PoissonSampler(large).portable(), 50000, true);
  }

  TEST_CASE("shared kernel: scatter's l and l_obs under --rng philox are the device kernel's - replication by replication") {
    // The host sums processor by processor, looking for a stop between
    // processors and, past 2^20 tasks, within one; the device kernel sums
    // them without looking.
    const std::uint64_t seed = 53;
    const auto check_law = [&](const dist::LoadLaw& law, const auto& portable, std::int64_t tasks,
                               std::int64_t procs, std::int64_t reps) {
      CAPTURE(tasks);
      CAPTURE(procs);
      engine::RunPlan plan = engine::RunPlan::fixed(seed, reps, 2);
      plan.stream = engine::Stream::philox;
      const auto [sample, run] = exp::simulate_scatter(law, tasks, procs, plan);
      const double m_proc = static_cast<double>(tasks) * dist::mean(law);
      const std::int64_t block_reps = engine::block_size_for(tasks * procs);
      const engine::DeviceLaunchPlan device{seed, block_reps, reps, 0};
      std::vector<double> l, l_obs;
      kernel_values(device, 0, (reps + block_reps - 1) / block_reps, [&](PhiloxWords& words, std::vector<double>&) {
        const exp::ScatterValues values = exp::replication_scatter(portable, words, tasks, procs, m_proc);
        l.push_back(values.l);
        l_obs.push_back(values.l_obs);
      });
      std::sort(l.begin(), l.end());
      std::sort(l_obs.begin(), l_obs.end());
      const lbmc::engine::QuantileResult l_result = sample.l_values.result();
      const lbmc::engine::QuantileResult l_obs_result = sample.l_obs_values.result();
      const std::span<const double> l_stored = l_result.sorted_values();
      const std::span<const double> l_obs_stored = l_obs_result.sorted_values();
      REQUIRE(l_stored.size() == l.size());
      REQUIRE(l_obs_stored.size() == l_obs.size());
      CHECK(std::equal(l_stored.begin(), l_stored.end(), l.begin()));
      CHECK(std::equal(l_obs_stored.begin(), l_obs_stored.end(), l_obs.begin()));
    };
    const dist::Normal normal{5, 1};
    const dist::Exponential exponential{2};
    const dist::Uniform uniform{1, 3};
    const dist::Constant constant{2.5};
    for (const auto& [tasks, procs] : {std::pair<std::int64_t, std::int64_t>{1, 1}, {3, 5}, {10, 37}}) {
      check_law(normal, dist::NormalSampler(normal).portable(), tasks, procs, 2000);
      check_law(exponential, dist::ExponentialSampler(exponential).portable(), tasks, procs, 2000);
      check_law(uniform, dist::UniformSampler(uniform).portable(), tasks, procs, 2000);
      check_law(constant, dist::ConstantSampler(constant).portable(), tasks, procs, 100);
      const dist::Poisson poisson{30};  // a total of 0 (l_obs = 0/0) nearly impossible
      check_law(poisson, dist::PoissonSampler(poisson).portable(), tasks, procs, 2000);
    }
    // Past a span of tasks: the host's sum looks for a stop within it.
    check_law(exponential, dist::ExponentialSampler(exponential).portable(), engine::kInterruptPollSpan + 3, 2, 3);
  }

  TEST_CASE("shared kernel: the driver's device path gives the CPU's bytes - fixed and open-ended runs at 1 and 2 threads") {
    const dist::PortableNormal draw = dist::NormalSampler(dist::Normal{1, 2}).portable();
    for (const int threads : {1, 2}) {
      for (const auto& [per_launch, ranges] : {std::pair{1, false}, {3, true}, {64, false}, {64, true}}) {
        engine::RunPlan plan = engine::RunPlan::fixed(9, 1000, threads);
        plan.block_reps = 64;  // 16 blocks, the last one short
        plan.stream = engine::Stream::philox;
        CAPTURE(ranges);
        const MaximaKernel kernel{draw, 32, per_launch, ranges};
        exp::MaxLoadSample on_cpu;
        engine::run_replications(plan, kernel, on_cpu);
        plan.device = engine::Device::cuda;
        exp::MaxLoadSample on_device;
        const engine::RunReport report = engine::run_replications(plan, kernel, on_device);
        CHECK(report.reps == 1000);
        CHECK(engine::to_bytes(on_device) == engine::to_bytes(on_cpu));

        plan.target_rse = 0.002;  // waves until the mean's se is 0.2% of it
        plan.reps = 200;
        plan.max_reps = 50000;
        plan.device = engine::Device::cpu;
        exp::MaxLoadSample open_cpu;
        const engine::RunReport cpu_report = engine::run_replications(plan, kernel, open_cpu);
        plan.device = engine::Device::cuda;
        exp::MaxLoadSample open_device;
        const engine::RunReport device_report = engine::run_replications(plan, kernel, open_device);
        CHECK(device_report.reps == cpu_report.reps);
        CHECK(cpu_report.reps > 200);
        CHECK(engine::to_bytes(open_device) == engine::to_bytes(open_cpu));
      }
    }
  }

  TEST_CASE("shared kernel: blocks a restored run holds are skipped on the device path - the bytes of the CPU's run") {
    const dist::PortableNormal draw = dist::NormalSampler(dist::Normal{1, 2}).portable();
    for (const int threads : {1, 2}) {
      engine::RunPlan plan = engine::RunPlan::fixed(9, 1000, threads);
      plan.block_reps = 64;  // 16 blocks, the last one short
      plan.stream = engine::Stream::philox;
      const MaximaKernel kernel{draw, 32, 3};  // 3 blocks a launch
      exp::MaxLoadSample on_cpu;
      engine::run_replications(plan, kernel, on_cpu);
      // A state at boundary 0 that holds blocks 0, 2, 5, 9 and 15 (the short
      // one): scattered through the launches' ranges and the threads' shares.
      engine::CallState call;
      call.identity = {plan.seed, plan.reps, plan.max_reps, plan.block_reps, plan.target_rse};
      for (const std::int64_t block : {0, 2, 5, 9, 15}) {
        exp::MaxLoadSample acc;
        engine::run_block_on_philox(kernel, plan.seed, static_cast<std::uint64_t>(block),
                                    engine::block_size(block, plan.block_reps, plan.reps), acc);
        call.nodes.push_back({0, block, engine::to_bytes(acc)});
      }
      engine::RunJournal::get().restore(engine::RunState{{}, {}, {call}, {}});
      plan.device = engine::Device::cuda;
      exp::MaxLoadSample on_device;
      const engine::RunReport report = engine::run_replications(plan, kernel, on_device);
      engine::RunJournal::get().reset();
      CHECK(report.reps == 1000);
      CHECK(engine::to_bytes(on_device) == engine::to_bytes(on_cpu));
    }
  }
}

}  // namespace shared_kernel_test
