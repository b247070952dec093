// One replication of `scatter` on the counter-based stream, as the host and a
// GPU both compile it (host_device.hpp), so that `--device cuda` and
// `--device cpu --rng philox` give the same l and l_obs.
//
// Salmon's scattered decomposition: N_proc processors of n tasks each, in
// draw order processor by processor; t_p the sum of processor p's task
// times, l = (max t_p − n·m)/(n·m) and l_obs = (max t_p − t̄)/t̄ with t̄ the
// observed mean of the t_p (Salmon, the load-imbalance measure). Where every
// task time is 0, t̄ = 0 and l_obs = 0/0 is undefined: it is NaN here, on the
// host and on a GPU alike, and the accumulator leaves it out (kernel.cpp).
#pragma once

#include <cstdint>

#include "lbmc/engine/host_device.hpp"
#include "lbmc/engine/words.hpp"

namespace lbmc::exp {

//! What a replication gives: l and l_obs.
struct ScatterValues {
  double l;
  double l_obs;
};

//! The sum of the next n task times.
template <class Sampler, class Words>
LBMC_HOST_DEVICE inline double processor_time(const Sampler& draw, Words& words, std::int64_t tasks) {
  LBMC_SAMPLER_NO_FP_CONTRACT
  double t = 0.0;
  for (std::int64_t i = 0; i < tasks; ++i) t += engine::stepped_draw(draw, words);
  return t;
}

//! l and l_obs from the slowest processor's time, the sum of all and m_proc =
//! n·m; l_obs is NaN (0/0) when the sum is 0.
LBMC_HOST_DEVICE inline ScatterValues scatter_values(double slowest, double total, std::int64_t procs,
                                                     double m_proc) {
  LBMC_SAMPLER_NO_FP_CONTRACT
  const double observed = total * (1.0 / static_cast<double>(procs));
  return {(slowest - m_proc) / m_proc, (slowest - observed) / observed};
}

//! One replication: N_proc >= 1 processors of n >= 1 tasks.
template <class Sampler, class Words>
LBMC_HOST_DEVICE inline ScatterValues replication_scatter(const Sampler& draw, Words& words, std::int64_t tasks,
                                                          std::int64_t procs, double m_proc) {
  double slowest = processor_time(draw, words, tasks);
  double total = slowest;
  for (std::int64_t p = 1; p < procs; ++p) {
    const double t = processor_time(draw, words, tasks);
    slowest = t > slowest ? t : slowest;
    total += t;
  }
  return scatter_values(slowest, total, procs, m_proc);
}

}  // namespace lbmc::exp
