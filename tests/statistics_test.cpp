// Statistics as data (engine/statistics.hpp): rows come out of a sample's
// list in its order, with the command's references, scales, omissions and
// derived estimates; names the list does not declare are refused; the
// stopping rule watches the watched entries of a sample and of its nested
// samples. And every command's declared list matches what it emits: each
// declared statistic appears in some run, and no run emits another.
#include <doctest/doctest.h>

#include <array>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "lbmc/engine/csv_reader.hpp"
#include "lbmc/engine/statistics.hpp"
#include "lbmc/exp/command.hpp"
#include "support/files.hpp"

namespace statistics_test {

namespace {

using namespace lbmc::engine;

struct Toy {
  Moments x, y;
  QuantileStore x_values;
  Proportion hit;

  template <class Self>
  static auto fields(Self& s) {
    return std::tie(s.x, s.y, s.x_values, s.hit);
  }
  static constexpr auto statistics() {
    using namespace stat;  // quantiles and reciprocal name engine functions too: qualified
    return std::array{
        mean("x.mean", &Toy::x, "E x").watched(),
        variance("x.variance", &Toy::x, "Var x"),
        stat::quantiles("x", &Toy::x_values, "quantiles of x"),
        proportion("hit", &Toy::hit, "P(hit)"),
        stat::reciprocal("eff", &Toy::x, "c/E x"),
        derived<Toy>("extra", "formed by the caller"),
        mean("y.mean", &Toy::y, "E y").watched().when_observed(),
    };
  }
};

Toy toy() {
  Toy t;
  for (const double v : {1.0, 2.0, 3.0, 4.0}) {
    t.x.add(v);
    t.x_values.add(v);
  }
  t.hit.add(1, 4);
  t.x_values.finalize();
  return t;
}

std::vector<std::string> statistic_column(const ResultTable& table) {
  std::vector<std::string> names;
  for (const Row& r : table.rows) names.push_back(r.statistic);
  return names;
}

struct Nested {
  Toy slots[2];
  std::optional<Toy> maybe;
  template <class Self>
  static auto fields(Self& s) {
    return std::tie(s.slots, s.maybe);
  }
};

}  // namespace

TEST_SUITE("fast") {
  TEST_CASE("statistics: rows follow the list - with references and scales and omissions and derived rows") {
    ResultTable table;
    table.declared = describe<Toy>();
    PointRows rows(table, {"a"}, 0.95);
    RowInputs in;
    in.alphas({0.5, 0.9}).scale("eff", 2.0).refs("x.mean", {{"exact", ReferenceKind::exact, 2.5}});
    in.refs("x.q0.9", {{"exact", ReferenceKind::exact, 4.0}}).derived("extra", exact_value(7.0));
    emit_rows(rows, toy(), in);
    // y holds no observation: left out; the quantile rows per level.
    CHECK(statistic_column(table) ==
          std::vector<std::string>{"x.mean", "x.variance", "x.q0.5", "x.q0.9", "hit", "eff", "extra"});
    CHECK(table.rows[0].reference->value == 2.5);
    CHECK(table.rows[0].verdict == Verdict::pass);
    CHECK(table.rows[5].estimate.value == doctest::Approx(2.0 / 2.5));
    CHECK(table.rows[6].estimate.value == 7.0);

    ResultTable fewer;
    PointRows fewer_rows(fewer, {"a"}, 0.95);
    RowInputs omitting;
    omitting.scale("eff", 1.0).omit("x.variance").omit("x");
    emit_rows(fewer_rows, toy(), omitting);
    CHECK(statistic_column(fewer) == std::vector<std::string>{"x.mean", "hit", "eff"});
  }

  TEST_CASE("statistics: names a list does not declare are refused") {
    ResultTable table;
    table.declared = describe<Toy>();
    PointRows rows(table, {"a"}, 0.95);
    RowInputs typo;
    typo.scale("eff", 1.0).refs("x.maen", {{"exact", ReferenceKind::exact, 1.0}});
    CHECK_THROWS_AS(emit_rows(rows, toy(), typo), std::logic_error);
    RowInputs no_scale;
    CHECK_THROWS_AS(emit_rows(rows, toy(), no_scale), std::logic_error);
    CHECK_THROWS_AS(table.add({"a"}, "z.mean", exact_value(1.0), {}), std::logic_error);
    CHECK_NOTHROW(table.add({"a"}, "x.q0.25", exact_value(1.0), {}));
    CHECK_THROWS_AS(table.add({"a"}, "x.qx", exact_value(1.0), {}), std::logic_error);
  }

  TEST_CASE("statistics: the stopping rule watches watched entries - nested samples included") {
    const Toy t = toy();
    const auto own = watched_means(t);
    REQUIRE(own.size() == 2);  // x.mean, and y.mean (no observation: nothing to wait for)
    CHECK(own[0].mean == 2.5);
    CHECK(own[1].mean == 0.0);
    CHECK(own[1].se == 0.0);
    Nested nested;
    nested.slots[1] = t;
    CHECK(watched_means(nested).size() == 4);
    nested.maybe = t;
    CHECK(watched_means(nested).size() == 6);
    Moments bare;
    bare.add(1.0);
    CHECK(watched_means(bare).size() == 1);
  }

  TEST_CASE("statistics: help lines name every statistic and mark the watched ones") {
    const std::string help = statistics_help(describe<Toy>("per slot"));
    CHECK(help.find("per slot:") != std::string::npos);
    CHECK(help.find("x.mean*") != std::string::npos);
    CHECK(help.find("x.q<alpha>") != std::string::npos);
    CHECK(help.find("x.variance ") != std::string::npos);
  }

  TEST_CASE("statistics: every command emits exactly the statistics it declares") {
    // Runs that together reach every statistic of each command.
    const std::vector<std::pair<std::string, std::vector<std::string>>> runs{
        {"maxload", {"--n 16 --reps 2000 --alpha 0.9"}},
        {"maxshift", {"--dist poisson:4 --n 16 --reps 2000 --cov /dev/null"}},
        {"assign", {"--N 100 --P 10 --group 2 --reps 1000", "--solve-P --lambda 10"}},
        {"scatter", {"--tasks 10 --procs 16 --reps 2000"}},
        {"rebalance", {"--example cm5 --reps 200"}},
        {"compare", {"--N 50 --P 4 --reps 200"}},
        {"dynamic",
         {"--p 4 --t1 50 --reps 200", "--optimize-nu --p 4 --t1 50 --reps 200", "--lemma1 --p 4 --reps 1000",
          "--lemma1 --p 1000000 --reps 1000", "--isoefficiency --p 4,8,16 --reps 200",
          "--optimize-fanout --p 8 --t1 100 --levels 2 --reps 200"}},
    };
    const auto scratch = lbmc::test::scratch_folder("statistics");
    const auto commands = lbmc::exp::make_commands();
    std::set<std::string> checked;
    for (const auto& command : commands) {
      const auto declared = command->statistics();
      if (declared.empty()) continue;
      CAPTURE(command->name());
      const auto it = std::find_if(runs.begin(), runs.end(), [&](const auto& r) { return r.first == command->name(); });
      REQUIRE_MESSAGE(it != runs.end(), "a command with statistics needs runs here");
      std::set<std::string> emitted;
      for (const std::string& args : it->second) {
        const auto run = lbmc::test::run_captured(
            std::string(LBMC_BINARY) + " " + command->name() + " " + args + " --seed 1 --quiet --csv -", scratch);
        CAPTURE(args);
        CAPTURE(run.err);
        REQUIRE(run.code == 0);
        const CsvRecords csv = read_csv(run.out);
        const std::size_t column = csv.column("statistic");
        for (const auto& row : csv.rows) emitted.insert(row[column]);
      }
      for (const std::string& name : emitted) {
        CAPTURE(name);
        CHECK(declares(declared, name));
      }
      for (const StatisticInfo& s : declared) {
        CAPTURE(s.name);
        CHECK(std::any_of(emitted.begin(), emitted.end(), [&](const std::string& e) { return s.names_row(e); }));
      }
      checked.insert(command->name());
    }
    CHECK(checked.size() == runs.size());
  }
}

}  // namespace statistics_test
