// Claim verdicts and their CSV and Markdown renderings.
#include "lbmc/exp/claims.hpp"

#include <cmath>

#include <fmt/format.h>

#include "lbmc/engine/errors.hpp"
#include "lbmc/engine/lists.hpp"
#include "lbmc/engine/writers.hpp"

namespace lbmc::exp {
namespace {

std::string optional_number(const std::optional<double>& x) {
  return x ? engine::format_number(*x) : std::string();
}

std::string short_number(const std::optional<double>& x) {
  return x ? fmt::format("{:.6g}", *x) : std::string();
}

// Distance from `value` to the printed number, in units of the last digit,
// after rounding `value` to that digit.
double digits_off(const PrintedNumber& printed, double value) {
  return std::abs(std::round(value / printed.unit) - std::round(printed.value / printed.unit));
}

std::string markdown_cell(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '|') out += "\\|";
    else if (c == '\n') out += ' ';
    else out += c;
  }
  return out;
}

}  // namespace

PrintedNumber parse_printed(const std::string& printed) {
  const std::size_t e = printed.find_first_of("eE");
  const std::string mantissa = printed.substr(0, e);
  const int exponent = e == std::string::npos ? 0 : std::stoi(printed.substr(e + 1));
  const std::size_t dot = mantissa.find('.');
  const auto decimals = dot == std::string::npos ? 0 : static_cast<int>(mantissa.size() - dot - 1);
  return {engine::parse_real(printed), std::pow(10.0, exponent - decimals)};
}

std::string classify(const std::string& printed, double ours, std::optional<double> asymptotic) {
  const PrintedNumber p = parse_printed(printed);
  const double off = digits_off(p, ours);
  if (off == 0.0) return "reproduced";
  if (off == 1.0) return "rounding";
  if (asymptotic && digits_off(p, *asymptotic) <= 1.0) return "asymptotic-only";
  return "differs";
}

std::string claims_csv(const std::vector<Claim>& claims) {
  std::string out = "paper,claim,location,printed,exact,mc,mc_se,verdict,note\n";
  for (const Claim& c : claims) {
    out += fmt::format("{},{},{},{},{},{},{},{},{}\n", engine::csv_field(c.paper), engine::csv_field(c.claim),
                       engine::csv_field(c.location), engine::csv_field(c.printed), optional_number(c.exact),
                       optional_number(c.mc), optional_number(c.mc_se), engine::csv_field(c.verdict),
                       engine::csv_field(c.note));
  }
  return out;
}

std::string claims_markdown(const std::string& title, const std::vector<Claim>& claims) {
  std::string out = fmt::format("# {}\n\n", title);
  out += "| claim | location | printed | exact | MC | MC se | verdict | note |\n";
  out += "|---|---|---|---|---|---|---|---|\n";
  for (const Claim& c : claims) {
    out += fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} |\n", markdown_cell(c.claim),
                       markdown_cell(c.location), markdown_cell(c.printed), short_number(c.exact),
                       short_number(c.mc), short_number(c.mc_se), c.verdict, markdown_cell(c.note));
  }
  return out;
}

}  // namespace lbmc::exp
