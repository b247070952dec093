// The counter-based stream (engine/philox.hpp, `--rng philox`): Random123's
// published known answers, the counter layout of a block, uniform words, and
// runs on it that are byte-identical at any thread count and agree in law
// with the pcg64 runs.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "lbmc/dist/samplers.hpp"
#include "lbmc/engine/csv_reader.hpp"
#include "lbmc/engine/philox.hpp"
#include "lbmc/engine/rng.hpp"
#include "support/files.hpp"

namespace philox_test {

namespace {

using lbmc::engine::PhiloxStream;
using lbmc::engine::philox4x32_10;

// Column `column` of the row of `csv` with this statistic and reference.
double csv_value(const std::string& csv, const std::string& statistic, const std::string& reference,
                 const std::string& column) {
  const lbmc::engine::CsvRecords records = lbmc::engine::read_csv(csv);
  for (const auto& row : records.rows) {
    if (row[records.column("statistic")] == statistic && row[records.column("reference")] == reference) {
      return std::stod(row[records.column(column)]);
    }
  }
  FAIL("no row " << statistic << " " << reference);
  return 0.0;
}

// Whether `statistic`'s estimates in two runs' CSVs (its row against
// `reference`) agree within 4 standard errors of their difference.
bool agree_within_4_se(const std::string& a, const std::string& b, const std::string& statistic,
                       const std::string& reference) {
  const double difference = csv_value(a, statistic, reference, "estimate") - csv_value(b, statistic, reference, "estimate");
  return std::abs(difference) <=
         4 * std::hypot(csv_value(a, statistic, reference, "se"), csv_value(b, statistic, reference, "se"));
}

// Rows of `csv` whose exact reference failed.
int failed_exact_checks(const std::string& csv) {
  const lbmc::engine::CsvRecords records = lbmc::engine::read_csv(csv);
  int failed = 0;
  for (const auto& row : records.rows) {
    failed += row[records.column("reference_kind")] == "exact" && row[records.column("verdict")] == "fail" ? 1 : 0;
  }
  return failed;
}

}  // namespace

TEST_SUITE("fast") {
  TEST_CASE("philox: Random123's known answers for Philox4x32-10") {
    // Random123's kat_vectors, the three philox4x32 10 lines: counter, key, result.
    CHECK(philox4x32_10({0, 0, 0, 0}, {0, 0}) ==
          std::array<std::uint32_t, 4>{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8});
    CHECK(philox4x32_10({0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff}, {0xffffffff, 0xffffffff}) ==
          std::array<std::uint32_t, 4>{0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd});
    CHECK(philox4x32_10({0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}, {0xa4093822, 0x299f31d0}) ==
          std::array<std::uint32_t, 4>{0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1});
  }

  TEST_CASE("philox: output 2i and 2i+1 of a block are call i of Philox - counter (i with the block) and key from the seed") {
    const std::uint64_t key = 0x0123456789abcdefULL;
    const std::uint64_t block = 0xfedcba9876543210ULL;
    PhiloxStream stream(key, block);
    const std::array<std::uint32_t, 2> k{0x89abcdef, 0x01234567};
    for (std::uint32_t call = 0; call < 37; ++call) {  // across refills of 16 calls
      const auto r = philox4x32_10({call, 0, 0x76543210, 0xfedcba98}, k);
      CHECK(stream() == (r[0] | (std::uint64_t{r[1]} << 32)));
      CHECK(stream() == (r[2] | (std::uint64_t{r[3]} << 32)));
      CHECK(stream.drawn() == 2 * (call + 1));
    }
    // A block's key is the first seed word of its pcg64.
    const auto words = lbmc::engine::block_seed_words(7, 3);
    PhiloxStream from_seed = lbmc::engine::block_philox(7, 3);
    PhiloxStream by_hand(words[0], 3);
    for (int i = 0; i < 20; ++i) CHECK(from_seed() == by_hand());
    // Blocks under one key differ from their first output on.
    CHECK(PhiloxStream(key, 0)() != PhiloxStream(key, 1)());
  }

  TEST_CASE("philox: the lanes compute Random123's function - for any key - block and call - across 2^32 calls") {
    std::uint64_t mix = 99;
    for (int trial = 0; trial < 200; ++trial) {
      const std::uint64_t a = lbmc::engine::splitmix64(mix);
      const std::uint64_t b = lbmc::engine::splitmix64(mix);
      const std::array<std::uint32_t, 2> key{static_cast<std::uint32_t>(a), static_cast<std::uint32_t>(a >> 32)};
      const std::array<std::uint32_t, 2> block{static_cast<std::uint32_t>(b), static_cast<std::uint32_t>(b >> 32)};
      // Around 2^32 calls the counter's second word carries.
      const std::uint64_t first = trial % 2 == 0 ? lbmc::engine::splitmix64(mix) >> 1 : (std::uint64_t{1} << 32) - 3;
      std::array<std::uint64_t, 32> words{};
      lbmc::engine::philox_lanes(key, block, first, words);
      std::array<std::uint64_t, 32> by_lane{};
      lbmc::engine::philox_lanes_reference(key, block, first, by_lane);
      CHECK(words == by_lane);
      for (std::uint64_t l = 0; l < 16; ++l) {
        const std::uint64_t call = first + l;
        const auto r = philox4x32_10(
            {static_cast<std::uint32_t>(call), static_cast<std::uint32_t>(call >> 32), block[0], block[1]}, key);
        CHECK(words[2 * l] == (r[0] | (std::uint64_t{r[1]} << 32)));
        CHECK(words[2 * l + 1] == (r[2] | (std::uint64_t{r[3]} << 32)));
      }
    }
  }

  TEST_CASE("philox: words are uniform - every bit balanced and uniform01 flat in 64 bins within 4 se") {
    PhiloxStream stream = lbmc::engine::block_philox(20261127, 0);
    constexpr int kWords = 1 << 20;
    std::array<std::int64_t, 64> ones{};
    std::array<std::int64_t, 64> bins{};
    for (int i = 0; i < kWords; ++i) {
      const std::uint64_t w = stream();
      for (int b = 0; b < 64; ++b) ones[static_cast<std::size_t>(b)] += static_cast<std::int64_t>((w >> b) & 1);
      bins[w >> 58] += 1;
    }
    const double half = kWords / 2.0;
    const double se = std::sqrt(kWords * 0.25);
    for (const std::int64_t count : ones) CHECK(std::abs(static_cast<double>(count) - half) <= 4 * se);
    double chi2 = 0.0;
    const double expected = kWords / 64.0;
    for (const std::int64_t count : bins) chi2 += std::pow(static_cast<double>(count) - expected, 2) / expected;
    CHECK(std::abs(chi2 - 63.0) <= 4 * std::sqrt(2 * 63.0));  // chi-square, 63 degrees of freedom
  }

  TEST_CASE("philox: the samplers it covers are named from the law table") {
    CHECK(lbmc::dist::counter_stream_laws() == "normal, binomial, poisson, exponential, uniform, constant");
    CHECK(lbmc::dist::takes_counter_stream(lbmc::dist::Normal{0, 1}));
    CHECK(lbmc::dist::takes_counter_stream(lbmc::dist::Poisson{10}));
    CHECK_FALSE(lbmc::dist::takes_counter_stream(lbmc::dist::Gamma{2, 1}));
  }

  TEST_CASE("philox: maxload --rng philox gives the same bytes at 1 and 2 threads - and other bytes than pcg64") {
    const lbmc::test::LbmcRunner run{lbmc::test::scratch_folder("philox_test")};
    const std::string args = "maxload --rng philox --dist normal:0,1 --dist exponential:1 --n 16,1024 --reps 4000 "
                             "--seed 5 --quiet --csv -";
    const std::string philox = lbmc::test::same_output_at_1_and_2_threads(run, args);
    const lbmc::test::Captured pcg = run("maxload --method brute --dist normal:0,1 --dist exponential:1 --n 16,1024 "
                                         "--reps 4000 --seed 5 --quiet --csv -");
    REQUIRE(pcg.code == 0);
    CHECK(philox != pcg.out);
    CHECK(philox.find(",brute,") != std::string::npos);
    lbmc::test::same_output_at_1_and_2_threads(
        run, "maxshift --rng philox --dist normal:0,1 --dist uniform:0,1 --n 16,1024 --reps 4000 --seed 5 --quiet --csv -");
    lbmc::test::same_output_at_1_and_2_threads(
        run, "scatter --rng philox --dist exponential:1 --dist uniform:1,2 --tasks 1,30 --procs 5,64 --reps 4000 --seed 5 "
             "--quiet --csv -");
  }

  TEST_CASE("philox: --rng and --device are checked - unknown names and direct maxima and laws they do not cover are refused") {
    const lbmc::test::LbmcRunner run{lbmc::test::scratch_folder("philox_test")};
    const struct {
      const char* args;
      const char* message;
    } cases[] = {
        {"maxload --rng mt19937", "--rng: 'mt19937' is not pcg64 or philox"},
        {"maxload --rng philox --method direct", "--method direct draws from pcg64"},
        {"maxload --rng philox --dist geometric:0.5", "'geometric:0.5' does not draw from the counter-based stream (laws "
                                                       "that do: normal, binomial, poisson, exponential, uniform, constant)"},
        {"maxshift --rng philox --dist geometric:0.5", "--rng philox: 'geometric:0.5' does not draw from the counter-based"},
        {"maxload --device gpu", "--device: 'gpu' is not cpu or cuda"},
        {"maxload --device cuda --rng pcg64", "--device cuda: a GPU draws from the counter-based stream"},
        {"maxload --device cuda --method direct", "--device cuda: --method direct draws from pcg64"},
        {"maxload --device cuda --dist geometric:0.5", "--device cuda: 'geometric:0.5' does not draw from the counter-based"},
        {"maxload --device cuda --n 16,2000000", "--device cuda: --n 2000000 is more than 1048576"},
        {"maxshift --device cuda --cov c.csv", "--device cuda: --cov needs every replication's bridge"},
        {"scatter --rng philox --dist gamma:2,1", "--rng philox: 'gamma:2,1' does not draw from the counter-based"},
        {"scatter --device cuda --tasks 1000 --procs 2000", "--device cuda: --tasks x --procs 2000000 is more than"},
    };
    for (const auto& c : cases) {
      CAPTURE(c.args);
      const lbmc::test::Captured r = run(std::string(c.args) + " --csv out.csv");
      CHECK(r.code == 2);
      CHECK(r.err.find(c.message) != std::string::npos);
      CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
      CHECK_FALSE(std::filesystem::exists(run.scratch / "out.csv"));
    }
  }
}

TEST_SUITE("statistical") {
  TEST_CASE("philox: maxload on the counter-based stream passes its exact checks - and agrees with pcg64 within 4 se") {
    const lbmc::test::LbmcRunner run{lbmc::test::scratch_folder("philox_test")};
    for (const char* dist : {"normal:0,1", "exponential:2", "uniform:-1,3", "poisson:10", "binomial:4096,0.5"}) {
      CAPTURE(dist);
      const std::string common = std::string("maxload --method brute --dist ") + dist +
                                 " --n 1024 --reps 20000 --alpha 0.5 --seed 11 --quiet --csv -";
      const lbmc::test::Captured philox = run(common + " --rng philox");
      const lbmc::test::Captured pcg = run(common);
      REQUIRE(philox.code == 0);
      REQUIRE(pcg.code == 0);
      CHECK(philox.out.find(",fail") == std::string::npos);
      for (const char* statistic : {"mean", "variance", "q0.5"}) {
        CAPTURE(statistic);
        CHECK(agree_within_4_se(philox.out, pcg.out, statistic, "exact"));
      }
    }
  }

  TEST_CASE("philox: scatter on the counter-based stream passes its exact checks - and agrees with pcg64 within 4 se") {
    const lbmc::test::LbmcRunner run{lbmc::test::scratch_folder("philox_test")};
    for (const char* dist : {"normal:5,1", "exponential:2", "constant:1.5", "poisson:10"}) {
      CAPTURE(dist);
      const std::string common = std::string("scatter --dist ") + dist +
                                 " --tasks 10 --procs 64 --reps 20000 --confidence 0.9 --seed 13 --quiet --csv -";
      const lbmc::test::Captured philox = run(common + " --rng philox");
      const lbmc::test::Captured pcg = run(common);
      REQUIRE(philox.code == 0);
      REQUIRE(pcg.code == 0);
      CHECK(philox.out.find(",exact,exact,") != std::string::npos);
      CHECK(philox.out.find(",fail") == std::string::npos);
      for (const char* statistic : {"l.mean", "l.q0.9"}) {
        CAPTURE(statistic);
        CHECK(agree_within_4_se(philox.out, pcg.out, statistic, "exact"));
      }
    }
  }

  TEST_CASE("philox: maxshift on the counter-based stream passes its exact checks - and agrees with pcg64 within 4 se") {
    const lbmc::test::LbmcRunner run{lbmc::test::scratch_folder("philox_test")};
    for (const char* dist : {"normal:0,1", "exponential:2", "uniform:-1,3", "poisson:10", "binomial:4096,0.5"}) {
      CAPTURE(dist);
      const std::string common =
          std::string("maxshift --dist ") + dist + " --n 256 --reps 20000 --seed 12 --quiet --csv -";
      const lbmc::test::Captured philox = run(common + " --rng philox");
      const lbmc::test::Captured pcg = run(common);
      REQUIRE(philox.code == 0);
      REQUIRE(pcg.code == 0);
      CHECK(failed_exact_checks(philox.out) == 0);  // the paper's bound on P(D >= 1) fails on either stream
      for (const auto& [statistic, reference] : {std::pair{"W'.mean", "bridge-limit"}, std::pair{"D'.mean", "kolmogorov-limit"},
                                                 std::pair{"W'.q0.95", "bridge-limit"}}) {
        CAPTURE(statistic);
        CHECK(agree_within_4_se(philox.out, pcg.out, statistic, reference));
      }
    }
  }
}

}  // namespace philox_test
