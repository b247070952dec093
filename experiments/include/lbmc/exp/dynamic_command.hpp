// The options of `lbmc dynamic` and its modes (experiments/dynamic/): the
// checked options, the rows of each mode, and the references of a point.
#pragma once

#include <array>
#include <cstdint>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include "lbmc/dist/laws.hpp"
#include "lbmc/engine/results.hpp"
#include "lbmc/exp/dynamic.hpp"
#include "lbmc/exp/report.hpp"
#include "lbmc/exp/run_options.hpp"

namespace lbmc::exp {

//! What `lbmc dynamic` runs: the points of its options, or one of the modes
//! of kDynamicModes.
enum class DynamicMode { points, optimize_nu, lemma1, isoefficiency, optimize_fanout };

//! A mode's flag and its line of --help.
struct DynamicModeFlag {
  const char* flag;
  DynamicMode mode;
  const char* help;
};
inline constexpr DynamicModeFlag kDynamicModes[] = {
    {"--optimize-nu", DynamicMode::optimize_nu, "search the nu of maximal efficiency"},
    {"--lemma1", DynamicMode::lemma1, "E max of p Exp(1): H_p (exact) against ln p"},
    {"--isoefficiency", DynamicMode::isoefficiency, "per p the smallest t1 with eta_max >= --eta0, and the fit"},
    {"--optimize-fanout", DynamicMode::optimize_fanout, "two levels: eta_max for every root degree"},
};

//! The options of `lbmc dynamic` as typed.
struct DynamicOptionsText {
  std::string model = "exponential";
  std::string r_dist;
  std::string u_dist;
  std::string p;
  std::string t1;
  std::string kappa;
  std::string nu = "auto";
  std::string lambda = "1";
  std::string levels = "1";
  std::string fanout;
  std::string eta0 = "0.8";
  std::string tol = "0.05";
  std::array<bool, std::size(kDynamicModes)> modes{};  //!< the flags of kDynamicModes
};

//! The options, checked.
struct DynamicOptions {
  std::vector<SubtaskModel> models;
  std::optional<dist::LoadLaw> r_law;
  std::optional<dist::LoadLaw> u_law;
  std::vector<std::int64_t> p;
  std::vector<double> t1;     //!< given t1 (empty: from kappa)
  std::vector<double> kappa;  //!< t1 = κ p² ln p/λ
  std::vector<double> nu;     //!< empty: auto, ρ = 1
  std::vector<double> lambda;
  int levels = 1;
  std::vector<std::int64_t> fanout;  //!< empty: equal degree (or per mode)
  double eta0 = 0.8;
  double tol = 0.05;
  DynamicMode mode = DynamicMode::points;
};

//! Checks the options; every error names the option (exit 2).
DynamicOptions check_dynamic_options(const DynamicOptionsText& text);

//! The largest ν of the points the options name: the largest --nu, or with
//! ν auto (ρ = 1) the largest λ·t1/p over p, λ and t1 (1 for λ = inf);
//! 1 for --lemma1 and for the searches, which choose their own.
double largest_nu(const DynamicOptions& options);

//! Runs the selected mode, adding rows and run records to `report`.
void run_dynamic(const DynamicOptions& options, const AppliedRun& applied, Report& report);

//! The references of T_p.mean and eta of a single-level model at its ν
//! (exact values, Proposition 1, Theorem 1 in both forms, Theorem 2 and
//! Corollary 1 as bounds); empty for several levels.
struct PointReferences {
  std::vector<engine::Reference> t_p;
  std::vector<engine::Reference> eta;
};
PointReferences point_references(const DynamicModel& model);

//! The references of eta_max at (p, t1, λ): the deterministic exact optimum
//! (a bound), Proposition 1, Theorem 1 (ii) with ln p and with H_p.
std::vector<engine::Reference> max_efficiency_references(const DynamicModel& model);

//! Largest ν for which the exponential model's exact E T_p is computed.
inline constexpr double kExactExponentialNuMax = 300.0;

}  // namespace lbmc::exp
