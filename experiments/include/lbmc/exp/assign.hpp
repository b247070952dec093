// Random assignment of N unit tasks to P processors (Franklin et al. 1994):
// the simulation shared by `lbmc assign` and the reproduction.
//
// Two models: `multinomial` throws each task to a uniformly chosen processor
// (the assignment the paper describes), `poisson` gives the P processors iid
// Poisson(N/P) loads (the model the paper computes with). With groups of L
// processors sharing a queue, a group receives the tasks of its L processors
// and the statistics are those of the most loaded group.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include "lbmc/engine/driver.hpp"
#include "lbmc/engine/fields.hpp"
#include "lbmc/engine/moments.hpp"
#include "lbmc/engine/statistics.hpp"

namespace lbmc::exp {

enum class AssignModel { multinomial, poisson };

//! How the multinomial loads are drawn: one uniform processor per task
//! (O(N)), or conditional binomials, processor i taking
//! Binomial(remaining, 1/(P − i)) (O(P)). Both are exact.
enum class MultinomialMethod { throwing, conditional };

//! Throwing while N <= 64·P (a task costs a few ns, a binomial draw about
//! a hundred), conditional binomials beyond.
MultinomialMethod choose_multinomial_method(std::int64_t tasks, std::int64_t bins);

//! The Poisson model's group load mean, N/P·L.
double poisson_group_mean(std::int64_t tasks, std::int64_t processors, std::int64_t group);

//! Throws engine::InputError unless the point lies within the laws its model
//! draws: the multinomial's binomials count at most 2^53 tasks, and the
//! Poisson model's group load, Poisson(N/P·L), has a mean of at most
//! dist::kMaxIntegerMean (poisson:LAMBDA's range).
void require_within_laws(AssignModel model, std::int64_t tasks, std::int64_t processors, std::int64_t group);

//! The load counters one replication keeps (per thread): one per bin when
//! throwing, or one per task when tasks are far fewer than bins (the bins
//! hit, sorted); none for conditional binomials or the Poisson model.
std::int64_t load_counters(AssignModel model, MultinomialMethod method, std::int64_t tasks, std::int64_t bins);

//! The bytes of scratch one replication keeps (per thread): the load
//! counters of load_counters, 8 bytes each, or those of the two-pass
//! throwing (experiments/assign/throwing.hpp) where it counts.
double assign_scratch_bytes(AssignModel model, MultinomialMethod method, std::int64_t tasks, std::int64_t bins);

struct AssignSample {
  engine::Moments max_load;   // of the most loaded group (processor when L = 1)
  engine::Moments unit_time;  // ⌈max group load / L⌉: groups of unit jobs
  template <class Self>
  static auto fields(Self& s) {
    return std::tie(s.max_load, s.unit_time);
  }
  static constexpr auto statistics() {
    using namespace engine::stat;
    using S = AssignSample;
    return std::array{
        mean("max.mean", &S::max_load, "E M, the load of the most loaded group (processor when L = 1)").watched(),
        variance("max.variance", &S::max_load, "Var M"),
        reciprocal("efficiency", &S::max_load, "(N/P)/E[M/L], delta-method se").watched(),
        reciprocal("efficiency_unit", &S::unit_time, "(N/P)/E[ceil(M/L)]: groups of unit jobs (--group > 1)")
            .watched(),
    };
  }
};

//! Simulates `tasks` tasks on `processors` processors in groups of `group`
//! (which divides `processors`) under `model`; the multinomial method is
//! chosen by choose_multinomial_method unless `method` says otherwise.
engine::Simulated<AssignSample> simulate_assign(AssignModel model, std::int64_t tasks, std::int64_t processors, std::int64_t group,
                             engine::RunPlan plan, std::optional<MultinomialMethod> method = std::nullopt);

//! Exact values of a model at (tasks, processors) in groups of `group`: E and
//! Var of the most loaded group's load M, and E⌈M/L⌉ = Σ_j P(M > jL).
struct AssignExact {
  double mean;
  double variance;
  double unit_time;
};
AssignExact assign_exact(AssignModel model, std::int64_t tasks, std::int64_t processors, std::int64_t group);

const char* to_string(AssignModel model);
const char* to_string(MultinomialMethod method);

}  // namespace lbmc::exp
