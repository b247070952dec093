// The scattered-decomposition kernel: per replication, N_proc sums of n task
// times, their maximum and their mean, in one pass with no allocation
// (replication_scatter.hpp), on pcg64, the counter-based stream or a GPU.
#include <algorithm>
#include <cmath>
#include <concepts>
#include <limits>
#include <memory>
#include <span>

#include <fmt/format.h>

#include "lbmc/dist/samplers.hpp"
#include "lbmc/engine/errors.hpp"
#include "lbmc/engine/interrupt.hpp"
#include "lbmc/engine/philox.hpp"
#include "lbmc/exp/device_kernels.hpp"
#include "lbmc/exp/scatter.hpp"
#include "replication_scatter.hpp"

namespace lbmc::exp {

namespace {

template <class Sampler>
struct ScatterKernel {
  using Accumulator = ScatterSample;

  Sampler sampler;
  std::int64_t tasks;
  std::int64_t procs;
  double m_proc;  // n·m

  Accumulator make_accumulator() const { return {}; }

  // A processor's sum of more than a span of tasks, looking for a stop
  // between spans; out of line, so that the common loop is compiled as if
  // this path did not exist (a look inside it moved its sum to memory). The
  // generator and the sampler are local copies, which no store can alias:
  // through the references, gamma's draws took 3x as long here.
  template <class Draw, class Gen>
  [[gnu::noinline]] double polled_sum(const Draw& sampler_copy, Gen& gen) const {
    Gen local = gen;
    const Draw draw = sampler_copy;
    double t = 0.0;
    for (engine::PolledSpans s(tasks); s.next();) {
      for (std::int64_t i = s.first; i < s.last; ++i) t += draw(local);
    }
    gen = local;
    return t;
  }

  // On the counter-based stream the task times are drawn by the sampler's
  // portable form (the source a GPU runs), a stream per replication.
  template <engine::UniformWords Gen>
    requires std::same_as<Gen, engine::Generator> || requires(const Sampler& s) { s.portable(); }
  void run(Gen& gen, std::int64_t count, Accumulator& acc) const {
    acc.l_values.reserve(static_cast<std::size_t>(count));
    acc.l_obs_values.reserve(static_cast<std::size_t>(count));
    // One replication may be endless (n·N_proc = 1e18): a stop is looked for
    // every kInterruptPollSpan draws or so, between processors or within one.
    const std::int64_t procs_per_look = std::max<std::int64_t>(1, engine::kInterruptPollSpan / tasks);
    // Local copies of the generator and the sampler, which no store can
    // alias (through the references the state is reloaded for every draw).
    Gen local = gen;
    const auto draw = dist::sampler_for<Gen>(sampler);
    for (std::int64_t r = 0; r < count; ++r) {
      double slowest = -std::numeric_limits<double>::infinity();
      double total = 0.0;
      std::int64_t procs_until_look = procs_per_look;
      for (std::int64_t p = 0; p < procs; ++p) {
        // The polled sum on a copy of the generator, so that no call takes
        // the address of `local`, which then stays in registers.
        const double t = tasks > engine::kInterruptPollSpan
                             ? dist::detail::with_generator_copy(local, [&](Gen& g) { return polled_sum(draw, g); })
                             : processor_time(draw, local, tasks);
        slowest = std::max(slowest, t);
        total += t;
        if (--procs_until_look == 0) {
          procs_until_look = procs_per_look;
          engine::throw_if_interrupted();
        }
      }
      add(scatter_values(slowest, total, procs, m_proc), acc);
      engine::next_replication(local);
    }
    gen = local;
  }

  // l_obs is left out where it is undefined (t̄ = 0); the command notes how
  // often, from the difference of the two counts.
  static void add(const ScatterValues& values, Accumulator& acc) {
    acc.l.add(values.l);
    acc.l_values.add(values.l);
    if (std::isnan(values.l_obs)) return;
    acc.l_obs.add(values.l_obs);
    acc.l_obs_values.add(values.l_obs);
  }

  // On a GPU (device.hpp): each replication's l and l_obs as run() computes
  // them (replication_scatter.hpp), added to a block's accumulator in order.
  std::unique_ptr<engine::DeviceReplications> on_device(const engine::DeviceLaunchPlan& plan) const
    requires requires { sampler.portable(); }
  {
    return device_scatter(sampler.portable(), tasks, procs, m_proc, plan);
  }
  void fold(std::span<const double> values, Accumulator& acc) const {
    const std::size_t reps = values.size() / kDeviceScatterValues;
    acc.l_values.reserve(reps);
    acc.l_obs_values.reserve(reps);
    for (std::size_t r = 0; r < reps; ++r) {
      add({values[kDeviceScatterValues * r], values[kDeviceScatterValues * r + 1]}, acc);
    }
  }
};

}  // namespace

engine::Simulated<ScatterSample> simulate_scatter(const dist::LoadLaw& task, std::int64_t tasks, std::int64_t procs,
                               engine::RunPlan plan) {
  if (tasks < 1) throw engine::InputError(fmt::format("scatter: n = {} tasks must be >= 1", tasks));
  if (procs < 1) throw engine::InputError(fmt::format("scatter: N_proc = {} must be >= 1", procs));
  const double m = dist::mean(task);
  if (!(m > 0.0)) throw engine::InputError(fmt::format("scatter: task law {} has mean <= 0", dist::to_spec(task)));
  // n·N_proc may pass 2^63; any product beyond 2^16 gives one replication a block.
  plan.block_reps = engine::block_size_for(
      static_cast<std::int64_t>(std::min(0x1.0p62, static_cast<double>(tasks) * static_cast<double>(procs))));
  const double m_proc = static_cast<double>(tasks) * m;
  engine::Simulated<ScatterSample> result;
  dist::visit_sampler(task, [&](const auto& sampler) {
    using Kernel = ScatterKernel<std::decay_t<decltype(sampler)>>;
    const Kernel kernel{sampler, tasks, procs, m_proc};
    result.run = engine::run_replications(plan, kernel, result.sample);
  });
  return result;
}

}  // namespace lbmc::exp
