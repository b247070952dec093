// The machine a schedule of `lbmc compare` runs on: its processors and the
// costs of dispatching tasks and moving their data (compare.hpp has the
// model).
#pragma once

#include <cstdint>

namespace lbmc::exp {

//! The machine a schedule runs on: P processors, the dispatch cost h (per
//! task of self, per chunk of chunk:K and guided) and the data-movement
//! costs of balanced-block, τ per message and φ per task moved.
struct Machine {
  std::int64_t procs = 1;
  double h = 0.0;
  double tau = 0.0;
  double phi = 0.0;

  //! The same processors with free dispatch and movement.
  Machine without_costs() const { return {procs, 0.0, 0.0, 0.0}; }
  bool has_costs() const { return h != 0.0 || tau != 0.0 || phi != 0.0; }
};

}  // namespace lbmc::exp
