// The generic reading, printing and --help text of a law's parameters, from
// the fields of its table entry (laws.hpp): private to laws.cpp, the one
// place that parses specs and prints them.
#pragma once

#include <cmath>
#include <cstddef>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <vector>

#include <fmt/format.h>

#include "lbmc/dist/law_entry.hpp"
#include "lbmc/engine/errors.hpp"
#include "lbmc/engine/lists.hpp"

namespace lbmc::dist::table {
namespace {

//! The comma-separated numbers of a spec's parameters, named by `form`
//! ("normal:MU,SIGMA"): as many as the form names, each finite.
std::vector<double> spec_numbers(const SpecRules& rules, std::string_view params, std::string_view form) {
  const std::vector<std::string_view> names = engine::split(form.substr(form.find(':') + 1), ',');
  const std::vector<std::string_view> args = engine::split(params, ',');
  rules.require(args.size() == names.size(), fmt::format("expected {}", form));
  std::vector<double> values;
  for (std::size_t i = 0; i < args.size(); ++i) {
    try {
      values.push_back(engine::parse_real(args[i]));
    } catch (const engine::InputError&) {
      rules.require(false, fmt::format("{} '{}' is not a finite number", names[i], args[i]));
    }
  }
  return values;
}

//! A range's end as the help line writes it: 1e100, 1e-6, 0.25, 2^53.
std::string plain_number(double x) {
  if (x >= 0x1p20 && std::exp2(std::round(std::log2(x))) == x) return fmt::format("2^{}", std::lround(std::log2(x)));
  std::string text = fmt::format("{:g}", x);
  const std::size_t e = text.find('e');
  if (e == std::string::npos) return text;
  std::string exponent = text.substr(e + 1);
  const bool negative = exponent.front() == '-';
  exponent.erase(0, exponent.find_first_not_of("+-0"));
  return text.substr(0, e + 1) + (negative ? "-" : "") + exponent;
}

//! The range of a field named `name`, as --help states it: "|MU| <= 1e100",
//! "0.01 <= K <= 1e10", "THETA >= 1e-100", "0 < P <= 1", "M an integer in
//! [0, 2^53]".
template <class Law, class T>
std::string range_text(const Field<Law, T>& f, std::string_view name) {
  if (std::is_integral_v<T>) {
    return fmt::format("{} an integer in [{}, {}]", name, plain_number(f.lo), plain_number(f.hi));
  }
  if (f.lo == -f.hi) return fmt::format("|{}| <= {}", name, plain_number(f.hi));
  if (f.hi == kInf) return fmt::format("{} {} {}", name, f.open_lo ? ">" : ">=", plain_number(f.lo));
  return fmt::format("{} {} {} <= {}", plain_number(f.lo), f.open_lo ? "<" : "<=", name, plain_number(f.hi));
}

//! One number into a field, refused outside its range with the range
//! named ("'gamma:0,1': K must be in [0.01, 1e10]").
template <class Law, class T>
T field_value(const SpecRules& rules, const Field<Law, T>& f, double value, std::string_view name) {
  const bool in_range = (f.open_lo ? value > f.lo : value >= f.lo) && value <= f.hi;
  const std::string interval = fmt::format("{}{}, {}]", f.open_lo ? "(" : "[", plain_number(f.lo), plain_number(f.hi));
  if (std::is_integral_v<T>) {
    rules.require(in_range && value == std::floor(value), fmt::format("{} must be an integer in {}", name, interval));
  } else if (f.lo == -f.hi) {
    rules.require(in_range, fmt::format("|{}| must be <= {}", name, plain_number(f.hi)));
  } else if (f.hi == kInf) {
    rules.require(in_range, fmt::format("{} must be {} {}", name, f.open_lo ? ">" : ">=", plain_number(f.lo)));
  } else {
    rules.require(in_range, fmt::format("{} must be in {}", name, interval));
  }
  return static_cast<T>(value);
}

//! The names of the parameters, from the spec form.
constexpr std::string_view parameter_names(std::string_view help) {
  const std::string_view form = spec_form(help);
  return form.substr(form.find(':') + 1);
}

//! The law of the numbers of `params`, by the entry's fields (in the order
//! of its spec form), each in its range, then checked by the entry's rule
//! across parameters, if it has one.
template <class Law, class Entry = LawEntry<Law>>
Law parse_fields(std::string_view spec, std::string_view params) {
  const SpecRules rules(spec);
  const std::vector<double> values = spec_numbers(rules, params, spec_form(Entry::help));
  const std::vector<std::string_view> names = engine::split(parameter_names(Entry::help), ',');
  Law law{};
  std::size_t i = 0;
  std::apply([&](const auto&... f) { ((law.*f.member = field_value(rules, f, values[i], names[i]), ++i), ...); },
             Entry::fields);
  if constexpr (requires { Entry::check(law, rules); }) Entry::check(law, rules);
  return law;
}

//! A --help line broken after a ',' or ';' to fit 118 columns (with the 2
//! of its indent), each continuation indented to the description (24).
std::string wrapped(std::string_view text) {
  constexpr std::size_t kWidth = 118;
  const std::string indent = "\n" + std::string(24, ' ');
  std::string out(text);
  std::size_t line_start = 0;
  std::size_t offset = 2;  // the columns before line_start
  std::size_t last_break = std::string::npos;
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (i > 0 && out[i] == ' ' && (out[i - 1] == ',' || out[i - 1] == ';')) last_break = i;
    if (i - line_start + offset >= kWidth && last_break != std::string::npos) {
      out.replace(last_break, 1, indent);
      i += indent.size() - 1;
      line_start = last_break + 1;
      offset = 0;
      last_break = std::string::npos;
    }
  }
  return out;
}

//! The entry's --help line: its spec form and description, then the range
//! of each parameter and the entry's rule across them.
template <class Law, class Entry = LawEntry<Law>>
std::string help_line(std::string_view separator) {
  std::string text(Entry::help);
  if constexpr (requires { Entry::fields; }) {
    const std::vector<std::string_view> names = engine::split(parameter_names(Entry::help), ',');
    std::size_t i = 0;
    const auto add = [&](const auto& f) {
      text += fmt::format("{}{}", i == 0 ? separator : ", ", range_text(f, names[i]));
      ++i;
    };
    std::apply([&](const auto&... f) { (add(f), ...); }, Entry::fields);
  }
  if constexpr (requires { Entry::rule; }) text += fmt::format(", {}", Entry::rule);
  return text.find('\n') == std::string::npos ? wrapped(text) : text;
}

//! The fields of a law as its spec prints them: shortest round-trip
//! formatting, comma-separated ("0,1").
template <class Law, class Entry = LawEntry<Law>>
std::string print_fields(const Law& law) {
  std::string text;
  std::apply(
      [&](const auto&... f) { ((text += fmt::format("{}{}", text.empty() ? "" : ",", law.*f.member)), ...); },
      Entry::fields);
  return text;
}

}  // namespace
}  // namespace lbmc::dist::table
