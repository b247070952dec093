// `lbmc dynamic`: the producer/consumer dynamic load-balancing model of
// Kimura–Ichiyoshi 1990 (Definition 1 and its multi-level iteration, §4).
//
// Modes, each a tidy CSV with the parameter columns
// model,r_dist,u_dist,p,t1,nu,lambda,levels,fanout:
//  - default: T_p.mean and eta = t1/(p·E T_p) (delta-method se) at each
//    (model, p, t1 or κ, ν, λ), with rho; the references are listed in
//    references.cpp;
//  - --optimize-nu: the ν search of dynamic_search.hpp per (model, p, t1, λ):
//    nu_opt, rho_opt (intervals from the set of ν within noise of the best),
//    eta_max and T_p.mean at ν_opt from independent replications;
//  - --lemma1: E max of p Exp(1) against H_p (exact) and ln p (the paper);
//  - --isoefficiency: per p, the smallest t1 with η_max >= --eta0, then the
//    fit ln t1 = c + α ln p + β ln ln p against α_ℓ, β_ℓ (Theorem 3);
//  - --optimize-fanout (two levels): η_max for every root degree p_1 | p at
//    the given t1; p1_opt against Theorem 4's p^{1/2} ln p.
// `--kappa K` sets t1 = K·p²·ln p/λ (Corollary 1's scale); `--t1` sets it
// directly. In the output `nu` is the root ν (ν_opt with --optimize-nu).
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include <fmt/format.h>

#include "lbmc/engine/lists.hpp"
#include "lbmc/engine/writers.hpp"
#include "lbmc/exp/command.hpp"
#include "lbmc/exp/dynamic_command.hpp"
#include "lbmc/exp/dynamic_search.hpp"
#include "lbmc/exp/report.hpp"

namespace lbmc::exp {
namespace {

using engine::InputError;

constexpr double kInf = std::numeric_limits<double>::infinity();

std::vector<double> parse_lambdas(const std::string& text) {
  if (text == "inf") return {kInf};
  const auto values = parse_option("--lambda", text, engine::parse_real_list);
  for (const double v : values)
    if (!(v >= 1e-100 && v <= 1e100)) throw InputError(fmt::format("--lambda: {} must be in [1e-100, 1e100] (or inf)", v));
  return values;
}

// One of the names parse_name_list accepted for --model.
SubtaskModel parse_model(const std::string& text) {
  if (text == "deterministic") return SubtaskModel::deterministic;
  return text == "exponential" ? SubtaskModel::exponential : SubtaskModel::uniform;
}

std::optional<dist::LoadLaw> parse_shape(const char* option, const std::string& text) {
  if (text.empty()) return std::nullopt;
  const dist::LoadLaw law = parse_option(option, text, dist::parse_load_law);
  const double m = dist::mean(law);
  if (std::holds_alternative<dist::Empirical>(law)) dist::require_nonnegative(law, std::string(option) + " needs times >= 0");
  if (!(dist::support_min(law) >= 0.0) || !(m > 0.0))
    throw InputError(fmt::format("{} '{}': the law must be nonnegative with a positive mean", option, text));
  return law;
}

// Bytes a thread holds for one replication of the run's largest ν: the
// production and execution times of each subtask (16 bytes) and the
// consumers' heap. Under the exponential model the count is geometric with
// mean ν, and the vectors keep the largest count seen, about ν(1 + ln R).
double subtask_bytes(const DynamicOptions& o, const RunOptions& settings, double nu) {
  const bool geometric = std::find(o.models.begin(), o.models.end(), SubtaskModel::exponential) != o.models.end();
  const double count =
      geometric ? nu * (1.0 + std::log(static_cast<double>(std::max(settings.plan.reps, settings.plan.max_reps)))) : nu;
  const double consumers = static_cast<double>(*std::max_element(o.p.begin(), o.p.end()));
  return 16.0 * count + 8.0 * std::min(consumers, count);
}

class DynamicCommand final : public Command {
 public:
  DynamicCommand()
      : Command("dynamic", "producer/consumer dynamic load balancing (Kimura-Ichiyoshi)",
                engine::describe<DynamicSample>()) {}

  void attach(OptionSet& options) override {
    options.text("--model", text_.model, "deterministic|exponential|uniform: N and the laws of R_n, U_n")
        .show_default();
    options.text("--r-dist", text_.r_dist, "law of R_n (rescaled to mean t1/nu), replacing the model's");
    options.text("--u-dist", text_.u_dist, "law of U_n (rescaled to mean 1/lambda), replacing constant");
    options.text("--p", text_.p, "consumers (leaves): list or range (default 16)");
    options.text("--t1", text_.t1, "mean task size: list");
    options.text("--kappa", text_.kappa, "t1 = K p^2 ln p / lambda: list (default 4 when no --t1)");
    options.text("--nu", text_.nu, "mean number of subtasks: list, or auto (rho = 1)").show_default();
    options.text("--lambda", text_.lambda, "production rate 1/E U_n: list, or inf").show_default();
    options.text("--levels", text_.levels, "levels of the multi-level scheme").show_default();
    options.text("--fanout", text_.fanout, "fan-out of each level, root first (product = p)");
    for (std::size_t i = 0; i < std::size(kDynamicModes); ++i)
      options.flag(kDynamicModes[i].flag, text_.modes[i], kDynamicModes[i].help);
    options.text("--eta0", text_.eta0, "target efficiency of --isoefficiency").show_default();
    options.text("--tol", text_.tol, "--isoefficiency: find t1 to a ratio 1 + tol").show_default();
    add_run_options(options, run_text_, "2e4");
    options.footer(
        "Output columns: experiment,model,r_dist,u_dist,p,t1,nu,lambda,levels,fanout,statistic,...\n"
        "References: exact (deterministic\n"
        "closed form; exponential death-chain recursion for nu <= 300), proposition1, theorem1-log-p,\n"
        "theorem1-harmonic (H_p for log p), theorem1-work (H_p - 1, corrected), theorem2-bound and\n"
        "corollary1-bound (c = 1, rho >= 1), lemma1 harmonic/log-p, theorem3 alpha/beta, theorem4 root degree.");
  }

  std::unique_ptr<CheckedCommand> check(const std::string& command_line) override {
    const DynamicOptions options = check_dynamic_options(text_);
    RunOptions settings = check_run_options(run_text_);
    // The rule every model states (at most 2^31 subtasks) before the memory
    // such a count would need, so that the refusal names the cause.
    const double nu = largest_nu(options);
    if (!(nu <= 0x1p31)) {
      throw InputError(fmt::format(
          "nu = {:g} subtasks (from --t1 or --kappa) exceeds 2^31; lower them or set --nu", nu));
    }
    require_memory(settings, settings.plan.threads * subtask_bytes(options, settings, nu),
                   fmt::format("{} threads x the subtask times of nu = {}", settings.plan.threads, nu));
    std::vector<dist::LoadLaw> laws;
    for (const auto& law : {options.r_law, options.u_law}) {
      if (law) laws.push_back(*law);
    }
    return std::make_unique<CheckedExperiment>(std::move(settings), input_files(laws), [=, this](const AppliedRun& applied) {
      Report report("dynamic", {"model", "r_dist", "u_dist", "p", "t1", "nu", "lambda", "levels", "fanout"},
                    statistics(), applied, command_line);
      run_dynamic(options, applied, report);
      return report.finish();
    });
  }

 private:
  DynamicOptionsText text_;
  RunOptionsText run_text_;
};

}  // namespace

namespace {

// --levels and --fanout, and the processor counts they imply or --p gives.
void check_tree(const DynamicOptionsText& text, DynamicOptions& o) {
  const auto levels = parse_option("--levels", text.levels, engine::parse_integer);
  if (levels < 1 || levels > 8) throw InputError(fmt::format("--levels: '{}' must be in [1, 8]", text.levels));
  o.levels = static_cast<int>(levels);
  if (text.fanout.empty()) {
    o.p = parse_option("--p", text.p.empty() ? std::string("16") : text.p,
                       [](const std::string& t) { return engine::parse_integer_list(t, 1); });
    return;
  }
  o.fanout = parse_option("--fanout", text.fanout, [](const std::string& t) { return engine::parse_integer_list(t, 1); });
  if (static_cast<int>(o.fanout.size()) != o.levels)
    throw InputError(fmt::format("--fanout '{}': {} fan-outs for --levels {}", text.fanout, o.fanout.size(), o.levels));
  std::int64_t product = 1;
  for (const std::int64_t f : o.fanout) {
    if (product > (std::int64_t{1} << 40) / f) throw InputError(fmt::format("--fanout '{}': too many consumers", text.fanout));
    product *= f;
  }
  if (!text.p.empty() && text.p != std::to_string(product))
    throw InputError(fmt::format("--fanout '{}': multiplies to {}, not --p {}", text.fanout, product, text.p));
  o.p = {product};
}

// --t1 or --kappa, and --nu.
void check_work(const DynamicOptionsText& text, DynamicOptions& o) {
  if (!text.t1.empty() && !text.kappa.empty()) throw InputError("--t1 and --kappa: give one of them");
  if (!text.t1.empty()) {
    o.t1 = parse_option("--t1", text.t1, engine::parse_real_list);
    for (const double t : o.t1)
      if (!(t >= 1e-100 && t <= 1e100)) throw InputError(fmt::format("--t1: {} must be in [1e-100, 1e100]", t));
  } else {
    o.kappa = parse_option("--kappa", text.kappa.empty() ? std::string("4") : text.kappa, engine::parse_real_list);
    for (const double k : o.kappa)
      if (!(k >= 1e-100 && k <= 1e100)) throw InputError(fmt::format("--kappa: {} must be in [1e-100, 1e100]", k));
  }
  if (text.nu == "auto") return;
  o.nu = parse_option("--nu", text.nu, engine::parse_real_list);
  for (const double nu : o.nu) {
    if (!(nu >= 1.0 && nu <= 0x1p31)) throw InputError(fmt::format("--nu: {} must be in [1, 2^31]", nu));
    for (const SubtaskModel m : o.models)
      if (m != SubtaskModel::exponential && nu != std::floor(nu))
        throw InputError(fmt::format("--nu: {} must be an integer for the {} model", nu, to_string(m)));
  }
}

// The modes' own rules.
void check_modes(const DynamicOptionsText& text, const DynamicOptions& o) {
  const bool free_production = std::any_of(o.lambda.begin(), o.lambda.end(), [](double l) { return !std::isfinite(l); });
  const bool searches_nu = o.mode == DynamicMode::optimize_nu || o.mode == DynamicMode::isoefficiency ||
                           o.mode == DynamicMode::optimize_fanout;
  if (searches_nu && free_production) throw InputError("--lambda: inf has no optimal nu (eta grows with nu)");
  if (o.mode == DynamicMode::optimize_fanout && o.levels != 2) throw InputError("--optimize-fanout: needs --levels 2");
  if (o.mode == DynamicMode::isoefficiency && !text.fanout.empty())
    throw InputError("--fanout: not with --isoefficiency (the root degree follows Theorem 4 per p)");
  if (o.levels > 1 && o.fanout.empty() && o.mode != DynamicMode::isoefficiency &&
      o.mode != DynamicMode::optimize_fanout) {
    // The equal-degree tree when p is a perfect power.
    for (const std::int64_t p : o.p) {
      const auto d = static_cast<std::int64_t>(std::llround(std::pow(static_cast<double>(p), 1.0 / o.levels)));
      if (static_cast<std::int64_t>(std::llround(std::pow(static_cast<double>(d), o.levels))) != p)
        throw InputError(fmt::format("--fanout: needed for --levels {} (--p {} is not a perfect power)", o.levels, p));
    }
  }
}

}  // namespace

DynamicOptions check_dynamic_options(const DynamicOptionsText& text) {
  DynamicOptions o;
  for (const auto& name : parse_option("--model", text.model, [](const std::string& t) {
         return engine::parse_name_list(t, {"deterministic", "exponential", "uniform"});
       })) {
    o.models.push_back(parse_model(name));
  }
  o.r_law = parse_shape("--r-dist", text.r_dist);
  o.u_law = parse_shape("--u-dist", text.u_dist);
  check_tree(text, o);
  check_work(text, o);
  o.lambda = parse_lambdas(text.lambda);
  const DynamicModeFlag* chosen = nullptr;
  for (std::size_t i = 0; i < std::size(kDynamicModes); ++i) {
    if (!text.modes[i]) continue;
    if (chosen != nullptr)
      throw InputError(fmt::format("{} and {}: give one of them", chosen->flag, kDynamicModes[i].flag));
    chosen = &kDynamicModes[i];
  }
  if (chosen != nullptr) o.mode = chosen->mode;
  o.eta0 = parse_option("--eta0", text.eta0, engine::parse_real);
  if (!(o.eta0 > 0.0 && o.eta0 < 1.0)) throw InputError(fmt::format("--eta0: '{}' must be in (0,1)", text.eta0));
  o.tol = parse_option("--tol", text.tol, engine::parse_real);
  if (!(o.tol > 0.0 && o.tol <= 1.0)) throw InputError(fmt::format("--tol: '{}' must be in (0,1]", text.tol));
  check_modes(text, o);
  return o;
}

std::unique_ptr<Command> make_dynamic_command() { return std::make_unique<DynamicCommand>(); }

}  // namespace lbmc::exp
