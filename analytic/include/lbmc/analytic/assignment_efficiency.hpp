// Franklin's efficiency of random assignment (DESIGN §6 "Random
// assignment"; Franklin, Narayanaswami, Kankanhalli & Akman 1994, §2), in
// two models of the processor loads:
//  - the paper's model: P iid Poisson(lambda) loads, lambda = N/P (Franklin
//    §2, f_lambda(k) and G = F^P): PoissonModel{lambda, P}, whose maximum is
//    MaxOfIid{Poisson(lambda), P} (max_of_iid.hpp);
//  - the exact model: Multinomial(N; 1/P, ..., 1/P) loads (balls into bins),
//    whose maximum is MultinomialMax{N, P} (multinomial_max.hpp).
// Efficiency is (N/P)/E[max load] in both (Franklin §2, lambda/g-bar).
//
// Grouping (Franklin §2, last paragraph): L processors share one queue, so
// the P/L group loads are sums of L processors' loads, Poisson(L·lambda) in
// the paper's model and Multinomial(N; L/P, ...) in the exact one, and a
// group finishes at load/L (fractional finishing, the paper's model of
// grouping) or at ceil(load/L) (unit jobs).
//
// Design: efficiency(model) and efficiency(model, Grouping{L, unit_jobs})
// for either model; the grouped efficiency is the ungrouped one of the group
// loads (fractional), or a ratio to E ceil(max/L) (ceil_mean of the maximum's
// law).
#pragma once

#include <cstdint>

#include "lbmc/analytic/max_of_iid.hpp"
#include "lbmc/analytic/multinomial_max.hpp"

namespace lbmc::analytic {

//! Franklin §2's model of random assignment: P iid Poisson(lambda) processor
//! loads, lambda = N/P (f_lambda(k) and G = F^P).
class PoissonModel {
 public:
  //! Throws engine::InputError for lambda <= 0 or not finite, or P < 1.
  PoissonModel(double lambda, std::int64_t P);
  //! lambda, the mean load of a processor.
  double lambda() const { return lambda_; }
  //! P.
  std::int64_t processors() const { return processors_; }

 private:
  double lambda_;
  std::int64_t processors_;
};

//! The law of the largest of the P loads: MaxOfIid{Poisson(lambda), P}
//! (Franklin §2: G = F^P).
MaxOfIid max_load(const PoissonModel& model);

//! The paper's efficiency lambda/E[max of P iid Poisson(lambda)] (Franklin
//! §2, Table 1: lambda/g-bar), E by mean(max_load(model)). Throws
//! analytic::ReferenceUnavailable as moments(MaxOfIid).
double efficiency(const PoissonModel& model);

//! The exact (multinomial) efficiency (N/P)/E M. Throws engine::InputError
//! for N < 1; analytic::ReferenceUnavailable as moments(MultinomialMax).
double efficiency(const MultinomialMax& m);

//! Grouping (Franklin §2, last paragraph): the P processors form
//! G = P/group_size groups of L = group_size that share one queue, so a
//! group's load is the sum of L processors' loads. With unit_jobs = false a
//! group finishes at load/L (fractional finishing times), with
//! unit_jobs = true at ceil(load/L).
struct Grouping {
  std::int64_t group_size = 1;
  bool unit_jobs = false;
};

//! The paper's model grouped: a group's load is Poisson(L·lambda). Fractional
//! finishing: lambda/E[max_G load/L] = efficiency(PoissonModel{L·lambda, G}),
//! the model behind the paper's numbers ("exactly the same as the efficiency
//! with N jobs and P/L processors", 0.16 -> 0.30 -> 0.49 for N = P = 3000,
//! L = 1, 3, 10). Unit jobs: lambda/E ceil(max_G load/L), E by ceil_mean
//! (L = 1: both rules are the ungrouped model). Throws engine::InputError
//! unless L >= 1 divides P.
double efficiency(const PoissonModel& model, const Grouping& grouping);

//! The exact model grouped: the G = P/L group loads are
//! Multinomial(N; 1/G, ...), so the largest group load M_G has the law
//! MultinomialMax{N, G}. Fractional: (N/P)/(E[M_G]/L) =
//! efficiency(MultinomialMax{N, G}) (the paper's model of grouping); unit
//! jobs: (N/P)/E ceil(M_G/L), E by ceil_mean (L = 1: both rules are the
//! ungrouped model). Throws engine::InputError unless L >= 1 divides P, or
//! for N < 1; analytic::ReferenceUnavailable beyond the lattice budget.
double efficiency(const MultinomialMax& m, const Grouping& grouping);

}  // namespace lbmc::analytic
