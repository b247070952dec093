// The one Boost.Math policy of the project (DESIGN §9), below every layer
// that calls Boost.Math: the engine's intervals, the laws, the references.
// Discrete quantiles round up to the smallest integer k with F(k) >= p,
// which is the definition lbmc uses for every discrete quantile; errors
// throw (and are turned into exit codes by the command line).
#pragma once

#include <boost/math/policies/policy.hpp>

namespace lbmc::engine {

using MathPolicy = boost::math::policies::policy<
    boost::math::policies::discrete_quantile<boost::math::policies::integer_round_up>>;

}  // namespace lbmc::engine
