// The checks behind statistics.hpp: every name a command passes beside a
// sample is one its list declares.
#include "lbmc/engine/statistics.hpp"

namespace lbmc::engine {

std::vector<std::string> RowInputs::names() const {
  std::vector<std::string> out(omitted_);
  for (const auto& [name, list] : refs_) out.push_back(name);
  for (const auto& [name, c] : scales_) out.push_back(name);
  for (const auto& [name, rows] : derived_) out.push_back(name);
  return out;
}

void require_declared(const std::vector<StatisticInfo>& declared, const RowInputs& inputs) {
  for (const std::string& name : inputs.names()) {
    bool known = declares(declared, name);
    for (const StatisticInfo& s : declared) known = known || s.name == name;  // omit() of a quantile variable
    if (!known) throw std::logic_error("statistic '" + name + "' is not declared by the sample's list");
  }
}

}  // namespace lbmc::engine
