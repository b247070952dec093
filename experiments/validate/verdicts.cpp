// Reading the verdicts of a tidy result CSV (DESIGN §4) for `lbmc validate`.
#include <stdexcept>

#include <fmt/format.h>

#include "lbmc/engine/csv_reader.hpp"
#include "validate.hpp"

namespace lbmc::exp {

VerdictCounts count_verdicts(const std::string& csv) {
  const engine::CsvRecords table = engine::read_csv(csv);
  if (table.header.empty()) throw std::runtime_error("result CSV is empty");
  const auto& header = table.header;
  const std::size_t kind = table.column("reference_kind");
  const std::size_t verdict = table.column("verdict");
  const std::size_t statistic = table.column("statistic");
  const std::size_t reference = table.column("reference");
  const std::size_t z = table.column("z");
  VerdictCounts counts;
  for (const auto& fields : table.rows) {
    ++counts.rows;
    const bool pass = fields[verdict] == "pass";
    const auto describe = [&] {
      std::string where;
      for (std::size_t i = 1; i < statistic; ++i) where += header[i] + "=" + fields[i] + " ";
      return fmt::format("{}{} ({}) z={}", where, fields[statistic], fields[reference], fields[z]);
    };
    if (fields[kind] == "exact") {
      ++(pass ? counts.exact_pass : counts.exact_fail);
      if (!pass) counts.failed.push_back(describe());
    } else if (fields[kind] == "bound") {
      ++(pass ? counts.bound_pass : counts.bound_fail);
      if (!pass) counts.missed.push_back(describe());
    }
  }
  return counts;
}

}  // namespace lbmc::exp
