// Argument checks and integer arithmetic shared by the random-assignment
// files (multinomial_max.cpp, multinomial_dynamic_program.cpp,
// two_bin_max.cpp, assignment_efficiency.cpp): one wording of the errors for
// N tasks on P processors, and ceil(N/P), the lowest possible maximum load.
#pragma once

#include <cstdint>

#include <fmt/format.h>

#include "lbmc/engine/errors.hpp"

namespace lbmc::analytic::detail {

// Throws engine::InputError unless N >= min_tasks and P >= 1.
inline void require_tasks_processors(std::int64_t N, std::int64_t P, std::int64_t min_tasks = 0) {
  if (N < min_tasks) {
    throw engine::InputError(fmt::format("random assignment: N = {} must be >= {}", N, min_tasks));
  }
  if (P < 1) throw engine::InputError(fmt::format("random assignment: P = {} must be >= 1", P));
}

// ceil(N/P) for N >= 0, P >= 1.
inline std::int64_t ceil_div(std::int64_t N, std::int64_t P) { return N / P + (N % P != 0 ? 1 : 0); }

}  // namespace lbmc::analytic::detail
