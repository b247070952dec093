// Kolmogorov–Smirnov distance between an empirical distribution and a
// continuous reference cdf: sup_x |F_R(x) − F(x)|, evaluated at the jumps of
// F_R as max_i max(i/R − F(x_(i)), F(x_(i)) − (i−1)/R). The cdf is the costly
// part (a series for the bridge laws): its values are taken on the OpenMP
// threads, and a maximum is the same for any split of the indices.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <span>

namespace lbmc::engine {

//! The KS distance of the sorted sample `sorted` from the cdf `F`.
template <class Cdf>
double ks_distance(std::span<const double> sorted, Cdf F) {
  const auto r = static_cast<double>(sorted.size());
  double distance = 0.0;
  const auto n = static_cast<std::int64_t>(sorted.size());
#pragma omp parallel for schedule(static, 4096) reduction(max : distance)
  for (std::int64_t i = 0; i < n; ++i) {
    const double f = F(sorted[static_cast<std::size_t>(i)]);
    distance = std::max({distance, static_cast<double>(i + 1) / r - f, f - static_cast<double>(i) / r});
  }
  return distance;
}

}  // namespace lbmc::engine
