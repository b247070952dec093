// The upper-tail argument of the analytic laws' cdf and quantile, in
// Boost.Math's convention (DESIGN §9): cdf(complement(law, x)) is P(M > x),
// computed directly rather than as 1 - cdf so that it keeps full relative
// accuracy where it is tiny, and quantile(complement(law, q)) is the x with
// P(M > x) = q. Shared by every law object of analytic/ (bridge.hpp,
// max_of_iid.hpp).
#pragma once

#include <boost/math/distributions/complement.hpp>

namespace lbmc::analytic {

//! The argument of cdf(complement(law, x)) and quantile(complement(law, q))
//! for a law object Law: Boost.Math's complemented2_type, made by
//! boost::math::complement(law, x).
template <class Law>
using Complement = boost::math::complemented2_type<Law, double>;

}  // namespace lbmc::analytic
