// What an entry of the law table (laws.hpp) is made of: the facts a law
// declares (Facts, MaxDomain), its parameters (Field: a member of its struct
// and the valid range), the rules across parameters its check states
// (SpecRules), and the names its lines use (EntryBase). Nothing here names a
// law; laws.hpp holds the entries, laws.cpp and law_fields.hpp the
// functions derived from them.
//
// Valid ranges, one rule for every command (DESIGN §3): every value and
// moment a command forms must stay a finite double with room to spare; sums
// of up to 2^62 values of magnitude 1e100 and their squares stay below
// 1e238. A spread below 1e-6 of the location's magnitude would drown in the
// rounding of sums of the values (the relative error of a centred prefix sum
// of n values is about |MU|/SIGMA · 2^-53 · sqrt(n)), and one below 1e-100
// would underflow in the variance. Boost.Math's incomplete gamma and beta
// functions, behind the Poisson, gamma and negative binomial cdfs, stop
// converging beyond means of ~1e10.
#pragma once

#include <limits>
#include <string_view>

#include <fmt/format.h>

#include "lbmc/engine/errors.hpp"

namespace lbmc::dist {

//! The limit law of the normalised maximum of n iid values (Fisher–Tippett):
//! Gumbel (exponential-type tails: normal, exponential, gamma, lognormal,
//! Weibull; the integer laws are compared with it too, though a lattice law
//! has no non-degenerate limit), Fréchet (polynomial tails: Pareto), reversed
//! Weibull (a finite upper end with a density: uniform), or none (a point
//! mass, or a law with finitely many values).
enum class MaxDomain { gumbel, frechet, reversed_weibull, none };

//! The facts of a law, for its parameters: a law whose smallest and largest
//! values agree is a point mass there, whatever the rest says.
struct Facts {
  double support_min;
  double support_max;
  bool continuous;             // has a density
  bool integer_valued;         // every value is an integer
  double finite_moment_order;  // the moments of order below this exist (kInf: all)
  MaxDomain domain;
};

//! The largest mean of the Poisson law (and the shape and size parameters of
//! the gamma and negative binomial laws): Boost.Math's incomplete gamma and
//! beta functions behind their cdfs stop converging beyond it.
inline constexpr double kMaxIntegerMean = 1e10;

//! The table entry of a law type: specialised once per law in laws.hpp.
template <class Law>
struct LawEntry;

namespace table {

inline constexpr double kInf = std::numeric_limits<double>::infinity();
inline constexpr double kMaxMagnitude = 1e100;
inline constexpr double kMinScale = 1e-100;
inline constexpr double kMinRelativeSpread = 1e-6;

//! The spec form at the head of an entry's help line: "normal:MU,SIGMA".
constexpr std::string_view spec_form(std::string_view help) { return help.substr(0, help.find(' ')); }
//! The law's name: the spec form up to its colon, "normal".
constexpr std::string_view law_name(std::string_view help) { return help.substr(0, help.find(':')); }

//! The rules of one spec: each refusal is an engine::InputError naming the
//! spec and the rule it breaks ("'normal:0,-1': SIGMA must be > 0").
class SpecRules {
 public:
  explicit SpecRules(std::string_view spec) : spec_(spec) {}
  //! Refuses the spec with `rule` unless `ok`.
  void require(bool ok, std::string_view rule) const {
    if (!ok) throw engine::InputError(fmt::format("'{}': {}", spec_, rule));
  }
  //! A spread (scale or width) of at least 1e-100 and 1e-6 of the location.
  void spread(double spread, double location, std::string_view what) const {
    require(spread >= kMinScale, fmt::format("{} must be >= 1e-100", what));
    require(spread >= kMinRelativeSpread * location,
            fmt::format("{} must be >= 1e-6 of the location's magnitude, or sums of the values lose their "
                        "spread to rounding",
                        what));
  }

 private:
  std::string_view spec_;
};

//! A parameter of a law: its member in the law's struct and its valid range
//! [lo, hi] ((lo, hi] when `open_lo`); an integer member takes integers in
//! that range.
template <class Law, class T>
struct Field {
  T Law::*member;
  double lo;
  double hi;
  bool open_lo = false;
};
template <class Law, class T>
constexpr Field<Law, T> field(T Law::*member, double lo, double hi, bool open_lo = false) {
  return {member, lo, hi, open_lo};
}

//! The base of every entry of the table: the names its lines use.
struct EntryBase {
  static constexpr double kInf = table::kInf;
  static constexpr double kMax = kMaxMagnitude;  // 1e100
  static constexpr double kMinScale = table::kMinScale;  // 1e-100
  static constexpr double kMaxIntegerMean = dist::kMaxIntegerMean;
  using SpecRules = table::SpecRules;
  template <class Law, class T>
  static constexpr Field<Law, T> field(T Law::*member, double lo, double hi, bool open_lo = false) {
    return table::field(member, lo, hi, open_lo);
  }
};

}  // namespace table
}  // namespace lbmc::dist
