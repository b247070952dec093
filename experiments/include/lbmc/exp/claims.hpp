// Claims: the printed numbers of a paper, recomputed (DESIGN §4, `reproduce`).
//
// A claim holds what the paper prints, the exact finite-size value where one
// can be computed, the Monte Carlo estimate with its standard error, a
// verdict and a note saying why any difference arises. The verdict compares
// our value (exact when known, else MC) with the printed one at the printed
// precision: `reproduced` when it rounds to it, `rounding` when it is one
// unit off in the last printed digit, `asymptotic-only` when only the
// paper's limit formula rounds to it, `differs` otherwise.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace lbmc::exp {

//! How a printed number compares with ours (the `verdict` column).
enum class ClaimVerdict { reproduced, rounding, asymptotic_only, differs };
//! "reproduced", "rounding", "asymptotic-only", "differs".
const char* to_string(ClaimVerdict verdict);
//! Every verdict, in the order summaries list them.
inline constexpr ClaimVerdict kClaimVerdicts[] = {ClaimVerdict::reproduced, ClaimVerdict::rounding,
                                                  ClaimVerdict::asymptotic_only, ClaimVerdict::differs};

struct Claim {
  std::string paper;
  std::string claim;     // stable id
  std::string location;  // section, table or equation
  std::string printed;   // as printed (a number, or a formula when no number is printed)
  std::optional<double> exact;
  std::optional<double> mc;
  std::optional<double> mc_se;
  ClaimVerdict verdict = ClaimVerdict::differs;
  std::string note;
};

//! The verdict for a printed decimal number (its unit in the last place is
//! read from the text, e.g. "3.6" -> 0.1, "6.458e-6" -> 1e-9), our value and,
//! when the paper used one, the value of its asymptotic formula.
ClaimVerdict classify(const std::string& printed, double ours, std::optional<double> asymptotic = std::nullopt);

//! The printed number's value and unit in the last place.
struct PrintedNumber {
  double value;
  double unit;
};
//! Throws engine::InputError when `printed` is not a finite decimal number.
PrintedNumber parse_printed(const std::string& printed);

std::string claims_csv(const std::vector<Claim>& claims);
//! A Markdown table of the same rows (6 significant digits), under a title.
std::string claims_markdown(const std::string& title, const std::vector<Claim>& claims);

//! One paper's reproduced claims.
struct PaperClaims {
  std::string id;
  std::string title;
  std::vector<Claim> claims;
};

//! results/SUMMARY.md: the count of each verdict per paper, then one line per
//! claim grouped by paper (printed value, ours, verdict).
std::string summary_markdown(const std::vector<PaperClaims>& papers);

//! results/ERRATA.md: every claim whose printed value our exact or simulated
//! value does not reproduce (verdict `differs` or `asymptotic-only`), with
//! the note saying why.
std::string errata_markdown(const std::vector<PaperClaims>& papers);

}  // namespace lbmc::exp
