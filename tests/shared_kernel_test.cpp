// The source a GPU runs under --device cuda, run on the host: Philox calls
// as Random123 computes them, the per-replication streams, maxload's maxima
// under --rng philox equal to the maxima the device kernel computes (the
// same functions, one replication at a time), and the driver's device path
// (launches in two slots, folded on the host) giving the bytes of the
// CPU's, with an emulated device.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "lbmc/dist/samplers.hpp"
#include "lbmc/engine/device.hpp"
#include "lbmc/engine/driver.hpp"
#include "lbmc/engine/fields.hpp"
#include "lbmc/engine/philox.hpp"
#include "lbmc/exp/maxload.hpp"
#include "maxload/replication_max.hpp"

namespace {

using lbmc::engine::PhiloxStream;
using lbmc::engine::PhiloxWords;
namespace dist = lbmc::dist;
namespace engine = lbmc::engine;
namespace exp = lbmc::exp;

// The maxima of blocks [first, last) as the device kernel computes them:
// replication r of block b from PhiloxWords(key of b, b, r).
template <class Sampler>
std::vector<double> kernel_maxima(const Sampler& draw, std::int64_t n, const engine::DeviceLaunchPlan& plan,
                                  std::int64_t first, std::int64_t last) {
  std::vector<double> maxima;
  for (std::int64_t b = first; b < last; ++b) {
    const std::int64_t size = engine::block_size(b, plan.block_reps, plan.reps_limit);
    for (std::int64_t r = 0; r < size; ++r) {
      const auto block = static_cast<std::uint64_t>(b);
      PhiloxWords words(engine::philox_block_key(plan.seed, block), block, static_cast<std::uint64_t>(r));
      maxima.push_back(exp::replication_max(draw, words, n));
    }
  }
  return maxima;
}

// A device that computes on the host, `per_launch` blocks at a time.
class EmulatedDevice final : public engine::DeviceReplications {
 public:
  EmulatedDevice(dist::PortableNormal draw, std::int64_t n, engine::DeviceLaunchPlan plan, std::int64_t per_launch)
      : draw_(draw), n_(n), plan_(plan), per_launch_(per_launch) {}
  std::int64_t blocks_per_launch() const override { return per_launch_; }
  void launch(int slot, std::int64_t first, std::int64_t last) override {
    CHECK(last - first <= per_launch_);
    CHECK(!pending_[slot]);
    slots_[slot] = kernel_maxima(draw_, n_, plan_, first, last);
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
  std::array<std::vector<double>, 2> slots_;
  std::array<bool, 2> pending_{};
};

// maxload's brute-force kernel in small: maxima of n normals, on the
// counter-based stream or on the emulated device.
struct MaximaKernel {
  using Accumulator = exp::MaxLoadSample;
  dist::PortableNormal draw;
  std::int64_t n;
  std::int64_t per_launch;

  Accumulator make_accumulator() const { return {}; }
  template <class Gen>
  void run(Gen& gen, std::int64_t count, Accumulator& acc) const {
    const std::span<double> maxima = acc.quantiles.append(static_cast<std::size_t>(count));
    for (double& max : maxima) {
      max = exp::replication_max(draw, gen, n);
      engine::next_replication(gen);
    }
    acc.moments.merge(engine::Moments::of(maxima));
  }
  std::unique_ptr<engine::DeviceReplications> on_device(const engine::DeviceLaunchPlan& plan) const {
    return std::make_unique<EmulatedDevice>(draw, n, plan, per_launch);
  }
  void fold(std::span<const double> values, Accumulator& acc) const {
    const std::span<double> maxima = acc.quantiles.append(values.size());
    std::copy(values.begin(), values.end(), maxima.begin());
    acc.moments.merge(engine::Moments::of(maxima));
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
  }

  TEST_CASE("shared kernel: the driver's device path gives the CPU's bytes - fixed and open-ended runs at 1 and 2 threads") {
    const dist::PortableNormal draw = dist::NormalSampler(dist::Normal{1, 2}).portable();
    for (const int threads : {1, 2}) {
      for (const std::int64_t per_launch : {1, 3, 64}) {
        engine::RunPlan plan = engine::RunPlan::fixed(9, 1000, threads);
        plan.block_reps = 64;  // 16 blocks, the last one short
        plan.stream = engine::Stream::philox;
        const MaximaKernel kernel{draw, 32, per_launch};
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
}
