// The host's side of a GPU run, timed on the CPU: the driver's device path
// (engine/driver.hpp, run_blocks_on_device) with a stand-in device whose
// launches are instant and whose values are ready, so that what is timed is
// what the host does with a GPU's values: each block's fold into the
// kernel's accumulator, the block-indexed reduction, and the quantile
// stores' sort after the loop. maxload --device cuda at n = 1024 folds 2^24
// maxima, in blocks of 64 replications, 2^16 blocks a launch; maxshift
// folds W', D' and the indicator of D >= 1 of each replication into two
// stores (exp::fold_device_shifts), in blocks of one replication at large n.
//
// Usage: device_fold REPS THREADS [BLOCK_REPS [maxload|maxshift]]
// Prints "loop_ns store_ns": nanoseconds a replication for the loop (the
// folds and the reduction) and for the sort after it.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "lbmc/engine/device.hpp"
#include "lbmc/engine/driver.hpp"
#include "lbmc/exp/device_kernels.hpp"
#include "lbmc/exp/maxload.hpp"
#include "lbmc/exp/maxshift.hpp"

using namespace lbmc;

namespace {

// A device whose every launch returns the same ready values, one launch's.
class ReadyDevice final : public engine::DeviceReplications {
 public:
  ReadyDevice(std::int64_t blocks_per_launch, std::int64_t values_per_replication, std::span<const double> values)
      : blocks_per_launch_(blocks_per_launch), values_per_replication_(values_per_replication), values_(values) {}
  std::int64_t blocks_per_launch() const override { return blocks_per_launch_; }
  std::int64_t values_per_replication() const override { return values_per_replication_; }
  void launch(int, std::int64_t, std::int64_t) override {}
  std::span<const double> collect(int) override { return values_; }

 private:
  std::int64_t blocks_per_launch_;
  std::int64_t values_per_replication_;
  std::span<const double> values_;
};

// A kernel as the device path sees it: one launch's values, handed over
// for every launch and folded by the kernel's own fold.
template <class Sample>
struct FoldKernel {
  using Accumulator = Sample;
  std::int64_t blocks_per_launch;
  std::int64_t values_per_replication;
  std::span<const double> launch_values;
  void (*fold_values)(std::span<const double>, Sample&);

  Accumulator make_accumulator() const { return {}; }
  template <class Gen>
  void run(Gen&, std::int64_t, Accumulator&) const {
    std::abort();  // the device path only
  }
  std::unique_ptr<engine::DeviceReplications> on_device(const engine::DeviceLaunchPlan&) const {
    return std::make_unique<ReadyDevice>(blocks_per_launch, values_per_replication, launch_values);
  }
  void fold(std::span<const double> block, Accumulator& acc) const { fold_values(block, acc); }
};

// Runs `Sample`'s fold over REPS replications; prints the two times.
template <class Sample>
int time_fold(const engine::RunPlan& plan, std::int64_t values_per_replication,
              void (*fold_values)(std::span<const double>, Sample&)) {
  // One launch's values (W', D' and the indicator for maxshift; maxima
  // near 3 for maxload), made before the run is timed.
  const std::int64_t blocks_per_launch = engine::device_reps_per_launch(1024) / plan.block_reps;
  std::vector<double> values(static_cast<std::size_t>(blocks_per_launch * plan.block_reps * values_per_replication));
  engine::Generator gen = engine::block_generator(1, 0);
  for (double& v : values) v = 3.0 + static_cast<double>(gen() >> 11) * 0x1p-53;
  const FoldKernel<Sample> kernel{blocks_per_launch, values_per_replication, values, fold_values};
  Sample total;
  const engine::RunReport report = engine::run_replications(plan, kernel, total);
  const double per_rep = 1e9 / static_cast<double>(plan.reps);
  std::printf("%.4f %.4f\n", (report.wall_seconds - report.store_seconds) * per_rep, report.store_seconds * per_rep);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string kernel = argc > 4 ? argv[4] : "maxload";
  if (argc < 3 || (kernel != "maxload" && kernel != "maxshift")) {
    std::fprintf(stderr, "usage: device_fold REPS THREADS [BLOCK_REPS [maxload|maxshift]]\n");
    return 2;
  }
  const std::int64_t reps = std::atoll(argv[1]);
  const int threads = std::atoi(argv[2]);
  engine::RunPlan plan = engine::RunPlan::fixed(9, reps, threads);
  plan.block_reps = argc > 3 ? std::atoll(argv[3]) : 64;
  plan.stream = engine::Stream::philox;
  plan.device = engine::Device::cuda;
  plan.progress = engine::ProgressMode::never;
  if (kernel == "maxshift") {
    return time_fold<exp::MaxShiftSample>(plan, exp::kDeviceShiftValues,
                                          [](std::span<const double> values, exp::MaxShiftSample& acc) {
                                            exp::fold_device_shifts(values, false, acc);
                                          });
  }
  return time_fold<exp::MaxLoadSample>(plan, 1, exp::fold_device_maxima);
}
