// The experiments' replications on a GPU (--device cuda): one replication per
// GPU thread, on the counter-based stream, from the source the host runs
// under --rng philox, so that the two give the same values
// (src/device_kernels.cu; in a build without CUDA, src/device_kernels_absent.cpp,
// where each refuses). Compiled by the host compiler and by nvcc.
//
// - maxload --method brute: the maximum of n draws (maxload/replication_max.hpp);
// - maxshift: W', D' and whether D >= 1, and for integer loads the largest
//   shifts in processors (maxshift/replication_shift.hpp);
// - scatter: l and l_obs (scatter/replication_scatter.hpp).
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>

#include "lbmc/dist/portable_discrete.hpp"
#include "lbmc/dist/portable_samplers.hpp"
#include "lbmc/engine/device.hpp"

namespace lbmc::exp {

//! Values a maxshift replication leaves on the device: W', D', and 1 or 0
//! for D >= 1.
inline constexpr std::int64_t kDeviceShiftValues = 3;
//! Values a maxshift replication of integer loads leaves on the device: W',
//! D', 1 or 0 for D >= 1, Max_R_Shift and Max_L_Shift.
inline constexpr std::int64_t kDeviceIntegerShiftValues = 5;
//! Values a scatter replication leaves on the device: l and l_obs.
inline constexpr std::int64_t kDeviceScatterValues = 2;

//! Blocks per launch for replications of n draws in blocks of `block_reps`
//! (device.hpp), at most `blocks`.
inline std::int64_t device_blocks_per_launch(std::int64_t n, std::int64_t block_reps, std::int64_t blocks) {
  return std::clamp<std::int64_t>(engine::device_reps_per_launch(n) / block_reps, 1, std::max<std::int64_t>(blocks, 1));
}

//! Device memory for a sampler's tables, at most: the ziggurats, lbmc's exp
//! and log, and the largest Poisson or binomial table (kDefaultMaxTable
//! cells; a guide of at most 2 (cells + 2) buckets rounded up to a power of
//! two; a value guide of at most 4096 buckets) with the stirlerr table.
inline constexpr std::size_t kDeviceTableBytes =
    sizeof(dist::NormalZiggurat) + sizeof(dist::ExponentialZiggurat) + sizeof(dist::ExpLogTables) +
    (dist::kDefaultMaxTable + 2) * sizeof(std::uint64_t) +
    (std::bit_ceil(2 * (dist::kDefaultMaxTable + 2)) + 1) * sizeof(std::uint32_t) +
    4096 * sizeof(dist::ValueBucket) +
    dist::kStirlerrTable * sizeof(double);

//! Device memory for replications of n draws in blocks of `block_reps`, each
//! leaving `values` doubles: two launches' values and the samplers' tables.
inline std::size_t device_kernel_bytes(std::int64_t n, std::int64_t block_reps, std::int64_t values) {
  const std::int64_t blocks = device_blocks_per_launch(n, block_reps, std::numeric_limits<std::int64_t>::max());
  return 2 * static_cast<std::size_t>(blocks * block_reps * values) * sizeof(double) + kDeviceTableBytes;
}

//! The maxima of n draws of `sampler` (a portable() sampler: normal,
//! exponential, Poisson, binomial, uniform, constant) per replication, on the current CUDA
//! device; n <= engine::kInterruptPollSpan.
template <class Sampler>
std::unique_ptr<engine::DeviceReplications> device_maxima(const Sampler& sampler, std::int64_t n,
                                                          const engine::DeviceLaunchPlan& plan);

//! maxshift's W', D' and D >= 1 (kDeviceShiftValues a replication) of n
//! loads of `sampler`, scale = 1/(σ√n), on the current CUDA device;
//! 2 <= n <= engine::kInterruptPollSpan.
template <class Sampler>
std::unique_ptr<engine::DeviceReplications> device_shifts(const Sampler& sampler, std::int64_t n, double scale,
                                                          const engine::DeviceLaunchPlan& plan);

//! maxshift's W', D', D >= 1, Max_R_Shift and Max_L_Shift
//! (kDeviceIntegerShiftValues a replication) of n integer loads of
//! `sampler`, scale_per_n = 1/(σ√n)/n, on the current CUDA device, decided
//! in integers as the host decides them; 2 <= n <= engine::kInterruptPollSpan.
template <class Sampler>
std::unique_ptr<engine::DeviceReplications> device_integer_shifts(const Sampler& sampler, std::int64_t n,
                                                                  double scale_per_n,
                                                                  const engine::DeviceLaunchPlan& plan);

//! scatter's l and l_obs (kDeviceScatterValues a replication) of `procs`
//! processors of `tasks` task times of `sampler`, m_proc = n·m, on the
//! current CUDA device; tasks·procs <= engine::kInterruptPollSpan.
template <class Sampler>
std::unique_ptr<engine::DeviceReplications> device_scatter(const Sampler& sampler, std::int64_t tasks,
                                                           std::int64_t procs, double m_proc,
                                                           const engine::DeviceLaunchPlan& plan);

}  // namespace lbmc::exp

//! The explicit instantiations of the functions above for one sampler, and
//! for each sampler that draws from the counter-based stream.
#define LBMC_DEVICE_KERNELS(Sampler)                                                                             \
  template std::unique_ptr<engine::DeviceReplications> device_maxima(const Sampler&, std::int64_t,               \
                                                                     const engine::DeviceLaunchPlan&);           \
  template std::unique_ptr<engine::DeviceReplications> device_shifts(const Sampler&, std::int64_t, double,       \
                                                                     const engine::DeviceLaunchPlan&);           \
  template std::unique_ptr<engine::DeviceReplications> device_integer_shifts(const Sampler&, std::int64_t,       \
                                                                             double,                             \
                                                                             const engine::DeviceLaunchPlan&);   \
  template std::unique_ptr<engine::DeviceReplications> device_scatter(const Sampler&, std::int64_t, std::int64_t, \
                                                                      double, const engine::DeviceLaunchPlan&);
#define LBMC_DEVICE_KERNELS_OF_EVERY_SAMPLER           \
  LBMC_DEVICE_KERNELS(dist::PortableNormal)            \
  LBMC_DEVICE_KERNELS(dist::PortableExponential)       \
  LBMC_DEVICE_KERNELS(dist::PortableDiscrete)          \
  LBMC_DEVICE_KERNELS(dist::UniformSampler)            \
  LBMC_DEVICE_KERNELS(dist::ConstantSampler)
