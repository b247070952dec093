// Where a run's replications are computed: on the CPU's threads, or on a
// CUDA GPU (`--device cuda`), which computes per-replication values of many
// blocks at once and leaves the rest of the run to the host.
//
// Design note
// - A kernel that runs on a GPU provides, beside its run() (driver.hpp),
//     std::unique_ptr<DeviceReplications> on_device(const DeviceLaunchPlan&) const;
//     void fold(std::span<const double> values, Accumulator&) const;
//   on_device() prepares the device (tables, buffers); fold() turns one
//   block's values (values_per_replication() a replication, in replication
//   order) into the block's accumulator exactly as run() would have, so that
//   the host's reduction, stopping rules, checkpoints and MPI are those of a
//   CPU run.
// - The driver (driver.hpp, run_blocks_on_device) launches ranges of blocks
//   into two slots in turn: while the device computes one range, the host
//   folds the other.
// - This header is compiled by the host compiler and by nvcc.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <span>

namespace lbmc::engine {

enum class Device { cpu, cuda };

//! What a device needs to compute blocks of a run.
struct DeviceLaunchPlan {
  std::uint64_t seed = 0;
  std::int64_t block_reps = 0;
  //! Replications of the run (the last block may be short).
  std::int64_t reps_limit = 0;
  //! Blocks to compute in all (a wave of the run).
  std::int64_t blocks = 0;
};

//! Per-replication values of ranges of blocks, computed on a device.
class DeviceReplications {
 public:
  virtual ~DeviceReplications() = default;
  //! The most blocks one launch takes.
  virtual std::int64_t blocks_per_launch() const = 0;
  //! The values each replication leaves, side by side.
  virtual std::int64_t values_per_replication() const = 0;
  //! Starts computing blocks [first, last) into `slot` (0 or 1), without
  //! waiting; last - first <= blocks_per_launch().
  virtual void launch(int slot, std::int64_t first, std::int64_t last) = 0;
  //! Waits for `slot`'s launch: its values, block b's replication r from
  //! ((b - first)·block_reps + r)·values_per_replication() on. Valid until
  //! the slot's next launch.
  virtual std::span<const double> collect(int slot) = 0;
};

//! Replications per launch for a kernel of `variates` draws a replication:
//! about 2^34 draws, between 2^18 and 2^22 replications (a thread each:
//! enough to fill an H100 or H200, 2048 threads on each of 132
//! multiprocessors; buffers of at most 32 MiB; a launch of a fraction of a
//! second where the device draws 1e11 variates a second).
constexpr std::int64_t device_reps_per_launch(std::int64_t variates) {
  return std::clamp((std::int64_t{1} << 34) / std::max<std::int64_t>(variates, 1), std::int64_t{1} << 18,
                    std::int64_t{1} << 22);
}

}  // namespace lbmc::engine
