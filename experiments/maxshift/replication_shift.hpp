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
// - Integer loads (the host's IntegerBridge, maxshift.hpp): u_k = n·Y_k −
//   k·T exactly, so that ties are decided exactly; W' and D' are max u and
//   max |u| times scale/n, one rounding each, and Max_R_Shift and
//   Max_L_Shift ⌊(max u + T − n)/T⌋ and −⌊min u/T⌋, as on the host
//   (replication_integer_shift). The second pass steps u_k = u_{k−1} +
//   n·X_k − T (integer_bridge_extremes), every partial sum within [−n·T,
//   n·T]: in 64-bit integers where n·T fits in 63 bits (any law's mean
//   times n² below 9.2·10^18), else in 128 bits; a GPU thread's 64-bit
//   step is a product and two adds where n·Y_k − k·T in 128 bits was two
//   128-bit products.
#pragma once

#include <cstdint>

#include "lbmc/engine/host_device.hpp"
#include "lbmc/engine/words.hpp"

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
  for (std::int64_t k = 0; k < n; ++k) total += engine::stepped_draw(draw, words);
  const double mean = total / static_cast<double>(n);
  double y = 0.0;
  double high = 0.0;
  double low = 0.0;
  for (std::int64_t k = 1; k < n; ++k) {
    y += engine::stepped_draw(draw, again);
    const double v = bridge_value(y, mean, static_cast<double>(k));
    high = v > high ? v : high;
    low = v < low ? v : low;
  }
  return shift_values(high, low, mean, scale);
}

__extension__ using DeviceInt128 = __int128;

//! What a replication of integer loads gives: W', D', D >= 1 and the
//! largest right and left shifts in processors.
struct IntegerShiftValues {
  double w_prime;
  double d_prime;
  bool reaches_one_processor;
  std::int64_t max_right;
  std::int64_t max_left;
};

//! ⌊a/b⌋ for b > 0.
LBMC_HOST_DEVICE inline DeviceInt128 floor_divide(DeviceInt128 a, DeviceInt128 b) {
  const DeviceInt128 q = a / b;
  return (a % b != 0 && a < 0) ? q - 1 : q;
}

//! Max_R_Shift of Figure 1 from max u, T > 0 and n: ⌊(max u + T − n)/T⌋.
LBMC_HOST_DEVICE inline std::int64_t max_right_shift(DeviceInt128 high, std::int64_t total, std::int64_t n) {
  return static_cast<std::int64_t>(floor_divide(high + total - n, total));
}
//! Max_L_Shift of Figure 1 from min u and T > 0: −⌊min u/T⌋.
LBMC_HOST_DEVICE inline std::int64_t max_left_shift(DeviceInt128 low, std::int64_t total) {
  return static_cast<std::int64_t>(-floor_divide(low, total));
}

//! The extremes of u_k = n·Y_k − k·T over k = 1..n−1 (0 included), the
//! loads X_k >= 0 of total T drawn again from `words`, stepped in `Int`
//! (design note: |n·T| must fit in it).
template <class Int, class Sampler, class Words>
LBMC_HOST_DEVICE inline void integer_bridge_extremes(const Sampler& draw, Words& words, std::int64_t n,
                                                     std::int64_t total, DeviceInt128& high, DeviceInt128& low) {
  Int u = 0;
  Int top = 0;
  Int bottom = 0;
  for (std::int64_t k = 1; k < n; ++k) {
    u += Int{static_cast<std::int64_t>(engine::stepped_draw(draw, words))} * n - total;
    top = u > top ? u : top;
    bottom = u < bottom ? u : bottom;
  }
  high = top;
  low = bottom;
}

//! One replication of n >= 2 integer loads (X >= 0) drawn twice from the same
//! counters; scale_per_n = 1/(σ√n)/n.
template <class Sampler, class Words>
LBMC_HOST_DEVICE inline IntegerShiftValues replication_integer_shift(const Sampler& draw, Words& words,
                                                                     std::int64_t n, double scale_per_n) {
  Words again = words;
  std::int64_t total = 0;
  for (std::int64_t k = 0; k < n; ++k) total += static_cast<std::int64_t>(engine::stepped_draw(draw, words));
  if (total <= 0) return {0.0, 0.0, false, 0, 0};
  DeviceInt128 high = 0;
  DeviceInt128 low = 0;
  if (DeviceInt128{total} * n <= DeviceInt128{INT64_MAX}) {
    integer_bridge_extremes<std::int64_t>(draw, again, n, total, high, low);
  } else {
    integer_bridge_extremes<DeviceInt128>(draw, again, n, total, high, low);
  }
  const DeviceInt128 max_abs = high > -low ? high : -low;
  return {static_cast<double>(high) * scale_per_n, static_cast<double>(max_abs) * scale_per_n, max_abs >= total,
          max_right_shift(high, total, n), max_left_shift(low, total)};
}

}  // namespace lbmc::exp
