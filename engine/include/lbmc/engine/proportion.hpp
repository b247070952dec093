// A proportion: hits out of trials, for the probability of an event (a rare
// one included). Kept as two integers and merged by addition, so the total is
// exact and the same in any merge order. Its estimate (rows.hpp) carries the
// exact binomial (Clopper–Pearson) interval, which stays valid with no hit at
// all: 0 hits in R trials bounds p by 1 − ((1 − level)/2)^{1/R} ≈ 3.7/R at
// level 0.95.
#pragma once

#include <cmath>
#include <cstdint>

#include "lbmc/engine/serial.hpp"

namespace lbmc::engine {

class Proportion {
 public:
  //! One trial, a hit when `hit`.
  void add(bool hit) noexcept {
    ++trials_;
    hits_ += hit ? 1 : 0;
  }
  //! `hits` hits in `trials` trials.
  void add(std::int64_t hits, std::int64_t trials) noexcept {
    hits_ += hits;
    trials_ += trials;
  }
  void merge(const Proportion& other) noexcept { add(other.hits_, other.trials_); }

  std::int64_t hits() const noexcept { return hits_; }
  std::int64_t trials() const noexcept { return trials_; }
  //! hits/trials (NaN without trials).
  double value() const noexcept {
    return static_cast<double>(hits_) / static_cast<double>(trials_);
  }
  //! √(p̂(1 − p̂)/R), the usual standard error (0 with no hit; see the top of
  //! this file for the interval that stays valid there).
  double se() const noexcept { return std::sqrt(value() * (1.0 - value()) / static_cast<double>(trials_)); }

  void save(ByteWriter& out) const {
    out.i64(hits_);
    out.i64(trials_);
  }
  void load(ByteReader& in) {
    hits_ = in.i64();
    trials_ = in.i64();
    if (hits_ < 0 || trials_ < hits_) throw RuntimeFailure("corrupt accumulator bytes: hits out of range");
  }

 private:
  std::int64_t hits_ = 0;
  std::int64_t trials_ = 0;
};

}  // namespace lbmc::engine
