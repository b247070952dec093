// Kruskal–Weiss's asymptotic makespan of chunked self-scheduling (see
// chunk_scheduling.hpp).
#include "lbmc/analytic/chunk_scheduling.hpp"

#include <cmath>

#include <fmt/format.h>

#include "lbmc/engine/errors.hpp"

namespace lbmc::analytic {

double kruskal_weiss_mean_makespan(std::int64_t tasks, std::int64_t procs, std::int64_t chunk, double mean,
                                   double sd, double overhead) {
  if (tasks < 1 || procs < 1 || chunk < 1) {
    throw engine::InputError(
        fmt::format("Kruskal-Weiss: N = {}, P = {} and K = {} must be >= 1", tasks, procs, chunk));
  }
  for (const double v : {mean, sd, overhead}) {
    if (!(v >= 0.0) || !std::isfinite(v)) {
      throw engine::InputError(fmt::format("Kruskal-Weiss: mean, sd and overhead must be finite and >= 0, not {}", v));
    }
  }
  const double n = static_cast<double>(tasks);
  const double p = static_cast<double>(procs);
  const double k = static_cast<double>(chunk);
  return n * mean / p + overhead * n / (k * p) + sd * std::sqrt(2.0 * k * std::log(p));
}

}  // namespace lbmc::analytic
