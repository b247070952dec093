// `maxload --method brute --device cuda`: the maxima of n draws, one
// replication per GPU thread, on the counter-based stream, from the source
// the host runs under --rng philox (replication_max.hpp,
// portable_samplers.hpp), so that the two give the same maxima
// (device_maxima.cu). Compiled by the host compiler and by nvcc.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>

#include "lbmc/dist/portable_samplers.hpp"
#include "lbmc/engine/device.hpp"

namespace lbmc::exp {

//! Blocks per launch for maxima of n draws in blocks of `block_reps`
//! (device.hpp), at most `blocks`.
inline std::int64_t device_maxima_blocks_per_launch(std::int64_t n, std::int64_t block_reps, std::int64_t blocks) {
  return std::clamp<std::int64_t>(engine::device_reps_per_launch(n) / block_reps, 1, std::max<std::int64_t>(blocks, 1));
}

//! Device memory for maxima of n draws in blocks of `block_reps`: two
//! launches' maxima and the tables.
inline std::size_t device_maxima_bytes(std::int64_t n, std::int64_t block_reps) {
  const std::int64_t blocks = device_maxima_blocks_per_launch(n, block_reps, std::numeric_limits<std::int64_t>::max());
  return 2 * static_cast<std::size_t>(blocks * block_reps) * sizeof(double) + sizeof(dist::NormalZiggurat) +
         sizeof(dist::ExponentialZiggurat) + sizeof(dist::ExpLogTables);
}

//! The maxima of n draws of `sampler` (a portable() sampler: normal,
//! exponential, uniform, constant) per replication, on the current CUDA
//! device; n <= engine::kInterruptPollSpan.
template <class Sampler>
std::unique_ptr<engine::DeviceReplications> device_maxima(const Sampler& sampler, std::int64_t n,
                                                          const engine::DeviceLaunchPlan& plan);

}  // namespace lbmc::exp
