// Mergeable moment accumulator.
//
// Keeps the count, mean and central sums M2, M3, M4 of a stream of values.
// Adding one value is Welford's update; merging two accumulators is the
// pairwise formula of Chan, Golub and LeVeque (1979) extended to the third
// and fourth central sums by Pébay (2008). Merging in a fixed (block) order
// makes the result independent of how blocks were spread over threads.
// The fourth central moment gives the standard error of the sample variance.
// A batch of values held in memory is summarised by two passes instead
// (Moments::of): the mean, then the central sums, with no division and no
// dependency from one value to the next, so it runs many times faster than
// the online update and is at least as accurate.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <span>

#include "lbmc/engine/serial.hpp"

namespace lbmc::engine {

class Moments {
 public:
  //! Adds one observation (Welford's online update of mean, M2, M3, M4).
  void add(double x) noexcept {
    const double n0 = static_cast<double>(count_);
    ++count_;
    const double n = static_cast<double>(count_);
    const double delta = x - mean_;
    const double delta_n = delta / n;
    const double delta_n2 = delta_n * delta_n;
    const double term1 = delta * delta_n * n0;
    mean_ += delta_n;
    m4_ += term1 * delta_n2 * (n * n - 3.0 * n + 3.0) + 6.0 * delta_n2 * m2_ - 4.0 * delta_n * m3_;
    m3_ += term1 * delta_n * (n - 2.0) - 3.0 * delta_n * m2_;
    m2_ += term1;
  }

  //! The moments of `values` by two passes: the mean, then the central sums
  //! of powers 2, 3, 4 about it, with the first-order correction Σd/n of the
  //! computed mean (the "corrected two-pass algorithm" of Chan, Golub and
  //! LeVeque 1983). Each pass keeps four interleaved partial sums (moments.cpp).
  static Moments of(std::span<const double> values) noexcept;

  //! Combines another accumulator into this one (Chan et al.; Pébay eq. 3.1).
  void merge(const Moments& other) noexcept {
    if (other.count_ == 0) return;
    if (count_ == 0) {
      *this = other;
      return;
    }
    const double na = static_cast<double>(count_);
    const double nb = static_cast<double>(other.count_);
    const double n = na + nb;
    const double delta = other.mean_ - mean_;
    const double delta2 = delta * delta;
    const double delta3 = delta2 * delta;
    const double delta4 = delta2 * delta2;
    const double m2 = m2_ + other.m2_ + delta2 * na * nb / n;
    const double m3 = m3_ + other.m3_ + delta3 * na * nb * (na - nb) / (n * n) +
                      3.0 * delta * (na * other.m2_ - nb * m2_) / n;
    const double m4 = m4_ + other.m4_ +
                      delta4 * na * nb * (na * na - na * nb + nb * nb) / (n * n * n) +
                      6.0 * delta2 * (na * na * other.m2_ + nb * nb * m2_) / (n * n) +
                      4.0 * delta * (na * other.m3_ - nb * m3_) / n;
    mean_ += delta * nb / n;
    m2_ = m2;
    m3_ = m3;
    m4_ = m4;
    count_ += other.count_;
  }

  std::int64_t count() const noexcept { return count_; }
  double mean() const noexcept { return mean_; }
  //! Unbiased sample variance s² = M2/(R−1).
  double variance() const noexcept {
    return count_ > 1 ? m2_ / static_cast<double>(count_ - 1) : 0.0;
  }
  //! The sample kurtosis R·M4/M2² (3 for normal data); NaN below two
  //! observations or without spread.
  double kurtosis() const noexcept {
    if (count_ < 2 || !(m2_ > 0.0)) return std::numeric_limits<double>::quiet_NaN();
    return static_cast<double>(count_) * m4_ / (m2_ * m2_);
  }
  //! Standard error of the mean, s/√R; NaN below two observations.
  double mean_se() const noexcept {
    return count_ > 1 ? std::sqrt(variance() / static_cast<double>(count_))
                      : std::numeric_limits<double>::quiet_NaN();
  }
  //! Standard error of s²: √((m4 − s⁴(R−3)/(R−1))/R), m4 = M4/R the fourth
  //! central moment (the variance of the unbiased variance estimator); NaN
  //! below four observations.
  double variance_se() const noexcept {
    if (count_ < 4) return std::numeric_limits<double>::quiet_NaN();
    const double r = static_cast<double>(count_);
    const double s2 = variance();
    const double m4 = m4_ / r;
    const double v = (m4 - s2 * s2 * (r - 3.0) / (r - 1.0)) / r;
    return v > 0.0 ? std::sqrt(v) : 0.0;
  }

  //! The exact state, as bytes (serial.hpp).
  void save(ByteWriter& out) const {
    out.i64(count_);
    for (const double v : {mean_, m2_, m3_, m4_}) out.f64(v);
  }
  void load(ByteReader& in) {
    count_ = in.i64();
    if (count_ < 0) throw RuntimeFailure("corrupt accumulator bytes: a negative count");
    mean_ = in.f64();
    m2_ = in.f64();
    m3_ = in.f64();
    m4_ = in.f64();
  }

 private:
  std::int64_t count_ = 0;
  double mean_ = 0.0;
  double m2_ = 0.0;
  double m3_ = 0.0;
  double m4_ = 0.0;
};

}  // namespace lbmc::engine
