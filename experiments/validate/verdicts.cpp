// Reading the verdicts of a tidy result CSV (DESIGN §4) for `lbmc validate`.
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>

#include "validate.hpp"

namespace lbmc::exp {
namespace {

// The fields of one CSV line: a field in double quotes may hold commas, and
// a quote inside it is doubled.
std::vector<std::string> split_csv_line(const std::string& line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
      fields.back() += '"';
      ++i;
    } else if (c == '"') {
      quoted = !quoted;
    } else if (c == ',' && !quoted) {
      fields.emplace_back();
    } else {
      fields.back() += c;
    }
  }
  return fields;
}

std::size_t column(const std::vector<std::string>& header, const std::string& name) {
  for (std::size_t i = 0; i < header.size(); ++i) {
    if (header[i] == name) return i;
  }
  throw std::runtime_error(fmt::format("result CSV has no column '{}'", name));
}

}  // namespace

VerdictCounts count_verdicts(const std::string& csv) {
  std::istringstream lines(csv);
  std::string line;
  if (!std::getline(lines, line)) throw std::runtime_error("result CSV is empty");
  const auto header = split_csv_line(line);
  const std::size_t kind = column(header, "reference_kind");
  const std::size_t verdict = column(header, "verdict");
  const std::size_t statistic = column(header, "statistic");
  const std::size_t reference = column(header, "reference");
  const std::size_t z = column(header, "z");
  VerdictCounts counts;
  while (std::getline(lines, line)) {
    const auto fields = split_csv_line(line);
    if (fields.size() != header.size()) throw std::runtime_error("result CSV row with the wrong number of fields");
    ++counts.rows;
    const bool pass = fields[verdict] == "pass";
    if (fields[kind] == "exact") {
      ++(pass ? counts.exact_pass : counts.exact_fail);
      if (!pass) {
        std::string where;
        for (std::size_t i = 1; i < statistic; ++i) where += header[i] + "=" + fields[i] + " ";
        counts.failed.push_back(
            fmt::format("{}{} ({}) z={}", where, fields[statistic], fields[reference], fields[z]));
      }
    } else if (fields[kind] == "bound") {
      ++(pass ? counts.bound_pass : counts.bound_fail);
    }
  }
  return counts;
}

}  // namespace lbmc::exp
