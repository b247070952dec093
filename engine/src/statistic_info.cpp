// Statistic descriptions: display names, row matching and the help section.
#include "lbmc/engine/statistic_info.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace lbmc::engine {

const char* to_string(Estimator estimator) {
  switch (estimator) {
    case Estimator::mean: return "mean";
    case Estimator::variance: return "variance";
    case Estimator::quantiles: return "quantiles";
    case Estimator::proportion: return "proportion";
    case Estimator::reciprocal: return "reciprocal";
    case Estimator::derived: return "derived";
  }
  return "";
}

std::string StatisticInfo::display_name() const {
  if (estimator != Estimator::quantiles) return name;
  return name.empty() ? "q<alpha>" : name + ".q<alpha>";
}

bool StatisticInfo::names_row(std::string_view row) const {
  if (estimator != Estimator::quantiles) return row == name;
  const std::string prefix = name.empty() ? "q" : name + ".q";
  if (row.size() <= prefix.size() || row.substr(0, prefix.size()) != prefix) return false;
  const std::string_view level = row.substr(prefix.size());
  return level.find_first_not_of("0123456789.e-") == std::string_view::npos;
}

bool declares(const std::vector<StatisticInfo>& declared, std::string_view row) {
  return std::any_of(declared.begin(), declared.end(), [&](const StatisticInfo& s) { return s.names_row(row); });
}

std::string statistics_help(const std::vector<StatisticInfo>& statistics) {
  std::size_t width = 0;
  for (const StatisticInfo& s : statistics) width = std::max(width, s.display_name().size() + 1);
  std::string text = "Statistics (the CSV's statistic column; * watched by --target-rse):\n";
  std::string group;
  for (const StatisticInfo& s : statistics) {
    if (s.group != group) {
      group = s.group;
      text += fmt::format("  {}:\n", group);
    }
    const std::string name = s.display_name() + (s.watched ? "*" : "");
    text += fmt::format("  {}{:<{}} {}\n", group.empty() ? "" : "  ", name, width, s.help);
  }
  return text;
}

}  // namespace lbmc::engine
