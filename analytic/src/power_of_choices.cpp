// The power of D choices with unit tasks: the exact profile chain and the
// fluid limit (see power_of_choices.hpp).
//
// The exact chain keeps the big-integer weights of one step in a flat array
// indexed by the rank of the profile (see run_chain). Doubles are
// formed from the exact rationals by one integer division with the
// remainder deciding the last bit (round to nearest, ties to even; gradual
// underflow handled), so every probability and moment is correctly rounded.
#include "lbmc/analytic/power_of_choices.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include <boost/math/special_functions/gamma.hpp>
#include <boost/multiprecision/cpp_int.hpp>
#include <fmt/format.h>

#include "lbmc/analytic/reference_unavailable.hpp"
#include "lbmc/engine/errors.hpp"
#include "lbmc/engine/math_policy.hpp"
#include "numbers.hpp"

namespace lbmc::analytic {
namespace {

using boost::multiprecision::cpp_int;

// The exact chain's work cap (see chain_work; about 1 s), its largest N (the
// profiles are visited recursively, one level per part; any N above 1900
// with P >= 2 is beyond the work cap anyway, states(n) > n/2) and its largest
// D (exponents of cpp_int's pow are unsigned).
constexpr double kMaxChainWork = 6e8;
constexpr std::int64_t kMaxChainBalls = 4096;
constexpr std::int64_t kMaxChainChoices = 1 << 16;
// Fluid levels below this are dropped (taken as 0).
constexpr double kTiny = 1e-300;
// Fluid levels whose complement 1 − s falls below this are taken as 1 (the
// mass Σ s_i = t then errs by less than this per level).
constexpr double kPromote = 1e-20;
// RK4 steps per unit time: kStepsPerUnitPerChoice·max(D, 4); and the fewest
// steps over a t below 1.
constexpr std::int64_t kStepsPerUnitPerChoice = 512;
constexpr double kFewestSteps = 4096.0;
// The travelling wave is reached when one unit of time reproduces every
// level above kWaveFloor, shifted by one, within kWaveTolerance relative
// (levels below the floor follow them, their relative changes amplified
// about D-fold per level, and weigh nothing).
constexpr double kWaveTolerance = 1e-11;
constexpr double kWaveFloor = 1e-100;
// RK4 level updates × D one integration may take (about 1 s: 2.7 ns each
// measured at D = 300, less at small D), and the largest D integrated (its
// steps per unit, 512·D, stay far inside int64).
constexpr double kMaxRk4Work = 4e8;
constexpr std::int64_t kMaxFluidChoices = 1 << 16;
// The largest t accepted (its whole units are counted in int64).
constexpr double kMaxBallsPerBin = 0x1p62;
// D = 1: the largest t whose Poisson window is formed (about 0.3 s).
constexpr double kMaxPoissonT = 1e6;


// ---- exact arithmetic ------------------------------------------------------

// num/den (num >= 0, den > 0) rounded to the nearest double, ties to even.
double nearest_double(const cpp_int& num, const cpp_int& den) {
  if (num == 0) return 0.0;
  // e = floor(log2(num/den)).
  long e = static_cast<long>(boost::multiprecision::msb(num)) - static_cast<long>(boost::multiprecision::msb(den));
  const bool below = e >= 0 ? num < (den << e) : (num << -e) < den;
  if (below) --e;
  if (e > 1023) return HUGE_VAL;
  // The unit in the last place: 53 significant bits, or 2^-1074 below 2^-1022.
  const long ulp = std::max(e - 52, -1074L);
  cpp_int scaled_num = num, scaled_den = den;
  if (ulp >= 0) {
    scaled_den <<= ulp;
  } else {
    scaled_num <<= -ulp;
  }
  cpp_int quotient, remainder;
  boost::multiprecision::divide_qr(scaled_num, scaled_den, quotient, remainder);
  const cpp_int twice = remainder << 1;
  if (twice > scaled_den || (twice == scaled_den && boost::multiprecision::bit_test(quotient, 0))) ++quotient;
  // quotient <= 2^53: exact in a double, and the scaling by 2^ulp is exact.
  return std::ldexp(quotient.convert_to<double>(), static_cast<int>(ulp));
}

cpp_int power(std::int64_t base, std::int64_t exponent) {
  return boost::multiprecision::pow(cpp_int(base), static_cast<unsigned>(exponent));
}

// Partitions of r into parts <= k, for r <= N and k <= K: counts[r][k].
// The ranks of the profiles are formed from it.
class PartitionCounts {
 public:
  PartitionCounts(std::int64_t balls, std::int64_t largest_part)
      : width_(static_cast<std::size_t>(largest_part) + 1),
        counts_(static_cast<std::size_t>(balls + 1) * width_, 0.0) {
    for (std::size_t k = 0; k < width_; ++k) at(0, k) = 1.0;
    for (std::size_t r = 1; r <= static_cast<std::size_t>(balls); ++r) {
      for (std::size_t k = 1; k < width_; ++k) at(r, k) = at(r, k - 1) + (k <= r ? at(r - k, k) : 0.0);
    }
  }
  double operator()(std::int64_t r, std::int64_t k) const {
    return counts_[static_cast<std::size_t>(r) * width_ + static_cast<std::size_t>(k)];
  }

 private:
  double& at(std::size_t r, std::size_t k) { return counts_[r * width_ + k]; }
  std::size_t width_;
  std::vector<double> counts_;  // exact below 2^53
};

// Calls visit(parts) for every partition of n into parts <= bound, appended
// to `parts` (nonincreasing) and removed again.
template <class Visit>
void for_each_partition(std::int64_t n, std::int64_t bound, std::vector<std::int64_t>& parts, Visit& visit) {
  if (n == 0) {
    visit(static_cast<const std::vector<std::int64_t>&>(parts));
    return;
  }
  for (std::int64_t part = std::min(bound, n); part >= 1; --part) {
    parts.push_back(part);
    for_each_partition(n - part, part, parts, visit);
    parts.pop_back();
  }
}

// The profile chain (see the header). A profile lambda (lambda_j = S_{j+1},
// nonincreasing, parts <= K = min(P, N)) of n balls is stored at its rank
//   rank(lambda) = Σ_j counts(r_j, lambda_j − 1),  r_j = n − Σ_{i<j} lambda_i
// (the partitions of n that agree before j and are smaller at j), a
// bijection onto [0, counts(n, K)). A ball at load l raises lambda_l by one
// (appends a part 1 when l is the length); the terms after l keep their
// value and those before l see r_j + 1, so each successor's rank costs O(1)
// after one pass over the profile. Returns the sequence counts by the
// largest load, m = 0..N.
std::vector<cpp_int> run_chain(std::int64_t balls, std::int64_t bins, std::int64_t d) {
  const std::int64_t largest = std::min(bins, balls);
  const PartitionCounts counts(balls, largest);
  // powers[S] = S^D for S <= K, and P^D for S_0.
  std::vector<cpp_int> powers;
  for (std::int64_t s = 0; s <= largest; ++s) powers.push_back(power(s, d));
  const cpp_int all = power(bins, d);
  const auto power_of = [&](std::int64_t s) -> const cpp_int& {
    return s == bins ? all : powers[static_cast<std::size_t>(s)];
  };
  const auto rank_count = [&](std::int64_t r, std::int64_t k) { return static_cast<std::int64_t>(counts(r, k)); };

  std::vector<cpp_int> current(1, cpp_int(1)), next;
  // Per profile: r_j, and the rank terms before j (with r_j + 1) and from j on.
  std::vector<std::int64_t> parts, remaining, before, after;
  cpp_int factor, product;
  for (std::int64_t n = 0; n < balls; ++n) {
    next.resize(static_cast<std::size_t>(rank_count(n + 1, largest)));
    for (cpp_int& w : next) w = 0;
    auto expand = [&](const std::vector<std::int64_t>& lambda) {
      const std::size_t length = lambda.size();
      remaining.assign(length + 1, 0);
      before.assign(length + 1, 0);
      after.assign(length + 1, 0);
      remaining[0] = n;
      for (std::size_t j = 0; j < length; ++j) {
        remaining[j + 1] = remaining[j] - lambda[j];
        before[j + 1] = before[j] + rank_count(remaining[j] + 1, lambda[j] - 1);
      }
      for (std::size_t j = length; j-- > 0;) after[j] = after[j + 1] + rank_count(remaining[j], lambda[j] - 1);
      const cpp_int& weight = current[static_cast<std::size_t>(after[0])];
      for (std::size_t l = 0; l <= length; ++l) {
        // S_l and S_{l+1}: the bins with load >= l and >= l + 1.
        const std::int64_t at_least = l == 0 ? bins : lambda[l - 1];
        const std::int64_t above = l == length ? 0 : lambda[l];
        if (at_least == above) continue;  // no bin of load exactly l
        // The raised part's term counts(r_l + 1, lambda_l); an appended 1 adds 0.
        const std::int64_t raised = l == length ? 0 : rank_count(remaining[l] + 1, above);
        factor = power_of(at_least);
        factor -= power_of(above);
        boost::multiprecision::multiply(product, weight, factor);
        next[static_cast<std::size_t>(before[l] + raised + (l < length ? after[l + 1] : 0))] += product;
      }
    };
    for_each_partition(n, largest, parts, expand);
    std::swap(current, next);
  }
  std::vector<cpp_int> by_maximum(static_cast<std::size_t>(balls) + 1);
  auto collect = [&](const std::vector<std::int64_t>& lambda) {
    // The rank of lambda as a profile of N balls.
    std::int64_t rank = 0, left = balls;
    for (const std::int64_t part : lambda) {
      rank += rank_count(left, part - 1);
      left -= part;
    }
    by_maximum[lambda.size()] += current[static_cast<std::size_t>(rank)];
  };
  for_each_partition(balls, largest, parts, collect);
  return by_maximum;
}

// The chain's estimated work: per state of the steps 0..N−1 (partitions of
// n into parts <= P, counted here by the one-row recurrence), a pass over
// its profile (length <= n) and at most 2 + sqrt(2n) successors, each a
// product of 1 + D·N·log2(P)/64 limbs.
double chain_work(std::int64_t balls, std::int64_t bins, std::int64_t d) {
  std::vector<double> states(static_cast<std::size_t>(balls) + 1, 0.0);
  states[0] = 1.0;
  for (std::size_t part = 1; part <= static_cast<std::size_t>(std::min(bins, balls)); ++part) {
    for (std::size_t n = part; n < states.size(); ++n) states[n] += states[n - part];
  }
  const double limbs = 1.0 + as_double(d) * as_double(balls) * std::log2(as_double(bins)) / 64.0;
  double work = 0.0;
  for (std::int64_t n = 0; n < balls; ++n) {
    const double successors = 2.0 + std::sqrt(2.0 * as_double(n));
    work += states[static_cast<std::size_t>(n)] * (as_double(n) + successors * limbs);
  }
  return work;
}

// ---- fluid limit -----------------------------------------------------------

void require_fluid(double t, std::int64_t d) {
  if (!(t >= 0.0 && t <= kMaxBallsPerBin)) {
    throw engine::InputError(fmt::format("fluid limit: balls per bin = {} must be in [0, 2^62]", t));
  }
  if (d < 1) throw engine::InputError(fmt::format("fluid limit: D = {} must be >= 1", d));
  if (d > kMaxFluidChoices) {
    throw ReferenceUnavailable(fmt::format("fluid limit: D = {} above {} is not integrated", d, kMaxFluidChoices));
  }
}

// a^D − b^D = (a − b)·Σ_{k<D} a^{D−1−k} b^k, given the difference a − b
// (formed without cancellation by the caller).
double power_difference(double a, double b, double difference, std::int64_t d) {
  double sum = 0.0, b_power = 1.0;
  for (std::int64_t k = 0; k < d; ++k) {
    sum = a * sum + b_power;
    b_power *= b;
  }
  return difference * sum;
}

// The fluid profile while it is integrated. s_i = 1 for i <= full; the
// stored levels i = full+1, full+2, ... hold the complement u_i = 1 − s_i
// while s_i > 1/2 (the first `split` of them) and s_i itself beyond, so that
// both the levels near 1 and the small tail keep their relative precision
// (in s alone, a level near 1 would stall where its RK4 increment drops
// below half an ulp). s only grows, so a level moves from s to u once, when
// it passes 1/2 (1 − s is then exact).
class FluidProfile {
 public:
  explicit FluidProfile(std::int64_t d) : d_(d) {}

  // One classical RK4 step of length h.
  void step(double h) {
    // Up to four levels past the last nonzero one become nonzero.
    levels_.resize(levels_.size() + 4, 0.0);
    const std::size_t n = levels_.size();
    for (auto* k : {&k1_, &k2_, &k3_, &k4_, &stage_}) k->resize(n);
    derivative(levels_, k1_);
    for (std::size_t i = 0; i < n; ++i) stage_[i] = levels_[i] + 0.5 * h * k1_[i];
    derivative(stage_, k2_);
    for (std::size_t i = 0; i < n; ++i) stage_[i] = levels_[i] + 0.5 * h * k2_[i];
    derivative(stage_, k3_);
    for (std::size_t i = 0; i < n; ++i) stage_[i] = levels_[i] + h * k3_[i];
    derivative(stage_, k4_);
    for (std::size_t i = 0; i < n; ++i) {
      levels_[i] += h / 6.0 * (k1_[i] + 2.0 * k2_[i] + 2.0 * k3_[i] + k4_[i]);
    }
    work_ += 4.0 * static_cast<double>(n) * static_cast<double>(d_);
    if (work_ > kMaxRk4Work) {
      throw ReferenceUnavailable(
          fmt::format("fluid limit: D = {} needs more than {:g} RK4 level updates × D", d_, kMaxRk4Work));
    }
    normalise();
  }

  // Integrates `units` whole units of time with m steps each. With
  // wave_shift, once a unit reproduces the profile shifted by one level, the
  // remaining units are applied as shifts.
  void integrate_units(std::int64_t units, std::int64_t m, bool wave_shift) {
    const double h = 1.0 / static_cast<double>(m);
    for (std::int64_t u = 0; u < units; ++u) {
      const std::int64_t full_before = full_;
      const std::size_t split_before = split_;
      const std::vector<double> before = wave_shift ? levels_ : std::vector<double>();
      for (std::int64_t k = 0; k < m; ++k) step(h);
      if (wave_shift && full_ == full_before + 1 && split_ == split_before && is_shift_of(before)) {
        full_ += units - u - 1;
        return;
      }
    }
  }

  FluidTail result() const {
    FluidTail tail{full_, {}};
    for (std::size_t i = 0; i < levels_.size(); ++i) {
      const double s = i < split_ ? 1.0 - levels_[i] : levels_[i];
      if (s == 1.0) {
        ++tail.full;
      } else {
        tail.below.push_back(s);
      }
    }
    return tail;
  }

 private:
  // The time derivative of each stored level: ∓(s_{i−1}^D − s_i^D) (minus
  // for a complement), s_full = 1. The difference s_{i−1} − s_i is u_i −
  // u_{i−1} between complements (no cancellation near 1), s_{i−1} − s_i
  // otherwise (s_i <= 1/2 there).
  void derivative(const std::vector<double>& x, std::vector<double>& out) const {
    double previous_s = 1.0, previous_u = 0.0;
    for (std::size_t i = 0; i < x.size(); ++i) {
      if (i < split_) {
        const double u = x[i], s = 1.0 - u;
        out[i] = -power_difference(previous_s, s, u - previous_u, d_);
        previous_s = s;
        previous_u = u;
      } else {
        out[i] = power_difference(previous_s, x[i], previous_s - x[i], d_);
        previous_s = x[i];
      }
    }
  }

  // Levels past 1/2 switch to their complement; complements below kPromote
  // join `full`; trailing levels below kTiny are dropped.
  void normalise() {
    while (split_ < levels_.size() && levels_[split_] > 0.5) {
      levels_[split_] = 1.0 - levels_[split_];
      ++split_;
    }
    std::size_t ones = 0;
    while (ones < split_ && levels_[ones] < kPromote) ++ones;
    if (ones > 0) {
      levels_.erase(levels_.begin(), levels_.begin() + static_cast<std::ptrdiff_t>(ones));
      full_ += static_cast<std::int64_t>(ones);
      split_ -= ones;
    }
    while (levels_.size() > split_ && levels_.back() < kTiny) levels_.pop_back();
  }

  // Every level within kWaveTolerance of `before`'s at the same position,
  // relative to s: for a complement |Δu| (the relative change of s = 1 − u),
  // for a level stored as s above kWaveFloor |Δs|/s.
  bool is_shift_of(const std::vector<double>& before) const {
    if (before.size() != levels_.size()) return false;
    for (std::size_t i = 0; i < before.size(); ++i) {
      if (i >= split_ && before[i] < kWaveFloor) continue;
      const double scale = i < split_ ? 1.0 : before[i];
      if (std::abs(levels_[i] - before[i]) > kWaveTolerance * scale) return false;
    }
    return true;
  }

  std::int64_t d_;
  std::int64_t full_ = 0;
  std::size_t split_ = 0;
  std::vector<double> levels_;
  std::vector<double> k1_, k2_, k3_, k4_, stage_;
  double work_ = 0.0;
};

// D = 1: s_i = P(Poisson(t) >= i) = gamma_p(i, t); full counts the i whose
// s_i = 1 − gamma_q(i, t) rounds to 1.
FluidTail poisson_tail(double t) {
  if (t > kMaxPoissonT) {
    throw ReferenceUnavailable(
        fmt::format("fluid limit: D = 1 at balls per bin {:g} > {:g} (Poisson window too wide)", t, kMaxPoissonT));
  }
  FluidTail tail;
  if (t == 0.0) return tail;
  const auto rounds_to_one = [&](std::int64_t i) {
    return 1.0 - boost::math::gamma_q(as_double(i), t, engine::MathPolicy()) == 1.0;
  };
  // The largest i >= 0 whose s_i rounds to 1 (s_0 = 1).
  std::int64_t lo = 0, hi = static_cast<std::int64_t>(std::ceil(t)) + 1;
  while (hi - lo > 1) {
    const std::int64_t mid = lo + (hi - lo) / 2;
    (rounds_to_one(mid) ? lo : hi) = mid;
  }
  tail.full = lo;
  for (std::int64_t i = lo + 1;; ++i) {
    const double s = boost::math::gamma_p(as_double(i), t, engine::MathPolicy());
    if (s < kTiny) break;
    tail.below.push_back(s);
  }
  return tail;
}

}  // namespace

std::optional<ChoiceMaxLaw> choice_unit_max_law(std::int64_t balls, std::int64_t bins, std::int64_t d) {
  if (balls < 0 || bins < 1 || d < 1) {
    throw engine::InputError(
        fmt::format("power of choices: N = {} must be >= 0, P = {} and D = {} >= 1", balls, bins, d));
  }
  if (balls > kMaxChainBalls || d > kMaxChainChoices || chain_work(balls, bins, d) > kMaxChainWork) {
    return std::nullopt;
  }

  const std::vector<cpp_int> counts = run_chain(balls, bins, d);

  const cpp_int total = power(bins, d * balls);
  ChoiceMaxLaw law;
  cpp_int first = 0, second = 0;  // Σ m·count, Σ m²·count
  for (std::size_t m = 0; m < counts.size(); ++m) {
    law.pmf.push_back(nearest_double(counts[m], total));
    law.sequence_counts.push_back(counts[m].str());
    first += counts[m] * m;
    second += counts[m] * m * m;
  }
  law.sequence_total = total.str();
  law.mean = nearest_double(first, total);
  // Var M = (T·Σ m² c − (Σ m c)²)/T².
  law.variance = nearest_double(second * total - first * first, total * total);
  const cpp_int common = boost::multiprecision::gcd(first, total);
  law.mean_exact = cpp_int(first / common).str() + "/" + cpp_int(total / common).str();
  return law;
}

double FluidTail::at(std::int64_t i) const {
  if (i <= full) return 1.0;
  const auto k = static_cast<std::size_t>(i - full - 1);
  return k < below.size() ? below[k] : 0.0;
}

FluidTail choice_fluid_tail_rk4(double balls_per_bin, std::int64_t d, std::int64_t steps_per_unit,
                                bool wave_shift) {
  require_fluid(balls_per_bin, d);
  if (steps_per_unit < 1) {
    throw engine::InputError(fmt::format("fluid limit: {} steps per unit time must be >= 1", steps_per_unit));
  }
  FluidProfile profile(d);
  const double whole = std::floor(balls_per_bin);
  const double fraction = balls_per_bin - whole;
  // The partial unit first, from 0 (at least kFewestSteps steps when it is
  // all of t): the whole units then start at a profile the travelling wave
  // can be checked against.
  if (fraction > 0.0) {
    double steps = std::ceil(fraction * static_cast<double>(steps_per_unit));
    if (whole == 0.0) steps = std::max(steps, kFewestSteps);
    for (double k = 0.0; k < steps; k += 1.0) profile.step(fraction / steps);
  }
  profile.integrate_units(static_cast<std::int64_t>(whole), steps_per_unit, wave_shift);
  return profile.result();
}

FluidTail choice_fluid_tail(double balls_per_bin, std::int64_t d) {
  require_fluid(balls_per_bin, d);
  if (d == 1) return poisson_tail(balls_per_bin);
  return choice_fluid_tail_rk4(balls_per_bin, d, kStepsPerUnitPerChoice * std::max<std::int64_t>(d, 4), true);
}

double choice_fluid_max_mean(std::int64_t balls, std::int64_t bins, std::int64_t d) {
  if (balls < 0 || bins < 1) {
    throw engine::InputError(fmt::format("fluid limit: N = {} must be >= 0 and P = {} >= 1", balls, bins));
  }
  const FluidTail tail = choice_fluid_tail(as_double(balls) / as_double(bins), d);
  double mean = as_double(tail.full);
  for (const double s : tail.below) mean += std::min(1.0, as_double(bins) * s);
  return mean;
}

}  // namespace lbmc::analytic
