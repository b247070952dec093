// The maxload kernel: per replication, the maximum of n iid draws of one
// sampler (brute force), or one draw of the maximum itself (the direct
// method, direct_max.hpp), kept for the moments and the quantiles of Z.
#include <algorithm>
#include <concepts>
#include <memory>
#include <span>
#include <type_traits>

#include "direct_max.hpp"
#include "replication_max.hpp"
#include "lbmc/dist/samplers.hpp"
#include "lbmc/engine/interrupt.hpp"
#include "lbmc/exp/device_kernels.hpp"
#include "lbmc/exp/maxload.hpp"

namespace lbmc::exp {

void fold_device_maxima(std::span<const double> values, MaxLoadSample& acc) {
  const std::span<double> maxima = acc.quantiles.append(values.size());
  std::copy(values.begin(), values.end(), maxima.begin());
  acc.moments.merge(engine::Moments::of(maxima));
}

namespace {

// Replications of the max of n iid draws from one sampler (for the direct
// method: one draw of a sampler of the maximum itself, n = 1).
template <class Sampler>
struct MaxLoadKernel {
  using Accumulator = MaxLoadSample;

  Sampler sampler;
  std::int64_t n;
  bool integer_maxima = false;  // the draws are integers far below 2^63

  Accumulator make_accumulator() const { return {}; }

  // The block's maxima are stored for the quantiles anyway, so their moments
  // are taken from the stored batch (two passes) rather than one by one.
  // Any stream its sampler draws from; direct maxima draw from pcg64 only.
  template <engine::UniformWords Gen>
    requires std::same_as<Gen, engine::Generator> || std::is_invocable_v<const Sampler&, Gen&>
  void run(Gen& gen, std::int64_t count, Accumulator& acc) const {
    const std::span<double> maxima = acc.quantiles.append(static_cast<std::size_t>(count));
    if constexpr (requires { sampler.fill(gen, maxima); }) {
      sampler.fill(gen, maxima);  // direct maxima, n = 1
    } else if constexpr (requires { gen.next_replication(); }) {
      counter_stream_maxima(gen, maxima);
    } else if (n > engine::kInterruptPollSpan) {
      polled_maxima(gen, maxima);
    } else if (integer_maxima) {
      // Integer maxima in a 64-bit integer and the generator in a local
      // copy, both held in registers: a double maximum lives in memory here
      // (the sampler's rare path is a call, which may clobber every vector
      // register), and each draw would wait for a store-to-load round trip.
      // The table samplers find the largest of the n draws from the range
      // of their outputs (max_of_integers).
      Gen local = gen;
      const Sampler draw = sampler;
      for (double& max : maxima) max = static_cast<double>(dist::max_of_integers(draw, local, n));
      gen = local;
    } else {
      // Local copies of the generator and the sampler, which no store can
      // alias: through the references the state is reloaded for every draw.
      Gen local = gen;
      const Sampler draw = sampler;
      for (double& max : maxima) {
        double z = draw(local);
        for (std::int64_t i = 1; i < n; ++i) z = std::max(z, draw(local));
        max = z;
      }
      gen = local;
    }
    acc.moments.merge(engine::Moments::of(maxima));
  }

  // On a GPU (device.hpp): the same maxima as counter_stream_maxima, one
  // replication per thread, folded into a block's accumulator as run() does.
  std::unique_ptr<engine::DeviceReplications> on_device(const engine::DeviceLaunchPlan& plan) const
    requires requires { sampler.portable(); }
  {
    return device_maxima(sampler.portable(), n, plan);
  }
  void fold(std::span<const double> values, Accumulator& acc) const { fold_device_maxima(values, acc); }

  // The counter-based stream: a stream per replication, drawn by the
  // sampler's portable form through the source a GPU runs
  // (replication_max.hpp); past a span of draws, looking for a stop between
  // spans.
  template <class Gen>
  void counter_stream_maxima(Gen& gen, std::span<double> maxima) const {
    Gen local = gen;
    const auto draw = sampler.portable();
    for (double& max : maxima) {
      if (n > engine::kInterruptPollSpan) [[unlikely]] {
        max = draw(local);
        for (engine::PolledSpans s(n - 1); s.next();) max = max_of_draws(draw, local, max, s.last - s.first);
      } else {
        max = replication_max(draw, local, n);
      }
      local.next_replication();
    }
    gen = local;
  }

  // Maxima of more than a span of draws (n = 1e18 never ends), looking for a
  // stop between spans; out of line, so that the loops above are compiled
  // as if this path did not exist. The generator and the sampler are local
  // copies, which no store can alias: through the references, gamma's draws
  // took 3x as long here.
  template <class Gen>
  [[gnu::noinline]] void polled_maxima(Gen& gen, std::span<double> maxima) const {
    Gen local = gen;
    const Sampler draw = sampler;
    for (double& max : maxima) {
      if (integer_maxima) {
        std::int64_t z = dist::draw_integer(draw, local);
        for (engine::PolledSpans s(n - 1); s.next();) {
          z = std::max(z, dist::max_of_integers(draw, local, s.last - s.first));
        }
        max = static_cast<double>(z);
      } else {
        double z = draw(local);
        for (engine::PolledSpans s(n - 1); s.next();) {
          for (std::int64_t i = s.first; i < s.last; ++i) z = std::max(z, draw(local));
        }
        max = z;
      }
    }
    gen = local;
  }
};

}  // namespace

engine::Simulated<MaxLoadSample> simulate_max_load(const dist::LoadLaw& law, std::int64_t n, engine::RunPlan plan,
                                                   MaxMethod method) {
  engine::Simulated<MaxLoadSample> result;
  const auto simulate = [&](const auto& sampler, std::int64_t draws) {
    using Kernel = MaxLoadKernel<std::decay_t<decltype(sampler)>>;
    // Integer draws convert to 64-bit integers when a load past 2^53 has
    // probability below e^-1000 (1000 sd above the mean: even geometric
    // tails, the heaviest of the integer laws, are e^-(k) at k sd).
    const bool integer_maxima =
        dist::is_integer_valued(law) &&
        std::min(dist::support_max(law), dist::mean(law) + 1000.0 * dist::standard_deviation(law)) < 0x1.0p53;
    const Kernel kernel{sampler, draws, integer_maxima};
    plan.block_reps = engine::block_size_for(draws);
    result.run = engine::run_replications(plan, kernel, result.sample);
  };
  if (method == MaxMethod::direct) {
    simulate(DirectMaxSampler(law, n), 1);
  } else {
    dist::visit_sampler(law, [&](const auto& sampler) { simulate(sampler, n); });
  }
  return result;
}

}  // namespace lbmc::exp
