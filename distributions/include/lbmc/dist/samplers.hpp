// Random samplers for the load laws: our own code, not std::*_distribution, so
// that a (seed, block) pair means the same numbers with every compiler and
// standard library (DESIGN §2, §7). This is the header to include; it holds
// the uniform and constant samplers and the dispatch, and includes the rest.
//
// Design note
// - One class per law of laws.hpp, built once from the law and then called as
//   `double x = sampler(gen)` with an engine::Generator (pcg64); the normal,
//   binomial, Poisson, exponential, uniform and constant samplers take the
//   counter-based stream as well (engine/philox.hpp; takes_counter_stream),
//   through their portable() form, which a GPU runs too (portable_samplers.hpp,
//   portable_discrete.hpp). operator() is
//   const and writes no shared state, so one sampler may serve every thread,
//   each with its own generator. Building is the expensive part (tables): build
//   once per parameter point, outside the replication loop (visit_sampler).
// - Files: ziggurat.hpp (normal, exponential), discrete_samplers.hpp
//   (Poisson, binomial), task_time_samplers.hpp (gamma, lognormal, Weibull,
//   Pareto, geometric, negative binomial, empirical), gamma_ziggurat.hpp
//   (gamma with K < 1), block_rejection.hpp (the negative binomial past its
//   table), log_pmf.hpp (Poisson, binomial and negative binomial
//   probabilities), sampler_support.hpp
//   (no fused multiply-add; generator hand-off to cold paths),
//   portable_samplers.hpp (uniform, constant, and the normal and exponential
//   of the counter-based stream), portable_discrete.hpp and
//   portable_log_pmf.hpp (its Poisson and binomial); here mixture, sampler_for_t and
//   visit_sampler. Each file's note has
//   the details.
// - Uniform: a + (b - a)·u, u on the 2^-53 grid, clamped below b. The constant
//   consumes no randomness. A mixture chooses its component by one output,
//   then draws it with the component's sampler (held as an AnySampler).
// - Reproducibility: fast paths use integer operations and one or two IEEE
//   multiplications and additions; the slow paths that call std::exp and
//   std::log are listed in each sampler's note.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "lbmc/dist/discrete_samplers.hpp"
#include "lbmc/dist/gamma_ziggurat.hpp"
#include "lbmc/dist/inversion_table.hpp"
#include "lbmc/dist/laws.hpp"
#include "lbmc/dist/log_pmf.hpp"
#include "lbmc/dist/portable_samplers.hpp"
#include "lbmc/dist/sampler_support.hpp"
#include "lbmc/dist/task_time_samplers.hpp"
#include "lbmc/dist/ziggurat.hpp"
#include "lbmc/engine/errors.hpp"
#include "lbmc/engine/philox.hpp"
#include "lbmc/engine/rng.hpp"

namespace lbmc::dist {

//! The sampler type of a law type, as its table entry names it:
//! sampler_for_t<Normal> is NormalSampler, ...
template <class Law>
using sampler_for_t = typename LawEntry<Law>::Sampler;

namespace detail {
template <class Variant>
struct SamplerVariant;
template <class... Laws>
struct SamplerVariant<std::variant<Laws...>> {
  using type = std::variant<sampler_for_t<Laws>...>;
};
}  // namespace detail

//! A sampler of any law of LoadLaw, for code that keeps samplers of laws
//! chosen at run time (one alternative per law, in the order of LoadLaw).
using AnySampler = detail::SamplerVariant<LoadLaw>::type;

//! Sampler for a Mixture: the top 63 bits of one 64-bit output choose the
//! component by inversion of the cumulative weights (each probability
//! w_i / sum w quantized to a multiple of 2^-63 as InversionTable does, the
//! rounding residue to the likeliest), then the component's own sampler
//! draws, consuming what it consumes. Range: the union of the components'
//! ranges. Exact in law up to that 2^-63 grid.
class MixtureSampler {
 public:
  //! Throws engine::InputError unless there is a component and every
  //! weight is positive and finite.
  explicit MixtureSampler(const Mixture& law);
  //! One variate: one output, then the component's.
  double operator()(engine::Generator& gen) const;

 private:
  std::vector<std::uint64_t> thresholds_;  // 2^63 P(component <= i); the last is 2^63
  std::vector<AnySampler> components_;     // of AnySampler's alternatives but the mixture's
};

//! Builds the sampler of the law held in `law` (default options) and returns
//! f(sampler), with the sampler passed as a const lvalue of its concrete type,
//! so that a hot loop inside f is compiled once per sampler type with no
//! per-draw dispatch. f must return the same type for every sampler type and
//! must not return a reference into the sampler (it dies on return). Build
//! cost: see each sampler (tables); call it once per parameter point.
template <class F>
decltype(auto) visit_sampler(const LoadLaw& law, F&& f) {
  return std::visit(
      [&f](const auto& l) -> decltype(auto) {
        const sampler_for_t<std::decay_t<decltype(l)>> sampler(l);
        return std::invoke(std::forward<F>(f), sampler);
      },
      law);
}

//! The sampler of `law` (default options) as an AnySampler.
inline AnySampler make_any_sampler(const LoadLaw& law) {
  return visit_sampler(law, [](const auto& sampler) { return AnySampler(sampler); });
}

inline MixtureSampler::MixtureSampler(const Mixture& law) {
  const bool positive = std::all_of(law.weights.begin(), law.weights.end(),
                                    [](double w) { return std::isfinite(w) && w > 0.0; });
  if (law.weights.empty() || law.weights.size() != law.components.size() || !positive) {
    throw engine::InputError("mixture sampler: need one positive finite weight per component, at least one");
  }
  const double total = LawEntry<Mixture>::sum(law.weights);
  std::vector<double> probabilities;
  for (const double w : law.weights) probabilities.push_back(w / total);
  const InversionTable table(0.0, probabilities, 0.0, 0.0);
  thresholds_.assign(table.thresholds().begin() + 1, table.thresholds().end() - 1);
  for (const LoadLaw& c : law.components) components_.push_back(make_any_sampler(c));
}

inline double MixtureSampler::operator()(engine::Generator& gen) const {
  const std::uint64_t u = gen() >> 1;
  std::size_t i = 0;
  while (u >= thresholds_[i]) ++i;  // thresholds_.back() = 2^63 > u stops it
  return std::visit([&gen](const auto& sampler) { return sampler(gen); }, components_[i]);
}

//! Whether the sampler of the law type `Law` draws from the counter-based
//! stream too (`--rng philox`), as from pcg64.
template <class Law>
inline constexpr bool takes_counter_stream_v =
    std::is_invocable_r_v<double, const sampler_for_t<Law>&, engine::PhiloxStream&>;

//! Whether the sampler of `law` draws from the counter-based stream.
inline bool takes_counter_stream(const LoadLaw& law) {
  return std::visit([](const auto& l) { return takes_counter_stream_v<std::decay_t<decltype(l)>>; }, law);
}

//! The names of the laws whose samplers draw from the counter-based stream,
//! in the order of the law table ("normal, exponential, ...").
inline std::string counter_stream_laws() {
  std::string names;
  const auto add = [&names](std::string_view name) {
    if (!names.empty()) names += ", ";
    names += name;
  };
  [&]<class... Laws>(std::variant<Laws...>*) {
    ((takes_counter_stream_v<Laws> ? add(table::law_name(LawEntry<Laws>::help)) : void()), ...);
  }(static_cast<LoadLaw*>(nullptr));
  return names;
}

}  // namespace lbmc::dist
