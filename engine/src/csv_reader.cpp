// CSV records, field by field (csv_reader.hpp).
#include "lbmc/engine/csv_reader.hpp"

#include <fmt/format.h>

#include "lbmc/engine/errors.hpp"

namespace lbmc::engine {

std::size_t CsvRecords::column(std::string_view name) const {
  for (std::size_t i = 0; i < header.size(); ++i) {
    if (header[i] == name) return i;
  }
  throw RuntimeFailure(fmt::format("the CSV has no column '{}'", name));
}

namespace {

// Splits `text` into records of fields (RFC 4180 quoting).
std::vector<std::vector<std::string>> records_of(std::string_view text) {
  std::vector<std::vector<std::string>> records;
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c != '"') {
        fields.back() += c;
      } else if (i + 1 < text.size() && text[i + 1] == '"') {
        fields.back() += '"';
        ++i;
      } else {
        quoted = false;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      fields.emplace_back();
    } else if (c == '\n') {
      records.push_back(std::move(fields));
      fields.assign(1, std::string());
    } else if (c != '\r') {
      fields.back() += c;
    }
  }
  if (quoted) throw RuntimeFailure("the CSV ends inside a quoted field");
  if (fields.size() > 1 || !fields.front().empty()) records.push_back(std::move(fields));
  return records;
}

}  // namespace

CsvRecords read_csv(std::string_view text) {
  std::vector<std::vector<std::string>> records = records_of(text);
  CsvRecords csv;
  if (records.empty()) return csv;
  csv.header = std::move(records.front());
  for (std::size_t r = 1; r < records.size(); ++r) {
    if (records[r].size() != csv.header.size()) {
      throw RuntimeFailure(fmt::format("CSV row {} has {} fields, the header {}", r, records[r].size(),
                                       csv.header.size()));
    }
    csv.rows.push_back(std::move(records[r]));
  }
  return csv;
}

}  // namespace lbmc::engine
