// Renderings of a result table: tidy CSV (DESIGN §4, byte-stable: numbers in
// shortest round-trip form), JSON with run metadata, and the readable table
// printed on stdout.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "lbmc/engine/results.hpp"

namespace lbmc::engine {

//! What JSON `meta` records about a run.
struct RunMeta {
  std::string command_line;
  std::uint64_t seed = 0;
  int threads = 1;
  //! MPI ranks (1 for a single process); threads are per rank.
  int ranks = 1;
  std::int64_t reps = 0;
  std::string start_time;  // ISO 8601, UTC
  double wall_seconds = 0.0;
  //! The replications' rates, from the time of the replication loops; the
  //! time then spent sorting the stored values for exact quantiles is
  //! store_seconds.
  double reps_per_second = 0.0;
  double ns_per_variate = 0.0;
  double store_seconds = 0.0;
  std::string stopping;  // how the run ended (fixed reps, target met, max reps)
  std::string device = "cpu";  // cpu, or cuda and the GPU's name
};
// The JSON meta's run fields, by member name.
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(RunMeta, command_line, seed, threads, ranks, reps, start_time, wall_seconds,
                                   reps_per_second, ns_per_variate, store_seconds, stopping, device)

//! Zero without its sign: no output of lbmc prints -0 (a quantile or a
//! difference of equal values rounds to -0.0 in floating point).
inline double unsigned_zero(double x) { return x == 0.0 ? 0.0 : x; }
//! Shortest text that reads back as the same double, zero unsigned; "nan",
//! "inf", "-inf".
std::string format_number(double x);
//! A CSV field, quoted when it holds a comma, quote or newline.
std::string csv_field(const std::string& text);

std::string to_csv(const ResultTable& table);
nlohmann::json to_json(const ResultTable& table, const RunMeta& meta);
//! The readable table: one block per parameter point, 6 significant digits.
std::string to_text(const ResultTable& table);

}  // namespace lbmc::engine
