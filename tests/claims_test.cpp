// Claim verdicts at the printed precision.
#include <doctest/doctest.h>

#include "lbmc/engine/errors.hpp"
#include "lbmc/exp/claims.hpp"

namespace claims_test {

using namespace lbmc::exp;

TEST_SUITE("fast") {
  TEST_CASE("claims: printed precision") {
    CHECK(parse_printed("3.6").unit == doctest::Approx(0.1));
    CHECK(parse_printed("4.895").unit == doctest::Approx(0.001));
    CHECK(parse_printed("30").unit == doctest::Approx(1.0));
    CHECK(parse_printed("6.458e-6").unit == doctest::Approx(1e-9));
    CHECK(parse_printed("6.458e-6").value == doctest::Approx(6.458e-6));
    CHECK(parse_printed("0.0e-2147483648").unit == 0.0);
    CHECK(parse_printed("2E+3").unit == doctest::Approx(1000.0));
  }

  TEST_CASE("claims: a printed text that is not a number is refused as input") {
    // A malformed or out-of-range exponent is bad input, not a
    // std::invalid_argument or std::out_of_range from reading it as an int.
    for (const char* text : {"6.458e\xca-6", "1e", "1e99999999999", "x", "", "1.5e-2147483648x"}) {
      CHECK_THROWS_AS(parse_printed(text), lbmc::engine::InputError);
    }
  }

  TEST_CASE("claims: verdicts") {
    CHECK(classify("0.5772", 0.5772156649) == ClaimVerdict::reproduced);
    CHECK(classify("0.626", 0.6266570687) == ClaimVerdict::rounding);       // rounds to 0.627
    CHECK(classify("3.6", 2.7267, 3.616) == ClaimVerdict::asymptotic_only);
    CHECK(classify("3.6", 2.7267, 2.9) == ClaimVerdict::differs);
    CHECK(classify("3.6", 2.7267) == ClaimVerdict::differs);
    CHECK(classify("9.791", 9.7916) == ClaimVerdict::rounding);              // 9.792 vs 9.791
  }
}

}  // namespace claims_test
