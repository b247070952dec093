// What a command declares on its subcommand: options whose values arrive as
// text (run_options.hpp checks them), flags, and the help's footer. Only
// option_set.cpp and cli.cpp include the parser (CLI11): its header builds
// eight validators with static storage in every translation unit that
// includes it, about 7 s of compile time each.
#pragma once

#include <string>
#include <vector>

namespace CLI {
class App;
class Option;
}  // namespace CLI

namespace lbmc::exp {

//! An option once declared: its help may show its default, it may be
//! required, and after parsing it says whether the command line gave it.
class DeclaredOption {
 public:
  DeclaredOption() = default;
  explicit DeclaredOption(CLI::Option* option) : option_(option) {}
  //! `--help` shows the value the option holds before parsing.
  DeclaredOption& show_default();
  //! Parsing fails without it.
  DeclaredOption& required();
  //! Whether the parsed command line gave it.
  bool given() const;
  //! Its name as the help spells it ("--times").
  std::string name() const;

 private:
  CLI::Option* option_ = nullptr;
};

//! The declarations of one subcommand.
class OptionSet {
 public:
  explicit OptionSet(CLI::App& app) : app_(app) {}
  //! An option with one value; given twice, the last one counts. A name
  //! without dashes is a positional argument.
  DeclaredOption text(const std::string& name, std::string& value, const std::string& help);
  //! An option that takes every value given, repeated or (positional) in a row.
  DeclaredOption texts(const std::string& name, std::vector<std::string>& values, const std::string& help);
  //! An option without a value; given twice, still one.
  void flag(const std::string& name, bool& value, const std::string& help);
  //! Text `--help` prints after the options.
  void footer(const std::string& text);

 private:
  CLI::App& app_;
};

}  // namespace lbmc::exp
