// The scattered-decomposition simulation (Salmon), shared by `lbmc scatter`
// and the reproduction of Salmon's constant.
//
// Per replication: N_proc processors each run n tasks with iid times from the
// task law (mean m > 0); t_p = sum of processor p's n task times, m_proc = n·m,
// and
//   l     = (max_p t_p − m_proc)/m_proc          (Salmon's load imbalance),
//   l_obs = (max_p t_p − t̄)/t̄,  t̄ = (1/N_proc)·Σ_p t_p
// (m_proc replaced by the mean the run actually observed). Every task time is
// drawn (n·N_proc variates per replication) from one sampler built per point.
#pragma once

#include <array>
#include <cstdint>

#include "lbmc/dist/laws.hpp"
#include "lbmc/engine/driver.hpp"
#include "lbmc/engine/fields.hpp"
#include "lbmc/engine/moments.hpp"
#include "lbmc/engine/quantile_store.hpp"
#include "lbmc/engine/statistics.hpp"

namespace lbmc::exp {

struct ScatterSample {
  engine::Moments l;
  engine::Moments l_obs;
  engine::QuantileStore l_values;
  engine::QuantileStore l_obs_values;

  template <class Self>
  static auto fields(Self& s) {
    return std::tie(s.l, s.l_obs, s.l_values, s.l_obs_values);
  }
  static constexpr auto statistics() {
    using namespace engine::stat;
    using S = ScatterSample;
    return std::array{
        mean("l.mean", &S::l, "E l, l = (t_slowest - m_proc)/m_proc, m_proc = n*m_task").watched(),
        quantiles("l", &S::l_values, "l_c, the quantile of l at each --confidence c"),
        mean("l_obs.mean", &S::l_obs, "E l_obs, m_proc replaced by the observed mean over processors").watched(),
        quantiles("l_obs", &S::l_obs_values, "the quantile of l_obs at each --confidence c"),
    };
  }
};

//! Simulates l and l_obs for `tasks` tasks on each of `procs` processors
//! under `plan` (block size from the n·N_proc variates per replication),
//! stopping on the relative se of E l when plan.target_rse is set. Throws
//! engine::InputError when tasks or procs < 1 or the task law's mean is ≤ 0.
engine::Simulated<ScatterSample> simulate_scatter(const dist::LoadLaw& task, std::int64_t tasks, std::int64_t procs,
                               engine::RunPlan plan);

}  // namespace lbmc::exp
