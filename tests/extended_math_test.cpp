// Known-answer tests of analytic/extended_math.hpp: ln, e^x, ln(1 + x) and
// ln j! in long double from + - * / only.
//
// References: 26-digit values from mpmath at 200 bits, for arguments that
// are exact in long double (so the reference is that of the argument the
// code receives). Tolerance: 2 ulp of the 64-bit significand, 3 for
// log_factorial (the measured worst cases over 10^6 random arguments against
// binary128 are 1.3 ulp for log, 1.2 for exp, 1.7 for log1p and 2.3 for
// log_factorial; glibc's x87 functions: 0.9, 1.1, 2.5 and 2.1).
#include <cmath>
#include <cstdint>
#include <limits>

#include <doctest/doctest.h>

#include "lbmc/analytic/extended_math.hpp"

namespace extended_math_test {

namespace {

namespace ext = lbmc::analytic::ext;

// |got - want| in units of the last place of want.
long double ulps(long double got, long double want) {
  const long double a = std::abs(want);
  const long double ulp = std::nextafter(a, std::numeric_limits<long double>::infinity()) - a;
  return std::abs(got - want) / ulp;
}

struct Case {
  long double x, want;
};

}  // namespace

TEST_SUITE("fast") {
  TEST_CASE("extended math: log against 26-digit references") {
    constexpr Case cases[] = {
        {0.5L, -0.69314718055994530941723212L},
        {0.75L, -0.28768207245178092743921901L},
        {1.0L + 0x1p-20L, 0.00000095367386165918823390841551L},
        {1.40625L, 0.3409265869705932103050892L},
        {1.5L, 0.40546510810816438197801312L},
        {2.0L, 0.69314718055994530941723212L},
        {6.0L, 1.7917594692280550008124774L},
        {10.0L, 2.3025850929940456840179915L},
        {500.0L, 6.2146080984221917426367422L},
        {1000.0L, 6.9077552789821370520539744L},
        {6283.25L, 8.7456426415206285844720317L},
        {1e6L, 13.815510557964274104107949L},
        {0x1p-1000L, -693.14718055994530941723212L},
        {0x1p1000L, 693.14718055994530941723212L},
        {12157665459056928801.0L, 43.944491546724387655809809L},  // 3^40
    };
    for (const Case& c : cases) {
      CAPTURE(static_cast<double>(c.x));
      CHECK(ulps(ext::log(c.x), c.want) <= 2.0L);
    }
    CHECK(ext::log(1.0L) == 0.0L);
    CHECK(ext::log(0.0L) == -std::numeric_limits<long double>::infinity());
    CHECK(std::isnan(ext::log(-1.0L)));
    CHECK(ext::log(std::numeric_limits<long double>::infinity()) == std::numeric_limits<long double>::infinity());
  }

  TEST_CASE("extended math: exp against 26-digit references") {
    constexpr Case cases[] = {
        {-80.0L, 1.8048513878454151723121284e-35L},
        {-40.5L, 2.5767571091549809481244039e-18L},
        {-1.0L, 0.36787944117144232159552377L},
        {-0x1p-33L, 0.99999999988358467817984145L},
        {0.34375L, 1.4102260349257107056997279L},
        {0.5L, 1.6487212707001281468486508L},
        {1.0L, 2.7182818284590452353602875L},
        {11.0L, 59874.141715197818455326486L},
        {700.25L, 1.3022997366991783935335422e+304L},
        {-700.25L, 7.6787238131108722116498874e-305L},
        {-6931.5L, 4.8730255404841651528923321e-3011L},
    };
    for (const Case& c : cases) {
      CAPTURE(static_cast<double>(c.x));
      CHECK(ulps(ext::exp(c.x), c.want) <= 2.0L);
    }
    CHECK(ext::exp(0.0L) == 1.0L);
    CHECK(ext::exp(-20000.0L) == 0.0L);
    CHECK(ext::exp(20000.0L) == std::numeric_limits<long double>::infinity());
    CHECK(std::isnan(ext::exp(std::numeric_limits<long double>::quiet_NaN())));
  }

  TEST_CASE("extended math: log1p against 26-digit references") {
    constexpr Case cases[] = {
        {-0.5L, -0.69314718055994530941723212L},
        {-0.25L, -0.28768207245178092743921901L},
        {-0x1p-10L, -0.00097703964782661278596807515L},
        {-0x1p-40L, -9.0949470177334182822131583e-13L},
        {0x1p-40L, 9.094947017725146476087628e-13L},
        {0.3125L, 0.27193371548364175883166949L},
        {1.0L, 0.69314718055994530941723212L},
    };
    for (const Case& c : cases) {
      CAPTURE(static_cast<double>(c.x));
      CHECK(ulps(ext::log1p(c.x), c.want) <= 2.0L);
    }
    CHECK(ext::log1p(0x1p-70L) == 0x1p-70L);
    CHECK(ext::log1p(-1.0L) == -std::numeric_limits<long double>::infinity());
  }

  TEST_CASE("extended math: log_factorial against 26-digit references - both sides of the Stirling switch") {
    struct FactorialCase {
      std::int64_t j;
      long double want;
    };
    constexpr FactorialCase cases[] = {
        {2, 0.69314718055994530941723212L},
        {3, 1.7917594692280550008124774L},
        {10, 15.10441257307551529522571L},
        {20, 42.33561646075348502965988L},
        {25, 58.00360522298051993929486L},
        {26, 61.26170176100200198476558L},
        {27, 64.55753862700633105895132L},
        {30, 74.65823634883016438548764L},
        {100, 363.73937555556349014408L},
        {1000, 5912.128178488163348878131L},
        {5000, 37591.14350887676656917322L},
        {100000, 1.051299221899121865129278e+6L},
        {1000000, 1.281551838465816962425108e+7L},
        {1000000000, 1.972326584822698260792313e+10L},
    };
    for (const FactorialCase& c : cases) {
      CAPTURE(c.j);
      CHECK(ulps(ext::log_factorial(c.j), c.want) <= 3.0L);
    }
    CHECK(ext::log_factorial(0) == 0.0L);
    CHECK(ext::log_factorial(1) == 0.0L);
    CHECK(std::isnan(ext::log_factorial(-1)));
  }
}

}  // namespace extended_math_test
