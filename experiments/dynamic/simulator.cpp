// Event simulation of Kimura–Ichiyoshi's Definition 1: the consumer min-heap,
// the literal order-statistic transcription, and the replication kernel.
#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>

#include <fmt/format.h>

#include "lbmc/dist/samplers.hpp"
#include "lbmc/engine/errors.hpp"
#include "lbmc/exp/dynamic.hpp"

namespace lbmc::exp {

namespace {

bool is_count(double nu) { return nu >= 1.0 && nu < 2147483648.0 && nu == std::floor(nu); }

// Replaces the minimum of the binary min-heap `h` by `value` and restores the
// heap order (one sift-down).
void replace_top(std::vector<double>& h, double value) {
  const std::size_t size = h.size();
  std::size_t i = 0;
  for (;;) {
    const std::size_t left = 2 * i + 1;
    if (left >= size) break;
    std::size_t child = left;
    if (left + 1 < size && h[left + 1] < h[left]) child = left + 1;
    if (!(h[child] < value)) break;
    h[i] = h[child];
    i = child;
  }
  h[i] = value;
}

void check_instance(const DynamicInstance& instance, std::int64_t p) {
  if (p < 1) throw engine::InputError(fmt::format("dynamic: p = {} must be >= 1", p));
  if (instance.r.empty() || instance.r.size() != instance.u.size())
    throw engine::InputError("dynamic: an instance needs N >= 1 and as many U_n as R_n");
}

}  // namespace

void validate(const DynamicModel& model) {
  if (model.p < 1) throw engine::InputError(fmt::format("dynamic: p = {} must be >= 1", model.p));
  if (!(model.t1 > 0.0) || !std::isfinite(model.t1))
    throw engine::InputError(fmt::format("dynamic: t1 = {} must be positive and finite", model.t1));
  if (!(model.lambda > 0.0)) throw engine::InputError(fmt::format("dynamic: lambda = {} must be > 0", model.lambda));
  if (!(model.nu >= 1.0) || !std::isfinite(model.nu))
    throw engine::InputError(fmt::format("dynamic: nu = {} must be >= 1 and finite", model.nu));
  if (model.model != SubtaskModel::exponential && !is_count(model.nu))
    throw engine::InputError(
        fmt::format("dynamic: nu = {} must be an integer below 2^31 for a fixed number of subtasks", model.nu));
}

double rho(const DynamicModel& model) {
  return model.lambda * model.t1 / (model.nu * static_cast<double>(model.p));
}

namespace {

template <class Sampler>
void draw_with(const DynamicModel& model, const Sampler& sampler, engine::Generator& gen, DynamicInstance& out) {
  std::size_t n = 0;
  if (model.model == SubtaskModel::exponential) {
    if (model.nu == 1.0) {
      n = 1;
    } else {
      // V in (0,1): ln V in [-37.4, 0), so N <= 1 + 37.4/(-ln(1 - 1/ν)).
      const double v = engine::uniform_open01(gen);
      n = 1 + static_cast<std::size_t>(std::floor(std::log(v) / std::log1p(-1.0 / model.nu)));
    }
  } else {
    n = static_cast<std::size_t>(model.nu);
  }
  out.r.resize(n);
  for (double& r : out.r) r = sampler(gen);
  out.u.assign(n, 1.0 / model.lambda);
}

}  // namespace

void draw_instance(const DynamicModel& model, engine::Generator& gen, DynamicInstance& out) {
  const double mean_size = model.t1 / model.nu;
  switch (model.model) {
    case SubtaskModel::deterministic:
      draw_with(model, dist::ConstantSampler(dist::Constant{mean_size}), gen, out);
      return;
    case SubtaskModel::exponential:
      draw_with(model, dist::ExponentialSampler(dist::Exponential{mean_size}), gen, out);
      return;
    case SubtaskModel::uniform:
      draw_with(model, dist::UniformSampler(dist::Uniform{0.0, 2.0 * mean_size}), gen, out);
      return;
  }
}

double completion_time(const DynamicInstance& instance, std::int64_t p, std::vector<double>& heap) {
  check_instance(instance, p);
  const std::size_t n = instance.r.size();
  // With N <= p consumers the heap never runs out of zeros; min(p, N) suffices.
  heap.assign(std::min(static_cast<std::size_t>(p), n), 0.0);
  double birth = 0.0;  // O_n
  double last = 0.0;   // max Y_k so far
  for (std::size_t k = 0; k < n; ++k) {
    birth += instance.u[k];
    const double onset = std::max(birth, heap.front());  // X_n = max(O_n, Z_n)
    const double done = onset + instance.r[k];          // Y_n
    replace_top(heap, done);
    last = std::max(last, done);
  }
  return last;
}

double completion_time(const DynamicInstance& instance, std::int64_t p) {
  std::vector<double> heap;
  return completion_time(instance, p, heap);
}

double completion_time_literal(const DynamicInstance& instance, std::int64_t p) {
  check_instance(instance, p);
  const std::size_t n = instance.r.size();
  const auto pp = static_cast<std::size_t>(p);
  std::vector<double> y(n);
  std::vector<double> earlier;
  double birth = 0.0;
  for (std::size_t k = 0; k < n; ++k) {  // subtask n = k + 1
    birth += instance.u[k];
    double z = 0.0;
    if (k + 1 > pp) {
      // Z_n = min over i_1 < … < i_{p−1} of max_{k ∉ {i}} Y_k: excluding the
      // p−1 largest is optimal, so Z_n is the p-th largest of Y_1..Y_{n−1}.
      earlier.assign(y.begin(), y.begin() + static_cast<std::ptrdiff_t>(k));
      std::sort(earlier.begin(), earlier.end(), std::greater<>());
      z = earlier[pp - 1];
    }
    const double onset = std::max(birth, z);
    y[k] = onset + instance.r[k];
  }
  return *std::max_element(y.begin(), y.end());
}

void DynamicSample::merge(const DynamicSample& other) {
  t_p.merge(other.t_p);
  subtasks.merge(other.subtasks);
}

double efficiency(const DynamicModel& model, const DynamicSample& sample) {
  return model.t1 / (static_cast<double>(model.p) * sample.t_p.mean());
}

namespace {

template <class Sampler>
struct DynamicKernel {
  using Accumulator = DynamicSample;

  Sampler sampler;
  DynamicModel model;

  Accumulator make_accumulator() const { return {}; }

  void run(engine::Generator& gen, std::int64_t count, Accumulator& acc) const {
    DynamicInstance instance;
    std::vector<double> heap;
    for (std::int64_t i = 0; i < count; ++i) {
      draw_with(model, sampler, gen, instance);
      acc.t_p.add(completion_time(instance, model.p, heap));
      acc.subtasks.add(static_cast<double>(instance.r.size()));
    }
  }
};

template <class Sampler>
void run_kernel(const DynamicModel& model, const Sampler& sampler, const engine::RunPlan& plan,
                DynamicSample& sample) {
  const DynamicKernel<Sampler> kernel{sampler, model};
  const double target = plan.target_rse.value_or(0.0);
  sample.run = engine::run_replications(plan, kernel, sample, [&](const DynamicSample& acc) {
    return acc.t_p.mean_se() <= target * std::abs(acc.t_p.mean());
  });
}

}  // namespace

DynamicSample simulate_dynamic(const DynamicModel& model, engine::RunPlan plan) {
  validate(model);
  plan.block_reps = engine::block_size_for(static_cast<std::int64_t>(std::min(model.nu, 1e9)) + 1);
  DynamicSample sample;
  const double mean_size = model.t1 / model.nu;
  switch (model.model) {
    case SubtaskModel::deterministic:
      run_kernel(model, dist::ConstantSampler(dist::Constant{mean_size}), plan, sample);
      break;
    case SubtaskModel::exponential:
      run_kernel(model, dist::ExponentialSampler(dist::Exponential{mean_size}), plan, sample);
      break;
    case SubtaskModel::uniform:
      run_kernel(model, dist::UniformSampler(dist::Uniform{0.0, 2.0 * mean_size}), plan, sample);
      break;
  }
  return sample;
}

}  // namespace lbmc::exp
