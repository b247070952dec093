// Options shared by every experiment command (DESIGN §3) and their checked
// values. Options arrive as text and are validated here, so every error names
// the option and the value that was rejected (exit 2).
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lbmc/dist/laws.hpp"
#include "lbmc/engine/driver.hpp"
#include "lbmc/engine/errors.hpp"
#include "lbmc/engine/input_file.hpp"
#include "lbmc/exp/option_set.hpp"

namespace lbmc::exp {

//! The common options as typed.
struct RunOptionsText {
  std::string reps = "1e5";
  std::string target_rse;
  std::string max_reps = "1e8";
  std::string seed;
  std::string threads;
  std::string level = "0.95";
  std::string z_tol = "4";
  std::string csv;
  std::string json;
  std::string progress = "auto";
  std::string max_memory;
  std::string checkpoint;
  std::string checkpoint_every = "60";
  std::string blocks;
  bool quiet = false;
  bool strict = false;
};

//! The text of --rng and --device.
struct StreamText {
  std::string rng;  // empty: not given
  std::string device = "cpu";
};
//! Adds --rng (pcg64 | philox) to a command whose kernels run on both
//! streams, and --device (cpu | cuda) when they run on a GPU too.
void add_stream_options(OptionSet& options, StreamText& text, bool device);
//! The stream and device they name: --rng left out is pcg64, or philox under
//! --device cuda, which runs on nothing else. Throws InputError for any other
//! text, and for --device cuda with --rng pcg64.
std::pair<engine::Stream, engine::Device> check_stream(const StreamText& text);
//! Under --rng philox (or --device cuda, the `option` named): throws
//! InputError for a law whose sampler does not take the counter-based stream.
void require_counter_stream_laws(const std::vector<dist::LoadLaw>& laws, const char* option);
//! --device cuda: throws InputError unless this process has a device, each
//! point's draws a replication (`draws`, named `draws_name`, e.g. "--n") are
//! within one GPU thread's replication (engine::kInterruptPollSpan) and the
//! device memory the widest point needs, device_bytes(draws), is free.
void require_device(const std::vector<std::int64_t>& draws, const char* draws_name,
                    const std::function<std::size_t(std::int64_t)>& device_bytes);

//! The common options, checked: the engine's plan (seed, replications,
//! stopping rule, threads, progress) and how results are judged and written.
//! Checking changes nothing; apply_run_options applies them.
struct RunOptions {
  //! plan.seed is the --seed given; without one, apply_run_options draws it.
  engine::RunPlan plan;
  bool seed_given = false;
  double level = 0.95;
  double z_tol = 4.0;
  std::optional<std::string> csv;
  std::optional<std::string> json;
  bool quiet = false;
  bool strict = false;
  //! Bytes the run may take: --max-memory, or what the machine and the
  //! process's limits allow (engine/memory_limit.hpp).
  double memory_limit = 0.0;
  bool memory_limit_given = false;
  //! --blocks: this run is a slice whose state, not its rows, is the output.
  bool slice = false;
  std::string checkpoint;
  double checkpoint_every = 60.0;
};

//! Registers --reps, --target-rse, --max-reps, --seed, --threads, --level,
//! --z-tol, --csv, --json, --progress, --max-memory, --checkpoint,
//! --checkpoint-every, --quiet, --strict.
void add_run_options(OptionSet& options, RunOptionsText& text, const std::string& default_reps = "1e5");

//! Registers a repeatable --dist option (each SPEC a law of the table that
//! --help appends); `help` says what the laws are the laws of.
DeclaredOption add_dist_option(OptionSet& options, std::vector<std::string>& specs, const std::string& help);

//! Checks the common options; changes nothing (no thread count, no journal,
//! no MPI call).
RunOptions check_run_options(const RunOptionsText& text);

//! The common options applied to the process: the seed (from
//! std::random_device when none was given; under MPI every rank takes rank
//! 0's), the OpenMP threads of the work outside the driver (sorting,
//! distances), and the journal recording to --checkpoint with the run's
//! input files. Made only by apply_run_options, so that what needs them
//! applied (output files: Report; the driver's plans: make_plan) comes after
//! every check.
class AppliedRun {
 public:
  const RunOptions& options() const noexcept { return options_; }

 private:
  friend AppliedRun apply_run_options(RunOptions checked, const std::vector<engine::InputFile>& inputs);
  explicit AppliedRun(RunOptions options) : options_(std::move(options)) {}
  RunOptions options_;
};

//! Applies checked options (AppliedRun); the one step that changes the
//! process's state.
AppliedRun apply_run_options(RunOptions checked, const std::vector<engine::InputFile>& inputs);

//! The files the data of `laws` come from (their empirical samples), each
//! once; throws engine::InputError when one file was read twice with
//! different bytes.
std::vector<engine::InputFile> input_files(const std::vector<dist::LoadLaw>& laws);

//! Runs `parse(text)`, turning an InputError into one naming `option`.
template <class Parse>
auto parse_option(const char* option, const std::string& text, Parse parse) -> decltype(parse(text)) {
  try {
    return parse(text);
  } catch (const engine::InputError& e) {
    throw engine::InputError(std::string(option) + ": " + e.what());
  }
}

//! The laws of a repeated --dist. `requirement`, when given, returns why a
//! parsed law is unusable for the command (nullptr when it is fine).
std::vector<dist::LoadLaw> parse_laws(const std::vector<std::string>& specs,
                                      const std::function<const char*(const dist::LoadLaw&)>& requirement = {});

//! Commands that sum integer loads in doubles (exact below 2^53) refuse a
//! law and processor count whose total could reach 2^53 with probability
//! above 1e-30 (Bernstein's bound on the sum of n loads).
void require_exact_integer_totals(const std::vector<dist::LoadLaw>& laws, const std::vector<std::int64_t>& ns);

//! Bytes of the sorted samples a run keeps for quantiles: `stores` stores of
//! up to 2^24 exact values each (past that, fixed-size sketches), counted
//! twice for the sorted copy and the blocks being merged.
double quantile_store_bytes(const RunOptions& settings, int stores);

//! Refuses, with exit 2 before any work, a run whose estimated memory
//! `bytes` (made of `what`, for the message) exceeds settings.memory_limit.
void require_memory(const RunOptions& settings, double bytes, std::string_view what);

//! The file an output option replaces whole, as an absolute path with links
//! resolved (for comparing two options); nullopt for stdout ("-") and for
//! what takes several writers (a device such as /dev/null, a pipe).
std::optional<std::filesystem::path> replaced_file(const std::string& name);

//! Levels α for --alpha: each in (0, 1).
std::vector<double> parse_levels(const char* option, const std::string& text);

//! The largest time cost a command takes (--tau, --phi, --h): the laws'
//! magnitude limit, so that sums of costs over 2^62 replications and their
//! squares stay finite.
inline constexpr double kMaxCost = 1e100;

//! Costs (a list or range) for --tau, --phi or --h: each in [0, kMaxCost].
std::vector<double> parse_costs(const char* option, const std::string& text);
//! One such cost.
double parse_cost(const char* option, const std::string& text);

//! The applied plan with the given progress label (the experiment sets the
//! block size).
engine::RunPlan make_plan(const AppliedRun& run, std::string label);

}  // namespace lbmc::exp
