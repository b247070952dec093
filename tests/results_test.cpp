// Result rows: z-scores, verdicts and the CSV contract.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "lbmc/engine/results.hpp"
#include "lbmc/engine/rows.hpp"
#include "lbmc/engine/writers.hpp"

namespace results_test {

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

  TEST_CASE("results: a bound that fails with a caveat says why in a note") {
    ResultTable t;
    t.param_names = {"n"};
    const Reference known{"paper", ReferenceKind::bound, 0.5, true, "a one-sided tail"};
    t.add({"64"}, "p", {0.9, 0.01, 0.88, 0.92, 1000}, {known});  // z = 40: not respected
    t.add({"16"}, "p", {0.4, 0.01, 0.38, 0.42, 1000}, {known});  // respected
    t.add({"64"}, "p", {0.9, 0.01, 0.88, 0.92, 1000}, {{"other", ReferenceKind::bound, 0.5, true}});
    CHECK(t.rows[0].verdict == Verdict::fail);
    CHECK(t.rows[1].verdict == Verdict::pass);
    CHECK(t.rows[2].verdict == Verdict::fail);
    REQUIRE(t.notes.size() == 1);
    CHECK(t.notes[0] == "n=64 p (bound paper): not respected: a one-sided tail");
  }

  TEST_CASE("results: a value without sampling error compares exactly") {
    ResultTable t;
    t.add({}, "violations", exact_value(0.0, 10), {{"exact", ReferenceKind::exact, 0.0}});
    t.add({}, "violations", exact_value(0.1, 10), {{"exact", ReferenceKind::exact, 0.0}});
    CHECK(*t.rows[0].z == 0.0);
    CHECK(t.rows[0].verdict == Verdict::pass);
    CHECK(std::isinf(*t.rows[1].z));
    CHECK(t.rows[1].verdict == Verdict::fail);
    CHECK(t.notes.empty());
  }

  TEST_CASE("results: a sample that cannot decide gives no verdict and a note - never a failure") {
    ResultTable t;
    t.param_names = {"n"};
    // Every replication equal (a rare event not seen): no spread to judge by.
    t.add({"3"}, "mean", {0.0, 0.0, 0.0, 0.0, 100000}, {{"exact", ReferenceKind::exact, 1e-6}});
    // One replication: no standard error at all.
    const double nan = std::numeric_limits<double>::quiet_NaN();
    t.add({"3"}, "mean", {2.0, nan, nan, nan, 1}, {{"exact", ReferenceKind::exact, 1.0},
                                                    {"upper", ReferenceKind::bound, 0.5, true}});
    // Equality passes whatever the se.
    t.add({"3"}, "mean", {2.0, nan, nan, nan, 1}, {{"exact", ReferenceKind::exact, 2.0}});
    REQUIRE(t.rows.size() == 4);
    for (int i = 0; i < 3; ++i) {
      CHECK_FALSE(t.rows[i].z.has_value());
      CHECK(t.rows[i].verdict == Verdict::none);
    }
    CHECK(t.rows[0].rel_diff.has_value());
    CHECK(t.rows[3].verdict == Verdict::pass);
    CHECK(t.failures(ReferenceKind::exact) == 0);
    CHECK(t.failures(ReferenceKind::bound) == 0);
    REQUIRE(t.notes.size() == 3);
    CHECK(t.notes[0].find("n=3 mean (exact exact)") == 0);
    CHECK(t.notes[0].find("100000 replications") != std::string::npos);
    CHECK(t.notes[1].find("fewer than two replications") != std::string::npos);
  }

  TEST_CASE("results: a mean of no replication is NaN and gets no verdict") {
    ResultTable t;
    const Estimate e = mean_estimate(Moments{}, 0.95);
    CHECK(std::isnan(e.value));
    CHECK(e.reps == 0);
    t.add({}, "mean", e, {{"exact", ReferenceKind::exact, 0.0}});
    CHECK(t.rows[0].verdict == Verdict::none);
    CHECK(t.failures(ReferenceKind::exact) == 0);
    REQUIRE(t.notes.size() == 1);
    CHECK(t.notes[0].find("no replication") != std::string::npos);
    // A NaN from replications is a failed check.
    t.add({}, "mean", {std::numeric_limits<double>::quiet_NaN(), 0.1, 0.0, 0.0, 10},
          {{"exact", ReferenceKind::exact, 0.0}});
    CHECK(t.rows[1].verdict == Verdict::fail);
  }

  TEST_CASE("results: a sample without spread on the safe side of a bound respects it") {
    ResultTable t;
    t.param_names = {"n"};
    // Every one of 1000 replications gave 8: below an upper bound of 8.875,
    // above a lower bound of 1; beyond an upper bound of 7 it cannot decide.
    t.add({"3"}, "ratio", {8.0, 0.0, 8.0, 8.0, 1000},
          {{"upper", ReferenceKind::bound, 8.875, true}, {"lower", ReferenceKind::bound, 1.0, false},
           {"beyond", ReferenceKind::bound, 7.0, true}});
    REQUIRE(t.rows.size() == 3);
    CHECK(t.rows[0].verdict == Verdict::pass);
    CHECK(t.rows[1].verdict == Verdict::pass);
    CHECK(t.rows[2].verdict == Verdict::none);
    CHECK(t.failures(ReferenceKind::bound) == 0);
    REQUIRE(t.notes.size() == 1);
    CHECK(t.notes[0].find("beyond") != std::string::npos);
  }

  TEST_CASE("results: one-sided standard errors - open and closed sides") {
    ResultTable t;
    Estimate e{1.0, 0.5, 0.0, 3.0, 50};
    e.sided = SidedSe{0.25, std::numeric_limits<double>::infinity()};
    e.unresolved_note = "open above";
    t.add({}, "q0.99", e, {{"exact", ReferenceKind::exact, 0.5}, {"exact", ReferenceKind::exact, 2.0},
                           {"exact", ReferenceKind::exact, -0.5}});
    CHECK(*t.rows[0].z == doctest::Approx(2.0));  // below: the lower se
    CHECK(t.rows[0].verdict == Verdict::pass);
    CHECK_FALSE(t.rows[1].z.has_value());         // above: open
    CHECK(t.rows[1].verdict == Verdict::none);
    CHECK(t.notes.at(0).find("open above") != std::string::npos);
    CHECK(t.rows[2].verdict == Verdict::fail);    // z = 6 on the closed side
    // A side of zero width in an exact interval excludes the reference.
    Estimate point{7.0, 0.0, 7.0, 7.0, 1000};
    point.sided = SidedSe{0.0, 0.0};
    t.add({}, "q0.5", point, {{"exact", ReferenceKind::exact, 8.0}});
    CHECK(t.rows.back().verdict == Verdict::fail);
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
    CHECK(format_number(-0.0) == "0");
    CHECK(format_number(-1e-320) == "-1e-320");
  }
}

}  // namespace results_test
