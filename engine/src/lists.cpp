// Number and list parsing for the command line.
#include "lbmc/engine/lists.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <string>

#include <fmt/format.h>

#include "lbmc/engine/errors.hpp"

namespace lbmc::engine {
namespace {

constexpr std::size_t kMaxListLength = 1'000'000;

struct Range {
  double first = 0;
  double last = 0;
  char kind = 0;  // '*' or '+'
  double step = 0;
};

Range parse_range(std::string_view item, const std::vector<std::string_view>& parts) {
  if (parts.size() != 3 || parts[2].empty() || (parts[2][0] != '*' && parts[2][0] != '+')) {
    throw InputError(fmt::format("'{}': a range is FIRST:LAST:*FACTOR or FIRST:LAST:+STEP", item));
  }
  Range r{parse_real(parts[0]), parse_real(parts[1]), parts[2][0], parse_real(parts[2].substr(1))};
  if (r.kind == '*' && !(r.step > 1.0)) {
    throw InputError(fmt::format("'{}': the factor must be > 1", item));
  }
  if (r.kind == '+' && !(r.step > 0.0)) {
    throw InputError(fmt::format("'{}': the step must be > 0", item));
  }
  if (r.kind == '*' && !(r.first > 0.0)) {
    throw InputError(fmt::format("'{}': a geometric range must start above 0", item));
  }
  if (r.last < r.first) throw InputError(fmt::format("'{}': LAST is below FIRST", item));
  return r;
}

// Expands a range with exact arithmetic on the index, so 0.1:1:+0.1 ends at 1.
// Each value is rounded to 15 significant digits, the decimal the user meant
// (0.1 + 2·0.1 is 0.30000000000000004 in binary; the range gives 0.3).
// At most `room` values: one more throws.
std::vector<double> expand(std::string_view item, const Range& r, std::size_t room) {
  std::vector<double> values;
  const double slack = 1e-9 * std::max(std::abs(r.first), std::abs(r.last));
  for (std::size_t i = 0;; ++i) {
    const double raw = r.kind == '+' ? r.first + static_cast<double>(i) * r.step
                                     : r.first * std::pow(r.step, static_cast<double>(i));
    const double v = std::strtod(fmt::format("{:.15g}", raw).c_str(), nullptr);
    if (v > r.last + slack) break;
    values.push_back(std::abs(v - r.last) <= slack ? r.last : v);
    if (values.size() > room) {
      throw InputError(fmt::format("'{}': more than {} values", item, kMaxListLength));
    }
  }
  return values;
}

std::vector<double> parse_items(std::string_view text) {
  if (text.empty()) throw InputError("empty list");
  // The limit holds for the whole list, not for each item alone, so that
  // neither the memory nor the time to expand it grows with the number of
  // ranges in the text.
  std::vector<double> values;
  for (std::string_view item : split(text, ',')) {
    const auto parts = split(item, ':');
    if (parts.size() == 1) {
      values.push_back(parse_real(item));
      if (values.size() > kMaxListLength) {
        throw InputError(fmt::format("'{}': more than {} values", item, kMaxListLength));
      }
    } else {
      const auto expanded = expand(item, parse_range(item, parts), kMaxListLength - values.size());
      values.insert(values.end(), expanded.begin(), expanded.end());
    }
  }
  return values;
}

}  // namespace

std::vector<std::string_view> split(std::string_view text, char sep) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  while (true) {
    const std::size_t at = text.find(sep, start);
    parts.push_back(text.substr(start, at - start));
    if (at == std::string_view::npos) break;
    start = at + 1;
  }
  return parts;
}

double parse_real(std::string_view text) {
  double value = 0.0;
  const char* first = text.data();
  const char* last = text.data() + text.size();
  if (!text.empty() && *first == '+') ++first;
  const auto [end, ec] = std::from_chars(first, last, value);
  if (text.empty() || ec != std::errc() || end != last || !std::isfinite(value)) {
    throw InputError(fmt::format("'{}' is not a finite number", text));
  }
  return value == 0.0 ? 0.0 : value;  // "-0" is zero: no sign reaches a spec or a row
}

std::int64_t parse_integer(std::string_view text) {
  const double value = parse_real(text);
  if (value != std::floor(value) || std::abs(value) > 0x1.0p62) {
    throw InputError(fmt::format("'{}' is not an integer", text));
  }
  return static_cast<std::int64_t>(value);
}

std::vector<std::int64_t> parse_integer_list(std::string_view text, std::int64_t minimum) {
  std::vector<std::int64_t> values;
  for (double v : parse_items(text)) {
    const double rounded = std::round(v);
    if (std::abs(v - rounded) > 1e-9 * std::max(1.0, std::abs(v)) || std::abs(rounded) > 0x1.0p62) {
      throw InputError(fmt::format("'{}': {} is not an integer", text, v));
    }
    const auto n = static_cast<std::int64_t>(rounded);
    if (n < minimum) throw InputError(fmt::format("'{}': {} is below the minimum {}", text, n, minimum));
    values.push_back(n);
  }
  return values;
}

std::vector<double> parse_real_list(std::string_view text) { return parse_items(text); }

std::vector<std::string> parse_name_list(std::string_view text, const std::vector<std::string>& allowed) {
  std::vector<std::string> names;
  for (std::string_view item : split(text, ',')) {
    if (std::find(allowed.begin(), allowed.end(), item) == allowed.end()) {
      std::string choices;
      for (const auto& a : allowed) choices += (choices.empty() ? "" : ", ") + a;
      throw InputError(fmt::format("'{}' is not one of {}", item, choices));
    }
    if (std::find(names.begin(), names.end(), item) == names.end()) names.emplace_back(item);
  }
  return names;
}

}  // namespace lbmc::engine
