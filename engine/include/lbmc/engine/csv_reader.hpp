// Reading CSV text back, as writers.hpp writes it (RFC 4180): fields are
// separated by commas, records by newlines; a field in double quotes may hold
// commas, quotes (doubled) and newlines. One reader for every place that reads
// a result table back: `lbmc validate`, the Python module's tests and the
// test suite.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace lbmc::engine {

//! A CSV text as its header and rows of fields.
struct CsvRecords {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;

  //! The index of column `name`; throws RuntimeFailure when there is none.
  std::size_t column(std::string_view name) const;
};

//! The fields of every record of `text` (a final newline ends the last
//! record; an empty text has no header). Throws RuntimeFailure for an
//! unterminated quoted field or a row whose field count differs from the
//! header's.
CsvRecords read_csv(std::string_view text);

}  // namespace lbmc::engine
