// Experiment reports: stderr lines, table, CSV, JSON.
#include "lbmc/exp/report.hpp"

#include <cstdio>
#include <ctime>
#include <string>

#include <fmt/format.h>

#include "lbmc/engine/cluster.hpp"
#include "lbmc/engine/cuda_device.hpp"
#include "lbmc/engine/embedding.hpp"

namespace lbmc::exp {
namespace {

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return buffer;
}

}  // namespace

std::string join_command_line(int argc, const char* const* argv) {
  std::string line;
  for (int i = 0; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg.empty() || arg.find_first_of(" \t'\"\\$;&|<>*?") != std::string::npos) {
      std::string quoted = "'";
      for (char c : arg) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
      arg = quoted + "'";
    }
    if (i > 0) line += ' ';
    line += arg;
  }
  return line;
}

Report::Report(std::string experiment, std::vector<std::string> param_names,
               std::vector<engine::StatisticInfo> declared, const AppliedRun& run, std::string command_line)
    : settings_(run.options()), start_(std::chrono::steady_clock::now()) {
  const RunOptions& settings = run.options();
  table_.experiment = std::move(experiment);
  table_.param_names = std::move(param_names);
  table_.declared = std::move(declared);
  table_.z_tol = settings.z_tol;
  if (settings.csv) csv_.emplace("--csv", *settings.csv);
  if (settings.json) json_.emplace("--json", *settings.json);
  meta_.command_line = std::move(command_line);
  meta_.seed = settings.plan.seed;
  meta_.threads = settings.plan.threads;
  meta_.ranks = engine::cluster::size();
  meta_.start_time = utc_now();
  if (settings.plan.device == engine::Device::cuda) meta_.device = "cuda (" + engine::cuda::device_name() + ")";
  if (!settings.quiet) {
    const std::string ranks = meta_.ranks == 1 ? "" : fmt::format(" on each of {} ranks", meta_.ranks);
    const std::string device = meta_.device == "cpu" ? "" : ", " + meta_.device;
    std::fprintf(stderr, "lbmc %s: seed %llu, %d thread%s%s%s\n", table_.experiment.c_str(),
                 static_cast<unsigned long long>(settings.plan.seed), settings.plan.threads,
                 settings.plan.threads == 1 ? "" : "s", ranks.c_str(), device.c_str());
  }
}

void Report::record(const std::string& label, const engine::RunReport& run, double variates_per_rep) {
  const double variates = static_cast<double>(run.reps) * variates_per_rep;
  meta_.reps += run.reps;
  variates_ += variates;
  const double loop_seconds = run.wall_seconds - run.store_seconds;
  busy_seconds_ += loop_seconds;
  store_seconds_ += run.store_seconds;
  std::string stopping = "fixed reps";
  if (settings_.plan.target_rse) stopping = run.target_reached ? "target rse reached" : "max reps reached";
  stopping_.push_back(stopping);
  if (settings_.quiet) return;
  const double rate = loop_seconds > 0 ? static_cast<double>(run.reps) / loop_seconds : 0.0;
  const double ns = variates > 0 ? loop_seconds * 1e9 / variates : 0.0;
  std::string line = fmt::format("{}: {} reps in {:.3f} s, {:.4g} reps/s, {:.3g} ns/variate", label, run.reps,
                                 loop_seconds, rate, ns);
  if (run.store_seconds >= 0.001) line += fmt::format(", then {:.3f} s sorting them for quantiles", run.store_seconds);
  if (settings_.plan.target_rse) line += fmt::format(" ({})", stopping);
  std::fprintf(stderr, "%s\n", line.c_str());
}

int Report::finish() {
  meta_.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  meta_.reps_per_second = busy_seconds_ > 0 ? static_cast<double>(meta_.reps) / busy_seconds_ : 0.0;
  meta_.ns_per_variate = variates_ > 0 ? busy_seconds_ * 1e9 / variates_ : 0.0;
  meta_.store_seconds = store_seconds_;
  bool all_same = true;
  for (const auto& s : stopping_) all_same = all_same && s == stopping_.front();
  meta_.stopping = stopping_.empty() ? "" : all_same ? stopping_.front() : "mixed (see stderr)";

  if (settings_.slice) {
    if (!settings_.quiet) {
      std::fprintf(stderr, "lbmc %s: the slice --blocks %lld:%lld of every point written to %s (lbmc merge combines "
                   "slices)\n",
                   table_.experiment.c_str(), static_cast<long long>(settings_.plan.first_block),
                   static_cast<long long>(settings_.plan.block_count), settings_.checkpoint.c_str());
    }
    return 0;
  }
  const bool csv_on_stdout = csv_ && csv_->is_stdout();
  const bool json_on_stdout = json_ && json_->is_stdout();
  if (csv_) csv_->commit(engine::to_csv(table_));
  if (json_) json_->commit(engine::to_json(table_, meta_).dump(2) + "\n");
  if (engine::Embedding* embedding = engine::current_embedding()) {
    embedding->output.tables.push_back({engine::to_csv(table_), engine::to_json(table_, meta_)["meta"].dump()});
  } else if (!csv_on_stdout && !json_on_stdout) {
    const std::string text = engine::to_text(table_);
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::fflush(stdout);
  }
  const auto failed = table_.failures(engine::ReferenceKind::exact);
  const auto violated = table_.failures(engine::ReferenceKind::bound);
  // Notes tell of references left out and checks without a verdict: what
  // the rows do not show, so --quiet (seed, timing, progress) keeps them.
  for (const std::string& note : table_.notes) {
    std::fprintf(stderr, "lbmc %s: note: %s\n", table_.experiment.c_str(), note.c_str());
  }
  if (!settings_.quiet) {
    std::fprintf(stderr, "lbmc %s: %zu rows, %lld failed exact check%s, %lld bound%s not respected, %.3f s\n",
                 table_.experiment.c_str(), table_.rows.size(), static_cast<long long>(failed),
                 failed == 1 ? "" : "s", static_cast<long long>(violated), violated == 1 ? "" : "s",
                 meta_.wall_seconds);
  }
  return settings_.strict && failed > 0 ? 1 : 0;
}

}  // namespace lbmc::exp
