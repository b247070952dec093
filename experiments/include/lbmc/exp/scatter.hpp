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

#include <cstdint>

#include "lbmc/dist/laws.hpp"
#include "lbmc/engine/driver.hpp"
#include "lbmc/engine/fields.hpp"
#include "lbmc/engine/moments.hpp"
#include "lbmc/engine/quantile_store.hpp"

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
  void merge(const ScatterSample& other) { engine::merge_fields(*this, other); }
};

//! The means of l.mean and l_obs.mean.
std::vector<engine::MeanSummary> reported_means(const ScatterSample& s);

//! Simulates l and l_obs for `tasks` tasks on each of `procs` processors
//! under `plan` (block size from the n·N_proc variates per replication),
//! stopping on the relative se of E l when plan.target_rse is set. Throws
//! engine::InputError when tasks or procs < 1 or the task law's mean is ≤ 0.
engine::Simulated<ScatterSample> simulate_scatter(const dist::LoadLaw& task, std::int64_t tasks, std::int64_t procs,
                               engine::RunPlan plan);

}  // namespace lbmc::exp
