// The strategies on fixed times, one call each (makespans.hpp).
#include "makespans.hpp"

namespace lbmc::exp {

namespace {

Outcome outcome_of(const Strategy& s, std::span<const double> times, const Machine& machine, engine::Generator& gen) {
  return Scheduler().run(s, times, machine, gen);
}

double makespan_of(const Strategy& s, std::span<const double> times, std::int64_t procs, double h) {
  engine::Generator unused;
  return outcome_of(s, times, {procs, h, 0.0, 0.0}, unused).makespan;
}

}  // namespace

double makespan_block(std::span<const double> times, std::int64_t procs) {
  return makespan_of(strategy_named("block"), times, procs, 0.0);
}
double makespan_cyclic(std::span<const double> times, std::int64_t procs) {
  return makespan_of(strategy_named("cyclic"), times, procs, 0.0);
}
double makespan_random(std::span<const double> times, std::int64_t procs, engine::Generator& gen) {
  return outcome_of(strategy_named("random"), times, {procs}, gen).makespan;
}
double makespan_choice(std::span<const double> times, std::int64_t procs, std::int64_t d, engine::Generator& gen) {
  return outcome_of(strategy_named("choice", d), times, {procs}, gen).makespan;
}
double makespan_self(std::span<const double> times, std::int64_t procs, double h) {
  return makespan_of(strategy_named("self"), times, procs, h);
}
double makespan_lpt(std::span<const double> times, std::int64_t procs) {
  return makespan_of(strategy_named("lpt"), times, procs, 0.0);
}
double makespan_chunk(std::span<const double> times, std::int64_t procs, std::int64_t k, double h) {
  return makespan_of(strategy_named("chunk", k), times, procs, h);
}
double makespan_guided(std::span<const double> times, std::int64_t procs, double h) {
  return makespan_of(strategy_named("guided"), times, procs, h);
}
Outcome schedule_outcome(const Strategy& s, std::span<const double> times, const Machine& machine,
                         engine::Generator& gen) {
  return outcome_of(s, times, machine, gen);
}

}  // namespace lbmc::exp
