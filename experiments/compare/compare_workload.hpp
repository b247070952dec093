// The task times of `lbmc compare`: where the N times of a replication come
// from.
//
// Design note
// - iid (`--field iid`, the default): N independent draws from the law.
// - ar1:RHO (`--field ar1:RHO`, −1 < RHO < 1): a stationary Gaussian AR(1)
//   sequence z_1 = ε_1, z_i = ρ·z_{i−1} + √(1 − ρ²)·ε_i (ε iid standard
//   normal), mapped through the law's quantile: t_i = F⁻¹(Φ(z_i)), with the
//   upper tail F̄⁻¹(Φ(−z_i)) for z_i > 0 so that large times keep their
//   digits (a Gaussian copula). Every t_i has the law F, and neighbours are
//   alike: corr(z_i, z_{i+k}) = ρ^k. For lognormal:MU,SIGMA the map is
//   exp(MU + SIGMA·z_i), the same values in law computed directly: an AR(1)
//   on the log of the times, as in a spatially smooth cost field (Salmon's
//   ray-tracing example, where block and scattered decompositions differ).
// - measured (`--times FILE[:COLUMN]`): the file's values, in file order,
//   the same in every replication; only random and choice:D then vary
//   between replications. The reader is the empirical law's
//   (dist/empirical_sample.hpp): the same text accepted, the same errors.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "lbmc/dist/laws.hpp"
#include "lbmc/dist/samplers.hpp"
#include "lbmc/engine/input_file.hpp"
#include "lbmc/engine/rng.hpp"

namespace lbmc::exp {

//! How neighbouring task times depend on each other.
struct Field {
  enum class Kind { iid, ar1, measured };
  Kind kind = Kind::iid;
  double rho = 0.0;  //!< ar1 only

  //! "iid", "ar1:RHO" or "measured" (the `field` column).
  std::string label() const;
  friend bool operator==(const Field&, const Field&) = default;
};

//! Parses one item of --field: "iid" or "ar1:RHO" with −1 < RHO < 1.
//! Throws engine::InputError naming the item otherwise.
Field parse_field(std::string_view text);

struct Workload {
  dist::LoadLaw law = dist::Exponential{1.0};  //!< the law of every time (iid and ar1)
  Field field;
  std::int64_t tasks = 1;  //!< N
  //! measured: the times in file order, and the FILE[:COLUMN] they came from.
  std::shared_ptr<const std::vector<double>> measured;
  std::string source;
  //! The file the times (measured) or the law's values (empirical) came from.
  std::optional<engine::InputFile> file;

  //! The `dist` column: the law's spec, or "times:FILE[:COLUMN]".
  std::string label() const;
  //! E W, the expected total work: N times the law's mean, or the measured
  //! times summed in task order (as a schedule sums them).
  double expected_total() const;
};

//! N times drawn from `law`, independent or correlated by `field`.
Workload drawn_workload(const dist::LoadLaw& law, std::int64_t tasks, Field field = {});

//! The workload of the times in `spec` (FILE or FILE:COLUMN, as for
//! empirical laws). Throws engine::InputError, naming the file and line,
//! for what the empirical reader refuses and for a negative time or a file
//! whose times are all 0.
Workload measured_workload(std::string_view spec, double memory_budget);

//! The times of the ar1 field: fills a replication's times from `gen`
//! (iid times come from the law's own sampler, measured ones are copied).
class CorrelatedTimes {
 public:
  explicit CorrelatedTimes(const Workload& workload);
  void fill(engine::Generator& gen, std::span<double> times) const;

 private:
  dist::LoadLaw law_;
  dist::NormalSampler normal_{dist::Normal{0.0, 1.0}};
  double rho_;
  double innovation_;  // √(1 − ρ²)
  bool lognormal_ = false;
  double mu_ = 0.0, sigma_ = 1.0;  // lognormal's
};

}  // namespace lbmc::exp
