// The CSV reader reads back what the writers write: quoted commas, doubled
// quotes and newlines inside quotes, and refuses ragged or unterminated text.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "lbmc/engine/csv_reader.hpp"
#include "lbmc/engine/errors.hpp"
#include "lbmc/engine/writers.hpp"

namespace csv_reader_test {

using namespace lbmc::engine;

TEST_SUITE("fast") {
  TEST_CASE("csv reader: fields as the writer quotes them") {
    const std::vector<std::string> values{"plain", "a,b", "say \"hi\"", "two\nlines", ""};
    std::string text = "c1,c2,c3,c4,c5\n";
    for (std::size_t i = 0; i < values.size(); ++i) {
      if (i > 0) text += ',';
      text += csv_field(values[i]);
    }
    text += "\n";
    const CsvRecords csv = read_csv(text);
    REQUIRE(csv.rows.size() == 1);
    CHECK(csv.rows[0] == values);
    CHECK(csv.column("c3") == 2);
    CHECK_THROWS_AS(csv.column("c9"), RuntimeFailure);
  }

  TEST_CASE("csv reader: a last record without newline and carriage returns") {
    const CsvRecords csv = read_csv("a,b\r\n1,2\r\n3,4");
    REQUIRE(csv.rows.size() == 2);
    CHECK(csv.rows[1] == std::vector<std::string>{"3", "4"});
    CHECK(read_csv("").header.empty());
  }

  TEST_CASE("csv reader: ragged rows and unterminated quotes are refused") {
    CHECK_THROWS_AS(read_csv("a,b\n1,2,3\n"), RuntimeFailure);
    CHECK_THROWS_AS(read_csv("a,b\n\"1,2\n"), RuntimeFailure);
  }
}

}  // namespace csv_reader_test
