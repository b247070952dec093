// One replication of `maxshift` on the counter-based stream, as the host and a
// GPU both compile it (host_device.hpp), so that `--device cuda` and
// `--device cpu --rng philox` give the same W', D' and P(D >= 1).
//
// Design note
// - The bridge of Mehrotra–Ranka–Wang §3: Y_k = X_1 + … + X_k summed in draw
//   order, mean = Y_n/n, V_k = Y_k − mean·k (bridge_value), V_n = 0. W' and D'
//   are max V and max |V| over k = 1..n, times 1/(σ√n) (shift_values).
// - The host stores the prefix sums and takes the extremes in a vectorised
//   pass (kernel.cpp). A GPU thread has no room for n sums: it draws the loads
//   twice from the same counters, once for Y_n and once for the bridge
//   (replication_shift). Each V_k is the same rounding of the same doubles
//   either way, and max and min are exact in any order, so both give the same
//   bits.
#pragma once

#include <cstdint>

#include "lbmc/engine/host_device.hpp"

namespace lbmc::exp {

//! V_k = Y_k − mean·k, one product and one difference, each rounded.
LBMC_HOST_DEVICE inline double bridge_value(double y, double mean, double k) {
  LBMC_SAMPLER_NO_FP_CONTRACT
  return y - mean * k;
}

//! What a replication of continuous loads gives: W', D' and whether D >= 1.
struct ShiftValues {
  double w_prime;
  double d_prime;
  bool reaches_one_processor;
};

//! From max V >= 0 >= min V, the mean and scale = 1/(σ√n): W' = max V·scale,
//! D' = max |V|·scale, and D >= 1 as max |V| >= mean > 0.
LBMC_HOST_DEVICE inline ShiftValues shift_values(double high, double low, double mean, double scale) {
  const double max_abs = high > -low ? high : -low;
  return {high * scale, max_abs * scale, mean > 0.0 && max_abs >= mean};
}

//! One replication of n >= 2 loads drawn twice from the same counters (the
//! GPU's form; see the design note).
template <class Sampler, class Words>
LBMC_HOST_DEVICE inline ShiftValues replication_shift(const Sampler& draw, Words& words, std::int64_t n,
                                                      double scale) {
  Words again = words;
  double total = 0.0;
  for (std::int64_t k = 0; k < n; ++k) total += draw(words);
  const double mean = total / static_cast<double>(n);
  double y = 0.0;
  double high = 0.0;
  double low = 0.0;
  for (std::int64_t k = 1; k < n; ++k) {
    y += draw(again);
    const double v = bridge_value(y, mean, static_cast<double>(k));
    high = v > high ? v : high;
    low = v < low ? v : low;
  }
  return shift_values(high, low, mean, scale);
}

}  // namespace lbmc::exp
