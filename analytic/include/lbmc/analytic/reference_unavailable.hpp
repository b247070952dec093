// ReferenceUnavailable: an exact reference that cannot be computed within its
// cost bound.
//
// Exact finite-size references decorate Monte Carlo estimates; they must not
// cost more than the simulation they check. A reference whose method would
// need more work than its stated bound (the module's note gives the bound and
// the cases it excludes) throws this instead of computing for minutes, so the
// caller can print the estimate without it. It is not an input error (the
// parameters are valid) and not a run failure (the simulation is unaffected).
#pragma once

#include <stdexcept>

namespace lbmc::analytic {

//! Thrown when an exact reference would exceed its cost bound; what() is one
//! line naming the quantity, the parameters and the bound.
class ReferenceUnavailable : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace lbmc::analytic
