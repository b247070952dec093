// Event simulation of Kimura–Ichiyoshi's Definition 1 and its multi-level
// iteration: the consumer min-heap, the literal order-statistic transcription,
// the recursive multi-level simulator, and the replication kernel.
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

const char* to_string(SubtaskModel model) {
  switch (model) {
    case SubtaskModel::deterministic: return "deterministic";
    case SubtaskModel::exponential: return "exponential";
    case SubtaskModel::uniform: return "uniform";
  }
  return "";
}

dist::LoadLaw subtask_law(const DynamicModel& model) {
  if (model.r_law) return *model.r_law;
  switch (model.model) {
    case SubtaskModel::deterministic: return dist::Constant{1.0};
    case SubtaskModel::exponential: return dist::Exponential{1.0};
    case SubtaskModel::uniform: return dist::Uniform{0.0, 2.0};
  }
  return dist::Constant{1.0};
}

dist::LoadLaw production_law(const DynamicModel& model) { return model.u_law.value_or(dist::Constant{1.0}); }

bool uses_model_laws(const DynamicModel& model) {
  const dist::LoadLaw r = subtask_law(model);
  const bool r_ok = (model.model == SubtaskModel::deterministic && std::holds_alternative<dist::Constant>(r)) ||
                    (model.model == SubtaskModel::exponential && std::holds_alternative<dist::Exponential>(r)) ||
                    (model.model == SubtaskModel::uniform && std::holds_alternative<dist::Uniform>(r) &&
                     std::get<dist::Uniform>(r).a == 0.0);
  return r_ok && std::holds_alternative<dist::Constant>(production_law(model));
}

std::size_t levels(const DynamicModel& model) { return model.fanout.empty() ? 1 : model.fanout.size(); }

namespace {

void validate_nu(const DynamicModel& model, double nu, const char* what) {
  // Counts are drawn as integers; a replication of 2^31 subtasks is already
  // hours of work.
  if (!(nu >= 1.0 && nu <= 0x1p31))
    throw engine::InputError(fmt::format("dynamic: {} = {} must be in [1, 2^31]", what, nu));
  if (model.model != SubtaskModel::exponential && !is_count(nu))
    throw engine::InputError(
        fmt::format("dynamic: {} = {} must be an integer below 2^31 for a fixed number of subtasks", what, nu));
}

void validate_law(const dist::LoadLaw& law, const char* what) {
  const double m = dist::mean(law);
  if (!(dist::support_min(law) >= 0.0) || !(m > 0.0) || !std::isfinite(m))
    throw engine::InputError(fmt::format("dynamic: the {} law {} must be nonnegative with a positive finite mean",
                                         what, dist::to_spec(law)));
}

}  // namespace

void validate(const DynamicModel& model) {
  if (model.p < 1) throw engine::InputError(fmt::format("dynamic: p = {} must be >= 1", model.p));
  if (!(model.t1 > 0.0) || !std::isfinite(model.t1))
    throw engine::InputError(fmt::format("dynamic: t1 = {} must be positive and finite", model.t1));
  if (!(model.lambda > 0.0)) throw engine::InputError(fmt::format("dynamic: lambda = {} must be > 0", model.lambda));
  validate_nu(model, model.nu, "nu");
  validate_law(subtask_law(model), "subtask (R_n)");
  validate_law(production_law(model), "production (U_n)");
  if (!model.fanout.empty()) {
    std::int64_t product = 1;
    for (const std::int64_t f : model.fanout) {
      if (f < 1 || product > (std::int64_t{1} << 40) / f)
        throw engine::InputError(fmt::format("dynamic: fan-out {} must be >= 1 (product below 2^40)", f));
      product *= f;
    }
    if (product != model.p)
      throw engine::InputError(fmt::format("dynamic: the fan-outs multiply to {}, not p = {}", product, model.p));
    if (!model.inner_nu.empty() && model.inner_nu.size() + 1 != model.fanout.size())
      throw engine::InputError(fmt::format("dynamic: {} inner nu for {} levels (need {})", model.inner_nu.size(),
                                           model.fanout.size(), model.fanout.size() - 1));
    if (model.fanout.size() > 1 && model.inner_nu.empty() && !std::isfinite(model.lambda))
      throw engine::InputError("dynamic: lambda = inf leaves the inner nu of a multi-level scheme unbounded");
  } else if (!model.inner_nu.empty()) {
    throw engine::InputError("dynamic: inner nu given for a single level");
  }
  for (const double nu : model.inner_nu) validate_nu(model, nu, "inner nu");
}

std::vector<double> level_nus(const DynamicModel& model) {
  std::vector<double> nus{model.nu};
  if (model.fanout.size() <= 1) return nus;
  if (!model.inner_nu.empty()) {
    nus.insert(nus.end(), model.inner_nu.begin(), model.inner_nu.end());
    return nus;
  }
  // ρ_k = 1: ν_k = λ·m_{k−1}/P_k, m_{k−1} = t1/(ν_1⋯ν_{k−1}), P_k = p_k⋯p_L.
  double task = model.t1 / model.nu;
  for (std::size_t k = 1; k < model.fanout.size(); ++k) {
    double leaves = 1.0;
    for (std::size_t j = k; j < model.fanout.size(); ++j) leaves *= static_cast<double>(model.fanout[j]);
    double nu = std::clamp(model.lambda * task / leaves, 1.0, 1e7);
    if (model.model != SubtaskModel::exponential) nu = std::max(1.0, std::round(nu));
    nus.push_back(nu);
    task /= nu;
  }
  return nus;
}

double rho(const DynamicModel& model) {
  return model.lambda * model.t1 / (model.nu * static_cast<double>(model.p));
}

namespace {

// Fills `out` with scale·X, X from `sampler`, in order.
void fill(const dist::AnySampler& sampler, double scale, engine::Generator& gen, std::vector<double>& out) {
  std::visit(
      [&](const auto& s) {
        for (double& x : out) x = scale * s(gen);
      },
      sampler);
}

}  // namespace

DynamicSimulator::DynamicSimulator(const DynamicModel& model)
    : model_((validate(model), model)),
      fanout_(model.fanout.empty() ? std::vector<std::int64_t>{model.p} : model.fanout),
      nus_(level_nus(model)),
      r_sampler_(dist::make_any_sampler(subtask_law(model))),
      u_sampler_(dist::make_any_sampler(production_law(model))),
      scratch_(fanout_.size()),
      heaps_(fanout_.size()) {
  double leaf_mean = model.t1;
  for (const double nu : nus_) leaf_mean /= nu;
  r_scale_ = leaf_mean / dist::mean(subtask_law(model));
  u_scale_ = (1.0 / model.lambda) / dist::mean(production_law(model));
}

double DynamicSimulator::expected_leaves() const noexcept {
  double leaves = 1.0;
  for (const double nu : nus_) leaves *= nu;
  return leaves;
}

std::size_t DynamicSimulator::draw_count(std::size_t level, engine::Generator& gen) const {
  const double nu = nus_[level];
  if (model_.model != SubtaskModel::exponential) return static_cast<std::size_t>(nu);
  if (nu == 1.0) return 1;
  // V in (0,1): ln V in [-37.4, 0), so N <= 1 + 37.4/(-ln(1 - 1/ν)).
  const double v = engine::uniform_open01(gen);
  return 1 + static_cast<std::size_t>(std::floor(std::log(v) / std::log1p(-1.0 / nu)));
}

void DynamicSimulator::draw_level(std::size_t level, engine::Generator& gen) {
  DynamicInstance& out = scratch_[level];
  const std::size_t n = draw_count(level, gen);
  out.r.resize(n);
  if (level + 1 == fanout_.size()) {
    fill(r_sampler_, r_scale_, gen, out.r);
    for (const double r : out.r) work_ += r;
  } else {
    for (std::size_t k = 0; k < n; ++k) out.r[k] = level_time(level + 1, gen);
  }
  out.u.resize(n);
  fill(u_sampler_, u_scale_, gen, out.u);
}

double DynamicSimulator::level_time(std::size_t level, engine::Generator& gen) {
  draw_level(level, gen);
  return exp::completion_time(scratch_[level], fanout_[level], heaps_[level]);
}

void DynamicSimulator::draw_instance(engine::Generator& gen, DynamicInstance& out) {
  draw_level(0, gen);
  out = scratch_[0];
}

double DynamicSimulator::completion_time(engine::Generator& gen) {
  work_ = 0.0;
  const double t = level_time(0, gen);
  last_count_ = scratch_[0].r.size();
  return t;
}

void draw_instance(const DynamicModel& model, engine::Generator& gen, DynamicInstance& out) {
  DynamicSimulator(model).draw_instance(gen, out);
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

engine::MeanSummary efficiency_of(const DynamicModel& model, engine::MeanSummary t) {
  return engine::reciprocal(model.t1 / static_cast<double>(model.p), t);
}

namespace {

struct DynamicKernel {
  using Accumulator = DynamicSample;

  DynamicSimulator simulator;

  Accumulator make_accumulator() const { return {}; }

  void run(engine::Generator& gen, std::int64_t count, Accumulator& acc) const {
    DynamicSimulator sim = simulator;  // scratch space of this block
    for (std::int64_t i = 0; i < count; ++i) {
      acc.t_p.add(sim.completion_time(gen));
      acc.subtasks.add(static_cast<double>(sim.last_count()));
    }
  }
};

}  // namespace

std::int64_t dynamic_block_reps(const DynamicModel& model) {
  const double leaves = DynamicSimulator(model).expected_leaves();
  return engine::block_size_for(static_cast<std::int64_t>(std::min(leaves, 1e9)) + 1);
}

engine::Simulated<DynamicSample> simulate_dynamic(const DynamicModel& model, engine::RunPlan plan) {
  const DynamicKernel kernel{DynamicSimulator(model)};
  plan.block_reps = dynamic_block_reps(model);
  engine::Simulated<DynamicSample> result;
  result.run = engine::run_replications(plan, kernel, result.sample);
  return result;
}

}  // namespace lbmc::exp
