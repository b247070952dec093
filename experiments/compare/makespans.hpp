// The strategies of `lbmc compare` on fixed times, one call each, for
// tests and one-off use: each allocates its own Scheduler (scheduler.hpp).
#pragma once

#include <cstdint>
#include <span>

#include "lbmc/engine/rng.hpp"
#include "machine.hpp"
#include "scheduler.hpp"
#include "strategy.hpp"

namespace lbmc::exp {

//! The makespans of the strategies on fixed times, for tests and one-off
//! use (each allocates its own Scheduler). Preconditions: procs ≥ 1,
//! times ≥ 0, 1 ≤ d ≤ procs, k ≥ 1, h ≥ 0.
double makespan_block(std::span<const double> times, std::int64_t procs);
double makespan_cyclic(std::span<const double> times, std::int64_t procs);
double makespan_random(std::span<const double> times, std::int64_t procs, engine::Generator& gen);
double makespan_choice(std::span<const double> times, std::int64_t procs, std::int64_t d, engine::Generator& gen);
double makespan_self(std::span<const double> times, std::int64_t procs, double h);
double makespan_lpt(std::span<const double> times, std::int64_t procs);
double makespan_chunk(std::span<const double> times, std::int64_t procs, std::int64_t k, double h);
double makespan_guided(std::span<const double> times, std::int64_t procs, double h);
//! The whole outcome of one strategy on fixed times, for tests.
Outcome schedule_outcome(const Strategy& s, std::span<const double> times, const Machine& machine,
                         engine::Generator& gen);

}  // namespace lbmc::exp
