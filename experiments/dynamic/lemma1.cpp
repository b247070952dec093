// Lemma 1 of Kimura–Ichiyoshi 1990 by simulation: the maximum of p iid
// exponentials of mean 1, either drawing the p variates of each replication
// (brute force; p draws a replication) or directly by inverting its cdf
// (1 − e^{−x})^p: M = −ln(1 − V^{1/p}) = −ln(−expm1(ln V/p)), V uniform on
// (0, 1) (engine::uniform_open01, so M is finite and positive); one draw.
#include <algorithm>
#include <cmath>

#include "lbmc/dist/samplers.hpp"
#include "lbmc/exp/dynamic.hpp"

namespace lbmc::exp {
namespace {

struct MaxExponentialKernel {
  using Accumulator = engine::Moments;
  dist::ExponentialSampler sampler{dist::Exponential{1.0}};
  std::int64_t p = 1;
  bool direct = false;
  Accumulator make_accumulator() const { return {}; }
  void run(engine::Generator& gen, std::int64_t count, Accumulator& acc) const {
    const auto pd = static_cast<double>(p);
    for (std::int64_t i = 0; i < count; ++i) {
      double m = 0.0;
      if (direct) {
        m = -std::log(-std::expm1(std::log(engine::uniform_open01(gen)) / pd));
      } else {
        for (std::int64_t k = 0; k < p; ++k) m = std::max(m, sampler(gen));
      }
      acc.add(m);
    }
  }
};

}  // namespace

engine::Simulated<engine::Moments> simulate_max_exponential(std::int64_t p, bool direct, engine::RunPlan plan) {
  plan.block_reps = engine::block_size_for(direct ? 1 : p);
  MaxExponentialKernel kernel;
  kernel.p = p;
  kernel.direct = direct;
  engine::Simulated<engine::Moments> result;
  result.run = engine::run_replications(plan, kernel, result.sample);
  return result;
}

}  // namespace lbmc::exp
