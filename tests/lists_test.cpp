// List and number parsing of the command line.
#include <doctest/doctest.h>

#include <cmath>

#include "lbmc/engine/errors.hpp"
#include "lbmc/engine/lists.hpp"

namespace lists_test {

using namespace lbmc::engine;

TEST_SUITE("fast") {
  TEST_CASE("lists: plain and geometric and arithmetic") {
    CHECK(parse_integer_list("16,64,256", 1) == std::vector<std::int64_t>{16, 64, 256});
    CHECK(parse_integer_list("16:4096:*2", 1) ==
          std::vector<std::int64_t>{16, 32, 64, 128, 256, 512, 1024, 2048, 4096});
    CHECK(parse_integer_list("10:100:+30", 1) == std::vector<std::int64_t>{10, 40, 70, 100});
    CHECK(parse_integer_list("1e3,2:4:+1", 1) == std::vector<std::int64_t>{1000, 2, 3, 4});
    const auto reals = parse_real_list("0.1:1:+0.1");
    REQUIRE(reals.size() == 10);
    CHECK(reals.back() == 1.0);
    CHECK(reals[2] == 0.3);  // the decimal meant, not 0.1 + 2·0.1 = 0.30000000000000004
    CHECK(reals[6] == 0.7);
    CHECK(parse_integer("1e6") == 1000000);
    CHECK(parse_real("+2.5") == 2.5);
    CHECK_FALSE(std::signbit(parse_real("-0")));
    CHECK_FALSE(std::signbit(parse_real("-0e5")));
  }

  TEST_CASE("lists: malformed input is rejected") {
    CHECK_THROWS_AS(parse_integer_list("", 1), InputError);
    CHECK_THROWS_AS(parse_integer_list("16,,64", 1), InputError);
    CHECK_THROWS_AS(parse_integer_list("0", 1), InputError);
    CHECK_THROWS_AS(parse_integer_list("2.5", 1), InputError);
    CHECK_THROWS_AS(parse_integer_list("16:4:*2", 1), InputError);
    CHECK_THROWS_AS(parse_integer_list("16:64:*1", 1), InputError);
    CHECK_THROWS_AS(parse_integer_list("16:64:2", 1), InputError);
    CHECK_THROWS_AS(parse_integer_list("0:64:*2", 0), InputError);
    CHECK_THROWS_AS(parse_integer_list("abc", 1), InputError);
    CHECK_THROWS_AS(parse_real("1.5x"), InputError);
    CHECK_THROWS_AS(parse_real("nan"), InputError);
    CHECK_THROWS_AS(parse_real("inf"), InputError);
    CHECK_THROWS_AS(parse_integer("1.5"), InputError);
  }

  TEST_CASE("lists: a list holds at most a million values whatever its number of ranges") {
    CHECK(parse_integer_list("1:1e6:+1", 1).size() == 1000000);
    CHECK(parse_integer_list("1:5e5:+1,1:5e5:+1", 1).size() == 1000000);
    // Each range alone is within the limit; together they are not (and would
    // take memory and time in proportion to the length of the text).
    CHECK_THROWS_AS(parse_integer_list("1:1e6:+1,7", 1), InputError);
    CHECK_THROWS_AS(parse_real_list("1:6e5:+1,1:6e5:+1"), InputError);
  }
}

}  // namespace lists_test
