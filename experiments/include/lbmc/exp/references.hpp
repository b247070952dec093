// References that may be unavailable: an exact value whose computation would
// exceed its cost bound (analytic::ReferenceUnavailable), or whose special
// functions do not converge at extreme parameters (Boost.Math's
// evaluation_error), is left out of the
// rows, and the table notes which one and why (stderr, JSON meta.notes); the
// simulation's rows are written as always and the run exits 0.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <boost/math/policies/error_handling.hpp>

#include "lbmc/analytic/reference_unavailable.hpp"
#include "lbmc/engine/results.hpp"

namespace lbmc::exp {

//! compute(), or nothing (noted in `table` for `statistic` at `params`) when
//! the reference `name` cannot be computed within its bound.
template <class Compute>
auto reference_or_note(engine::ResultTable& table, const std::vector<std::string>& params,
                       const std::string& statistic, const std::string& name, Compute compute)
    -> std::optional<decltype(compute())> {
  try {
    return compute();
  } catch (const analytic::ReferenceUnavailable& e) {
    table.note_unavailable(params, statistic, name, e.what());
    return std::nullopt;
  } catch (const boost::math::evaluation_error& e) {
    // A special function that does not converge at extreme parameters.
    table.note_unavailable(params, statistic, name, e.what());
    return std::nullopt;
  }
}

}  // namespace lbmc::exp
