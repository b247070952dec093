// The one Boost.Math policy of the project. Discrete quantiles round up to
// the smallest integer k with F(k) >= p, which is the definition lbmc uses
// for every discrete quantile; errors throw (and are turned into exit codes
// by the command line).
#pragma once

#include <boost/math/policies/policy.hpp>

namespace lbmc::dist {

using Policy = boost::math::policies::policy<
    boost::math::policies::discrete_quantile<boost::math::policies::integer_round_up>>;

}  // namespace lbmc::dist
