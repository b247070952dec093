// Exact values of list scheduling with exponential tasks (see list_scheduling.hpp).
#include "lbmc/analytic/list_scheduling.hpp"

#include <fmt/format.h>

#include "lbmc/analytic/harmonic.hpp"
#include "lbmc/engine/errors.hpp"

namespace lbmc::analytic {

double list_exponential_mean_makespan(std::int64_t tasks, std::int64_t procs, double mean) {
  if (tasks < 1 || procs < 1) {
    throw engine::InputError(fmt::format("list scheduling: N = {} and P = {} must be >= 1", tasks, procs));
  }
  if (tasks <= procs) return mean * harmonic(tasks);
  return mean * (static_cast<double>(tasks - procs) / static_cast<double>(procs) + harmonic(procs));
}

}  // namespace lbmc::analytic
