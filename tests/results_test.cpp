// Result rows: z-scores, verdicts and the CSV contract.
#include <doctest/doctest.h>

#include <cmath>

#include "lbmc/engine/results.hpp"
#include "lbmc/engine/writers.hpp"

using namespace lbmc::engine;

TEST_SUITE("fast") {
  TEST_CASE("results: verdicts per reference kind") {
    ResultTable t;
    t.experiment = "demo";
    t.param_names = {"n"};
    const Estimate e = normal_estimate(10.0, 0.5, 100, 0.95);
    CHECK(e.ci_low == doctest::Approx(10.0 - 1.959963984540054 * 0.5).epsilon(1e-14));
    t.add({"4"}, "mean", e,
          {{"exact", ReferenceKind::exact, 9.0},
           {"exact", ReferenceKind::exact, 7.9},
           {"gumbel-paper", ReferenceKind::asymptotic, 3.0},
           {"upper", ReferenceKind::bound, 8.5, true},
           {"upper", ReferenceKind::bound, 7.9, true},
           {"lower", ReferenceKind::bound, 11.0, false}});
    REQUIRE(t.rows.size() == 6);
    CHECK(*t.rows[0].z == doctest::Approx(2.0));
    CHECK(t.rows[0].verdict == Verdict::pass);
    CHECK(t.rows[1].verdict == Verdict::fail);  // z = 4.2
    CHECK(t.rows[2].verdict == Verdict::info);
    CHECK(*t.rows[2].rel_diff == doctest::Approx(7.0 / 3.0));
    CHECK(t.rows[3].verdict == Verdict::pass);  // 10 − 4·0.5 <= 8.5
    CHECK(t.rows[4].verdict == Verdict::fail);  // 10 − 4·0.5 > 7.9
    CHECK(t.rows[5].verdict == Verdict::pass);  // 10 + 4·0.5 >= 11
    CHECK(t.failures(ReferenceKind::exact) == 1);
    CHECK(t.failures(ReferenceKind::bound) == 1);
  }

  TEST_CASE("results: zero se compares exactly") {
    ResultTable t;
    t.add({}, "mean", {5.0, 0.0, 5.0, 5.0, 10}, {{"exact", ReferenceKind::exact, 5.0}});
    t.add({}, "mean", {5.0, 0.0, 5.0, 5.0, 10}, {{"exact", ReferenceKind::exact, 6.0}});
    CHECK(*t.rows[0].z == 0.0);
    CHECK(t.rows[0].verdict == Verdict::pass);
    CHECK(std::isinf(*t.rows[1].z));
    CHECK(t.rows[1].verdict == Verdict::fail);
  }

  TEST_CASE("results: CSV header and a bare row") {
    ResultTable t;
    t.experiment = "maxload";
    t.param_names = {"dist", "n"};
    t.add({"normal:0,1", "16"}, "mean", {1.5, 0.25, 1.0, 2.0, 1000}, {});
    const std::string csv = to_csv(t);
    CHECK(csv ==
          "experiment,dist,n,statistic,estimate,se,ci_low,ci_high,reps,reference,reference_kind,reference_value,z,"
          "rel_diff,verdict\n"
          "maxload,\"normal:0,1\",16,mean,1.5,0.25,1,2,1000,,,,,,\n");
  }

  TEST_CASE("results: numbers round-trip") {
    for (double x : {0.1, 1.0 / 3.0, 1e-300, 6.02214076e23, -2.5}) {
      CHECK(std::stod(format_number(x)) == x);
    }
    CHECK(format_number(std::numeric_limits<double>::infinity()) == "inf");
  }
}
