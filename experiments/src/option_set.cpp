// OptionSet on CLI11 (option_set.hpp): the only place that declares options
// on the parser for the commands.
#include "lbmc/exp/option_set.hpp"

#include <CLI/CLI.hpp>

namespace lbmc::exp {

DeclaredOption& DeclaredOption::show_default() {
  option_->capture_default_str();
  return *this;
}

DeclaredOption& DeclaredOption::required() {
  option_->required();
  return *this;
}

bool DeclaredOption::given() const { return option_->count() > 0; }

std::string DeclaredOption::name() const { return option_->get_name(); }

DeclaredOption OptionSet::text(const std::string& name, std::string& value, const std::string& help) {
  return DeclaredOption(app_.add_option(name, value, help)->multi_option_policy(CLI::MultiOptionPolicy::TakeLast));
}

DeclaredOption OptionSet::texts(const std::string& name, std::vector<std::string>& values, const std::string& help) {
  return DeclaredOption(app_.add_option(name, values, help)->multi_option_policy(CLI::MultiOptionPolicy::TakeAll));
}

void OptionSet::flag(const std::string& name, bool& value, const std::string& help) {
  app_.add_flag(name, value, help)->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
}

void OptionSet::footer(const std::string& text) { app_.footer(text); }

}  // namespace lbmc::exp
