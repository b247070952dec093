// The dynamic program behind cdf_dynamic_program(MultinomialMax): the
// independent check of the lattice inversion (multinomial_lattice.cpp).
//
// Processors are filled one after another: processor p+1 receives
// Binomial(r, 1/(P-p)) of the r tasks left, and q[r], the probability that
// every processor so far holds <= k and r tasks are left, is carried in long
// double over r; the last processor takes every remaining task. All terms are
// positive (no cancellation), the binomial masses come from the ratio
// recurrence from (1 - prob)^r, with the logarithm and exponential of
// extended_math.hpp. Cost O(P·N·min(k,N)) time, O(N) memory; refused beyond
// 1e10 inner steps or N = 1e4.
#include <algorithm>
#include <vector>

#include <fmt/format.h>

#include "lbmc/analytic/extended_math.hpp"
#include "lbmc/analytic/multinomial_max.hpp"
#include "lbmc/engine/errors.hpp"
#include "numbers.hpp"

namespace lbmc::analytic {
namespace {

// Most inner steps the dynamic program may take.
constexpr double kMaxDpWork = 1e10;


}  // namespace

double cdf_dynamic_program(const MultinomialMax& m, std::int64_t k) {
  const std::int64_t N = m.tasks();
  const std::int64_t P = m.processors();
  if (k >= N) return 1.0;
  if (k < 0 || k * P < N) return 0.0;
  if (as_double(P) * as_double(N) * as_double(k + 1) > kMaxDpWork || N > 10000) {
    throw engine::InputError(fmt::format(
        "multinomial max cdf (dynamic program): N = {}, P = {}, k = {} is too large", N, P, k));
  }
  // q[r] = P(the processors so far each hold <= k, and r tasks are left).
  std::vector<long double> q(static_cast<std::size_t>(N) + 1, 0.0L), next(q.size());
  q[static_cast<std::size_t>(N)] = 1.0L;
  std::int64_t r_lo = N, r_hi = N;
  for (std::int64_t done = 0; done < P; ++done) {
    const std::int64_t left = P - done;  // processors not yet filled, this one included
    std::fill(next.begin(), next.end(), 0.0L);
    if (left == 1) {
      // the last processor takes every remaining task
      long double s = 0.0L;
      for (std::int64_t r = r_lo; r <= std::min(r_hi, k); ++r) s += q[static_cast<std::size_t>(r)];
      return static_cast<double>(s);
    }
    const long double prob = 1.0L / as_ld(left);
    const long double ratio = prob / (1.0L - prob);
    const long double log_keep = ext::log1p(-prob);
    // after this processor, the remaining left-1 processors must absorb the rest
    const std::int64_t cap = (left - 1) * k;
    std::int64_t new_lo = N, new_hi = 0;
    for (std::int64_t r = r_lo; r <= r_hi; ++r) {
      const long double qr = q[static_cast<std::size_t>(r)];
      if (qr == 0.0L) continue;
      // Binomial(r, prob) pmf at j = 0..min(k, r), by the ratio recurrence
      long double b = ext::exp(as_ld(r) * log_keep);
      const std::int64_t jmax = std::min(k, r);
      for (std::int64_t j = 0; j <= jmax; ++j) {
        if (j > 0) b *= as_ld(r - j + 1) / as_ld(j) * ratio;
        const std::int64_t rest = r - j;
        if (rest > cap) continue;
        next[static_cast<std::size_t>(rest)] += qr * b;
        new_lo = std::min(new_lo, rest);
        new_hi = std::max(new_hi, rest);
      }
    }
    if (new_lo > new_hi) return 0.0;
    q.swap(next);
    r_lo = new_lo;
    r_hi = new_hi;
  }
  return static_cast<double>(q[0]);  // not reached: left == 1 returns
}

}  // namespace lbmc::analytic
