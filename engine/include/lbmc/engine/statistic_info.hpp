// What a statistic of an experiment is, as the user sees it: its name in the
// CSV's `statistic` column, how it is estimated, whether --target-rse watches
// it, and its one-line help. Every command's list of these (statistics.hpp)
// is the one place its statistics are named: the rows, the stopping rule,
// the `Statistics:` lines of --help and the reference documentation come
// from it, and a result table refuses a row its command did not declare.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace lbmc::engine {

//! How a statistic is estimated (rows.hpp has each interval rule).
enum class Estimator {
  mean,        //!< the mean of an accumulator, normal interval
  variance,    //!< s², Bonett's interval
  quantiles,   //!< one row per --alpha level: VARIABLE.q<α>, order-statistic interval
  proportion,  //!< hits/trials, exact binomial interval
  reciprocal,  //!< c/mean (an efficiency), delta-method se
  derived,     //!< formed by the command from its sample (a distance, a search result, a count)
};

//! "mean", "variance", "quantiles", "proportion", "reciprocal", "derived".
const char* to_string(Estimator estimator);

struct StatisticInfo {
  //! The row name; for quantiles the variable, whose rows are named
  //! VARIABLE.q<α> ("q<α>" when the variable is empty).
  std::string name;
  Estimator estimator = Estimator::derived;
  //! --target-rse waits until this statistic's mean has the target relative se.
  bool watched = false;
  std::string help;
  //! A heading for the statistics of a nested sample (e.g. "per approach"),
  //! empty for the command's own.
  std::string group;

  //! The name as --help and the docs show it: VARIABLE.q<alpha> for quantiles.
  std::string display_name() const;
  //! True when a row named `row` is one of this statistic's rows.
  bool names_row(std::string_view row) const;
};

//! True when some statistic of `declared` has a row named `row`.
bool declares(const std::vector<StatisticInfo>& declared, std::string_view row);

//! The `Statistics:` section of a command's --help: one line a statistic,
//! the watched ones marked, nested groups under their heading.
std::string statistics_help(const std::vector<StatisticInfo>& statistics);

}  // namespace lbmc::engine
