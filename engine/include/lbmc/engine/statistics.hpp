// Statistics as data.
//
// A sample (an experiment's accumulator) lists its statistics once, beside
// fields(), in a static function returning an array of Statistic entries:
//
//   static constexpr auto statistics() {
//     using namespace engine::stat;
//     return std::array{
//         mean("W'.mean", &MaxShiftSample::w_prime, "E W', W' = max_k V_k/(sigma sqrt n)").watched(),
//         quantiles("W'", &MaxShiftSample::w_prime_values, "quantiles of W' at each --alpha"),
//         proportion("W'.p_zero", &MaxShiftSample::w_zero, "P(W' = 0)"),
//         derived("W'.ks", "Kolmogorov-Smirnov distance of W' to each reference law"),
//         ...};
//   }
//
// An entry names the row (for quantiles, the variable of the rows
// VARIABLE.q<α>), says how it is estimated (statistic_info.hpp), which
// accumulator of the sample it reads, whether --target-rse watches it, and
// its help. From the list come
//  - the rows of a parameter point, in list order (emit_rows), with what only
//    the command knows passed beside the sample (RowInputs): the references
//    of each row, the scale c of a reciprocal c/mean, the estimates of
//    derived statistics, and the statistics a point does not have;
//  - the stopping rule (watched_means): the means of the watched entries, and
//    of every nested sample's watched entries (a field whose type has a list
//    of its own, or an array or optional of one, found through fields());
//  - the `Statistics:` lines of --help and the docs (describe).
// A row the list does not declare is refused by the result table (results.hpp)
// and a name in RowInputs that the list does not declare by emit_rows, so the
// list, the rows and the stopping rule cannot drift apart.
#pragma once

#include <array>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "lbmc/engine/fields.hpp"
#include "lbmc/engine/moments.hpp"
#include "lbmc/engine/proportion.hpp"
#include "lbmc/engine/quantile_store.hpp"
#include "lbmc/engine/results.hpp"
#include "lbmc/engine/rows.hpp"
#include "lbmc/engine/statistic_info.hpp"

namespace lbmc::engine {

//! The accumulator of a sample that an entry reads.
template <class Sample>
using StatisticSource =
    std::variant<std::monostate, Moments Sample::*, Proportion Sample::*, QuantileStore Sample::*>;

//! One entry of a sample's list of statistics (top of this file).
template <class Sample>
struct Statistic {
  std::string_view name;
  Estimator estimator = Estimator::derived;
  StatisticSource<Sample> source{};
  std::string_view help;
  bool is_watched = false;
  //! Only emitted when its accumulator holds an observation.
  bool only_observed = false;
  //! For watched derived statistics: their means and standard errors.
  std::vector<MeanSummary> (*watched_summaries)(const Sample&) = nullptr;

  //! The same entry, watched by --target-rse.
  constexpr Statistic watched() const {
    Statistic s = *this;
    s.is_watched = true;
    return s;
  }
  //! The same derived entry, watched through `summaries`.
  constexpr Statistic watched(std::vector<MeanSummary> (*summaries)(const Sample&)) const {
    Statistic s = watched();
    s.watched_summaries = summaries;
    return s;
  }
  //! The same entry, left out of a point whose accumulator is empty.
  constexpr Statistic when_observed() const {
    Statistic s = *this;
    s.only_observed = true;
    return s;
  }
};

//! The builders of entries: stat::mean("W'.mean", &Sample::w_prime, "help"),
//! the sample's type taken from the member.
namespace stat {

//! An entry estimated by `E` from a member of type `Accumulator`.
template <Estimator E, class Accumulator>
struct EntryOf {
  template <class S>
  constexpr Statistic<S> operator()(std::string_view name, Accumulator S::*member, std::string_view help) const {
    return {name, E, member, help};
  }
};

//! The mean of a Moments member (a second moment is the mean of the
//! squares' accumulator).
inline constexpr EntryOf<Estimator::mean, Moments> mean{};
//! The variance s² of a Moments member.
inline constexpr EntryOf<Estimator::variance, Moments> variance{};
//! The α-quantiles of a QuantileStore, one row VARIABLE.q<α> per --alpha
//! level (the name is the variable's).
inline constexpr EntryOf<Estimator::quantiles, QuantileStore> quantiles{};
//! A Proportion, with its exact interval.
inline constexpr EntryOf<Estimator::proportion, Proportion> proportion{};
//! c/mean of a Moments member, c given per point (RowInputs::scale), by the
//! delta method.
inline constexpr EntryOf<Estimator::reciprocal, Moments> reciprocal{};
//! A statistic the command forms (RowInputs::derived).
template <class S>
constexpr Statistic<S> derived(std::string_view name, std::string_view help) {
  return {name, Estimator::derived, std::monostate{}, help};
}

}  // namespace stat

template <class T>
concept HasStatistics = requires { T::statistics(); };

//! A list of statistics that belongs to no accumulator: commands whose rows
//! are all formed by the command (searches, fits).
struct NoSample {
  static constexpr std::array<Statistic<NoSample>, 0> statistics() { return {}; }
};

//! The descriptions of Sample's statistics, under heading `group`.
template <class Sample>
std::vector<StatisticInfo> describe(std::string_view group = {}) {
  std::vector<StatisticInfo> out;
  for (const auto& s : Sample::statistics()) {
    out.push_back({std::string(s.name), s.estimator, s.is_watched, std::string(s.help), std::string(group)});
  }
  return out;
}

//! The summary of a moment accumulator's mean; {0, 0} (nothing to wait for)
//! when it holds no observation, as a statistic the run never reached.
inline MeanSummary summary_of(const Moments& m) noexcept {
  return m.count() == 0 ? MeanSummary{} : MeanSummary{m.mean(), m.mean_se()};
}

namespace detail {

template <class T>
void add_watched(const T& sample, std::vector<MeanSummary>& out);

template <class T>
concept HasFieldList = requires(const T& t) { T::fields(t); };

template <class T>
void add_watched_field(const T& field, std::vector<MeanSummary>& out) {
  if constexpr (HasStatistics<T> || HasFieldList<T>) {
    add_watched(field, out);
  } else if constexpr (std::is_array_v<T>) {
    for (const auto& element : field) add_watched_field(element, out);
  } else if constexpr (requires { field.has_value(); *field; }) {
    if (field) add_watched_field(*field, out);
  }
}

template <class T>
void add_watched(const T& sample, std::vector<MeanSummary>& out) {
  if constexpr (HasStatistics<T>) {
    for (const auto& s : T::statistics()) {
      if (!s.is_watched) continue;
      if (s.watched_summaries != nullptr) {
        for (const MeanSummary& m : s.watched_summaries(sample)) out.push_back(m);
      } else if (const auto* m = std::get_if<Moments T::*>(&s.source)) {
        out.push_back(summary_of(sample.**m));
      }
    }
  }
  if constexpr (HasFieldList<T>) {
    std::apply([&](const auto&... member) { (add_watched_field(member, out), ...); }, T::fields(sample));
  }
}

}  // namespace detail

//! The means --target-rse waits for: every watched statistic of `sample` and
//! of its nested samples; an accumulator without observations gives {0, 0}
//! (nothing to wait for).
template <class Sample>
std::vector<MeanSummary> watched_means(const Sample& sample) {
  std::vector<MeanSummary> out;
  if constexpr (std::is_same_v<Sample, Moments>) {
    out.push_back(summary_of(sample));
  } else {
    static_assert(HasStatistics<Sample> || detail::HasFieldList<Sample>, "a sample lists its statistics");
    detail::add_watched(sample, out);
  }
  return out;
}

//! What a command adds to a point's rows beyond its sample (top of this file).
//! Names are row names ("D.mean", "D.q0.95"); emit_rows refuses one that the
//! sample's list does not declare.
class RowInputs {
 public:
  //! The --alpha levels of the quantile statistics.
  RowInputs& alphas(std::vector<double> levels) {
    alphas_ = std::move(levels);
    return *this;
  }
  //! The references of row `name` (added to those given before).
  RowInputs& refs(const std::string& name, const std::vector<Reference>& references) {
    auto& list = refs_[name];
    list.insert(list.end(), references.begin(), references.end());
    return *this;
  }
  //! c of the reciprocal statistic `name`.
  RowInputs& scale(const std::string& name, double c) {
    scales_[name] = c;
    return *this;
  }
  //! Leaves statistic `name` out of this point.
  RowInputs& omit(const std::string& name) {
    omitted_.push_back(name);
    return *this;
  }
  //! One row of the derived statistic `name` (a statistic may have several).
  RowInputs& derived(const std::string& name, const Estimate& estimate, const std::vector<Reference>& references = {}) {
    derived_[name].push_back({estimate, references});
    return *this;
  }

  const std::vector<double>& alphas() const noexcept { return alphas_; }
  std::vector<Reference> refs_of(const std::string& row) const {
    const auto it = refs_.find(row);
    return it == refs_.end() ? std::vector<Reference>{} : it->second;
  }
  std::optional<double> scale_of(const std::string& name) const {
    const auto it = scales_.find(name);
    return it == scales_.end() ? std::nullopt : std::optional<double>(it->second);
  }
  bool omits(std::string_view name) const {
    for (const std::string& o : omitted_)
      if (o == name) return true;
    return false;
  }
  struct DerivedRow {
    Estimate estimate;
    std::vector<Reference> references;
  };
  const std::vector<DerivedRow>* derived_of(const std::string& name) const {
    const auto it = derived_.find(name);
    return it == derived_.end() ? nullptr : &it->second;
  }
  //! Every name given, for the check that each is declared.
  std::vector<std::string> names() const;

 private:
  std::vector<double> alphas_;
  std::map<std::string, std::vector<Reference>> refs_;
  std::map<std::string, double> scales_;
  std::vector<std::string> omitted_;
  std::map<std::string, std::vector<DerivedRow>> derived_;
};

//! Throws std::logic_error naming the first name of `inputs` that no
//! statistic of `declared` has.
void require_declared(const std::vector<StatisticInfo>& declared, const RowInputs& inputs);

namespace detail {

template <class T>
bool observed(const T& sample, const StatisticSource<T>& source) {
  return std::visit(
      [&](auto member) {
        if constexpr (std::is_same_v<decltype(member), std::monostate>) {
          return true;
        } else if constexpr (std::is_same_v<decltype(member), Proportion T::*>) {
          return (sample.*member).trials() > 0;
        } else {
          return (sample.*member).count() > 0;
        }
      },
      source);
}

template <class T>
void emit_one(PointRows& rows, const T& sample, const Statistic<T>& s, const RowInputs& in) {
  const std::string name(s.name);
  switch (s.estimator) {
    case Estimator::mean: rows.mean(name, sample.*std::get<Moments T::*>(s.source), in.refs_of(name)); return;
    case Estimator::variance: rows.variance(name, sample.*std::get<Moments T::*>(s.source), in.refs_of(name)); return;
    case Estimator::proportion:
      rows.proportion(name, sample.*std::get<Proportion T::*>(s.source), in.refs_of(name));
      return;
    case Estimator::quantiles:
      for (const double alpha : in.alphas()) {
        rows.quantile(name, sample.*std::get<QuantileStore T::*>(s.source), alpha,
                      in.refs_of(quantile_statistic(name, alpha)));
      }
      return;
    case Estimator::reciprocal: {
      const auto c = in.scale_of(name);
      if (!c) throw std::logic_error("statistic " + name + ": no scale given for its reciprocal");
      rows.reciprocal(name, *c, sample.*std::get<Moments T::*>(s.source), in.refs_of(name));
      return;
    }
    case Estimator::derived:
      if (const auto* list = in.derived_of(name)) {
        for (const auto& row : *list) rows.add(name, row.estimate, row.references);
      }
      return;
  }
}

}  // namespace detail

//! The rows of `sample` at one point, in the order its list declares them
//! (top of this file).
template <class Sample>
void emit_rows(PointRows& rows, const Sample& sample, const RowInputs& inputs) {
  require_declared(describe<Sample>(), inputs);
  for (const auto& s : Sample::statistics()) {
    if (inputs.omits(s.name) || (s.only_observed && !detail::observed(sample, s.source))) continue;
    detail::emit_one(rows, sample, s, inputs);
  }
}

}  // namespace lbmc::engine
