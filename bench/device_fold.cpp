// The host's side of a GPU run, timed on the CPU: the driver's device path
// (engine/driver.hpp, run_blocks_on_device) with a stand-in device whose
// launches are instant and whose values are ready, so that what is timed is
// what the host does with a GPU's values: each block's fold into a
// max-load accumulator, the block-indexed reduction, and the quantile
// store's sort after the loop. maxload --device cuda at n = 1024 folds 2^24
// maxima, in blocks of 64 replications, 2^16 blocks a launch.
//
// Usage: device_fold REPS THREADS [BLOCK_REPS]
// Prints "loop_ns store_ns": nanoseconds a replication for the loop (the
// folds and the reduction) and for the sort after it.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <span>
#include <vector>

#include "lbmc/engine/device.hpp"
#include "lbmc/engine/driver.hpp"
#include "lbmc/exp/maxload.hpp"

using namespace lbmc;

namespace {

// A device whose every launch returns the same ready values, one launch's.
class ReadyDevice final : public engine::DeviceReplications {
 public:
  ReadyDevice(std::int64_t blocks_per_launch, std::span<const double> values)
      : blocks_per_launch_(blocks_per_launch), values_(values) {}
  std::int64_t blocks_per_launch() const override { return blocks_per_launch_; }
  std::int64_t values_per_replication() const override { return 1; }
  void launch(int, std::int64_t, std::int64_t) override {}
  std::span<const double> collect(int) override { return values_; }

 private:
  std::int64_t blocks_per_launch_;
  std::span<const double> values_;
};

// maxload's brute-force kernel as the device path sees it: values folded
// into the maxima's store and moments.
struct FoldKernel {
  using Accumulator = exp::MaxLoadSample;
  std::int64_t blocks_per_launch;
  std::span<const double> launch_values;

  Accumulator make_accumulator() const { return {}; }
  template <class Gen>
  void run(Gen&, std::int64_t, Accumulator&) const {
    std::abort();  // the device path only
  }
  std::unique_ptr<engine::DeviceReplications> on_device(const engine::DeviceLaunchPlan&) const {
    return std::make_unique<ReadyDevice>(blocks_per_launch, launch_values);
  }
  void fold(std::span<const double> block, Accumulator& acc) const {
    const std::span<double> maxima = acc.quantiles.append(block.size());
    std::copy(block.begin(), block.end(), maxima.begin());
    acc.moments.merge(engine::Moments::of(maxima));
  }
};

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: device_fold REPS THREADS [BLOCK_REPS]\n");
    return 2;
  }
  const std::int64_t reps = std::atoll(argv[1]);
  const int threads = std::atoi(argv[2]);
  const std::int64_t block_reps = argc > 3 ? std::atoll(argv[3]) : 64;
  engine::RunPlan plan = engine::RunPlan::fixed(9, reps, threads);
  plan.block_reps = block_reps;
  plan.stream = engine::Stream::philox;
  plan.device = engine::Device::cuda;
  plan.progress = engine::ProgressMode::never;
  // One launch's values, maxima near 3, made before the run is timed.
  const std::int64_t blocks_per_launch = engine::device_reps_per_launch(1024) / block_reps;
  std::vector<double> values(static_cast<std::size_t>(blocks_per_launch * block_reps));
  engine::Generator gen = engine::block_generator(1, 0);
  for (double& v : values) v = 3.0 + static_cast<double>(gen() >> 11) * 0x1p-53;
  const FoldKernel kernel{blocks_per_launch, values};
  exp::MaxLoadSample total;
  const engine::RunReport report = engine::run_replications(plan, kernel, total);
  const double per_rep = 1e9 / static_cast<double>(reps);
  std::printf("%.4f %.4f\n", (report.wall_seconds - report.store_seconds) * per_rep, report.store_seconds * per_rep);
  return 0;
}
