// Validation of the common options.
#include "lbmc/exp/run_options.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <random>
#include <thread>

#include <fmt/format.h>
#include <omp.h>
#include <unistd.h>

#include "lbmc/dist/samplers.hpp"
#include "lbmc/engine/cluster.hpp"
#include "lbmc/engine/cuda_device.hpp"
#include "lbmc/engine/interrupt.hpp"
#include "lbmc/engine/lists.hpp"
#include "lbmc/engine/memory_limit.hpp"
#include "lbmc/engine/quantile_store.hpp"
#include "lbmc/engine/run_journal.hpp"

namespace lbmc::exp {

using engine::InputError;

void add_run_options(OptionSet& options, RunOptionsText& text, const std::string& default_reps) {
  text.reps = default_reps;
  options.text("--reps", text.reps, "replications per parameter point (accepts 1e6)")
      .show_default();
  options.text("--target-rse", text.target_rse,
               "add blocks until every reported mean has relative se <= X");
  options.text("--max-reps", text.max_reps, "upper limit on replications with --target-rse")
      .show_default();
  options.text("--seed", text.seed, "master seed (default: from std::random_device)");
  options.text("--threads", text.threads, "OpenMP threads (default: all)");
  options.text("--level", text.level, "confidence level of intervals").show_default();
  options.text("--z-tol", text.z_tol, "|z| above which an exact check fails").show_default();
  options.text("--csv", text.csv, "write tidy CSV to FILE, or - for stdout");
  options.text("--json", text.json, "write JSON (rows and run metadata) to FILE, or - for stdout");
  options.text("--progress", text.progress, "progress on stderr: auto|always|never")
      .show_default();
  options.text("--max-memory", text.max_memory,
               "refuse runs estimated to need more, e.g. 512M, 4G (K, M, G, T: powers of 1024; default: what "
               "the machine and ulimit allow)");
  options.text("--checkpoint", text.checkpoint,
               "write the run's state to FILE at wave boundaries, on SIGINT/SIGTERM and at the end "
               "(lbmc resume FILE continues it)");
  options.text("--checkpoint-every", text.checkpoint_every, "seconds between checkpoints").show_default();
  options.text("--blocks", text.blocks,
               "FIRST:COUNT: run only these blocks of every point and write their state to --checkpoint "
               "(lbmc merge combines slices)");
  options.flag("--quiet", text.quiet, "no seed, timing or progress lines on stderr (notes of references left out stay)");
  options.flag("--strict", text.strict, "exit 1 when an exact check fails");
}

DeclaredOption add_dist_option(OptionSet& options, std::vector<std::string>& specs, const std::string& help) {
  return options.texts("--dist", specs, help).show_default();
}

std::optional<std::filesystem::path> replaced_file(const std::string& name) {
  std::error_code ec;
  if (name == "-" || (std::filesystem::exists(name, ec) && !std::filesystem::is_regular_file(name, ec))) {
    return std::nullopt;
  }
  std::filesystem::path path = std::filesystem::weakly_canonical(std::filesystem::absolute(name, ec), ec);
  if (ec) return std::nullopt;  // an unreadable folder is the writer's to report
  return path;
}

namespace {

// A plain decimal integer is read exactly, up to 2^64 − 1 (a double would
// round the largest seeds up to 2^64); other forms (1e6) as a number that
// must be an integer in range.
std::uint64_t parse_seed(const std::string& text) {
  const auto refused = [&] { return InputError(fmt::format("--seed: '{}' must be an integer in [0, 2^64)", text)); };
  if (!text.empty() && text.find_first_not_of("0123456789") == std::string::npos) {
    std::uint64_t seed = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), seed);
    if (ec != std::errc{} || end != text.data() + text.size()) throw refused();
    return seed;
  }
  const double value = parse_option("--seed", text, engine::parse_real);
  if (!(value >= 0.0) || value != std::floor(value) || value >= 0x1.0p64) throw refused();
  return static_cast<std::uint64_t>(value);
}

// --csv, --json and --checkpoint each replace their file whole: two naming
// one file would leave only the last written.
void require_distinct_outputs(const RunOptions& s) {
  std::vector<std::pair<const char*, std::string>> files;
  if (s.csv) files.emplace_back("--csv", *s.csv);
  if (s.json) files.emplace_back("--json", *s.json);
  if (!s.checkpoint.empty()) files.emplace_back("--checkpoint", s.checkpoint);
  std::vector<std::pair<const char*, std::filesystem::path>> seen;
  for (const auto& [option, name] : files) {
    const auto path = replaced_file(name);
    if (!path) continue;
    for (const auto& [earlier, earlier_path] : seen) {
      if (earlier_path == *path) {
        throw InputError(fmt::format("{} '{}': the same file as {}; each output needs its own", option, name, earlier));
      }
    }
    seen.emplace_back(option, *path);
  }
}

}  // namespace

namespace {

// --reps, --max-reps and --target-rse.
void check_replications(const RunOptionsText& text, engine::RunPlan& plan) {
  plan.reps = parse_option("--reps", text.reps, engine::parse_integer);
  if (plan.reps < 1) throw InputError(fmt::format("--reps: '{}' must be >= 1", text.reps));
  plan.max_reps = parse_option("--max-reps", text.max_reps, engine::parse_integer);
  if (plan.max_reps < 1) throw InputError(fmt::format("--max-reps: '{}' must be >= 1", text.max_reps));
  if (!text.target_rse.empty()) {
    const double rse = parse_option("--target-rse", text.target_rse, engine::parse_real);
    if (!(rse > 0.0)) throw InputError(fmt::format("--target-rse: '{}' must be > 0", text.target_rse));
    plan.target_rse = rse;
  }
}

// --threads: all the process may use by default.
int check_threads(const std::string& text) {
  if (text.empty()) return omp_get_max_threads();
  const std::int64_t t = parse_option("--threads", text, engine::parse_integer);
  if (t < 1 || t > 4096) throw InputError(fmt::format("--threads: '{}' must be in [1, 4096]", text));
  return static_cast<int>(t);
}

engine::ProgressMode check_progress(const std::string& text) {
  if (text == "auto") return engine::ProgressMode::automatic;
  if (text == "always") return engine::ProgressMode::always;
  if (text == "never") return engine::ProgressMode::never;
  throw InputError(fmt::format("--progress: '{}' is not auto, always or never", text));
}

// --blocks FIRST:COUNT: a slice, whose state alone is its output.
void check_slice(const RunOptionsText& text, RunOptions& s) {
  const auto parts = engine::split(text.blocks, ':');
  if (parts.size() != 2) throw InputError(fmt::format("--blocks: '{}' is not FIRST:COUNT", text.blocks));
  s.plan.first_block = parse_option("--blocks", std::string(parts[0]), engine::parse_integer);
  s.plan.block_count = parse_option("--blocks", std::string(parts[1]), engine::parse_integer);
  if (s.plan.first_block < 0 || s.plan.block_count < 1) {
    throw InputError(fmt::format("--blocks: '{}' needs FIRST >= 0 and COUNT >= 1", text.blocks));
  }
  if (text.checkpoint.empty()) throw InputError("--blocks: needs --checkpoint FILE, where the slice's state goes");
  if (s.plan.target_rse) throw InputError("--blocks: not with --target-rse (the stopping rule needs every block)");
  if (s.csv || s.json) throw InputError("--blocks: a slice writes its state only; lbmc merge writes --csv and --json");
  s.slice = true;
}

// The state is written beside its target and renamed over it: the folder
// must be writable, and the target, if any, a regular file.
void check_checkpoint_target(const std::string& checkpoint) {
  const std::filesystem::path target(checkpoint);
  const std::filesystem::path folder = target.has_parent_path() ? target.parent_path() : ".";
  std::error_code ec;
  if (checkpoint == "-" || std::filesystem::is_directory(target, ec) ||
      (std::filesystem::exists(target, ec) && !std::filesystem::is_regular_file(target, ec)) ||
      ::access(folder.c_str(), W_OK) != 0) {
    throw InputError(fmt::format("--checkpoint '{}': cannot write a state file there", checkpoint));
  }
}

}  // namespace

RunOptions check_run_options(const RunOptionsText& text) {
  RunOptions s;
  check_replications(text, s.plan);
  if (!text.seed.empty()) {
    s.plan.seed = parse_seed(text.seed);
    s.seed_given = true;
  }
  s.plan.threads = check_threads(text.threads);
  s.level = parse_option("--level", text.level, engine::parse_real);
  if (!(s.level > 0.0 && s.level < 1.0)) throw InputError(fmt::format("--level: '{}' must be in (0,1)", text.level));
  s.z_tol = parse_option("--z-tol", text.z_tol, engine::parse_real);
  if (!(s.z_tol > 0.0)) throw InputError(fmt::format("--z-tol: '{}' must be > 0", text.z_tol));
  if (!text.csv.empty()) s.csv = text.csv;
  if (!text.json.empty()) s.json = text.json;
  if (s.csv == "-" && s.json == "-") throw InputError("--csv and --json cannot both be '-' (stdout)");
  s.plan.progress = check_progress(text.progress);
  if (text.max_memory.empty()) {
    s.memory_limit = engine::available_memory();
  } else {
    s.memory_limit = parse_option("--max-memory", text.max_memory, engine::parse_memory_size);
    s.memory_limit_given = true;
  }
  s.checkpoint_every = parse_option("--checkpoint-every", text.checkpoint_every, engine::parse_real);
  if (!(s.checkpoint_every >= 0.0)) {
    throw InputError(fmt::format("--checkpoint-every: '{}' must be >= 0", text.checkpoint_every));
  }
  if (!text.blocks.empty()) check_slice(text, s);
  s.checkpoint = text.checkpoint;
  require_distinct_outputs(s);
  if (!text.checkpoint.empty()) check_checkpoint_target(text.checkpoint);
  s.quiet = text.quiet;
  if (s.quiet) s.plan.progress = engine::ProgressMode::never;
  s.strict = text.strict;
  return s;
}

AppliedRun apply_run_options(RunOptions checked, const std::vector<engine::InputFile>& inputs) {
  if (!checked.seed_given) {
    std::random_device device;
    // Under MPI every rank runs rank 0's seed.
    checked.plan.seed = engine::cluster::root_value((std::uint64_t{device()} << 32) ^ device());
  }
  // The work after a run (sorting, distances) takes as many threads.
  omp_set_num_threads(checked.plan.threads);
  engine::RunJournal& journal = engine::RunJournal::get();
  journal.note_inputs(inputs);
  if (!checked.checkpoint.empty()) journal.record_to(checked.checkpoint, checked.checkpoint_every, checked.plan.seed);
  return AppliedRun(std::move(checked));
}

std::vector<engine::InputFile> input_files(const std::vector<dist::LoadLaw>& laws) {
  std::vector<engine::InputFile> files;
  for (const dist::LoadLaw& law : laws) {
    if (const auto file = dist::input_file(law)) engine::add_input(files, *file);
  }
  return files;
}

std::vector<dist::LoadLaw> parse_laws(const std::vector<std::string>& specs,
                                      const std::function<const char*(const dist::LoadLaw&)>& requirement) {
  std::vector<dist::LoadLaw> laws;
  for (const auto& spec : specs) {
    laws.push_back(parse_option("--dist", spec, dist::parse_load_law));
    parse_option("--dist", spec, [&](const std::string&) {
      dist::require_finite_variance(laws.back(), "every statistic of this command needs its mean and variance");
      return 0;
    });
    if (const char* why = requirement ? requirement(laws.back()) : nullptr) {
      throw InputError(fmt::format("--dist '{}': {}", spec, why));
    }
  }
  return laws;
}

void require_exact_integer_totals(const std::vector<dist::LoadLaw>& laws, const std::vector<std::int64_t>& ns) {
  constexpr double kExactIntegers = 0x1.0p53;
  const std::int64_t most = *std::max_element(ns.begin(), ns.end());
  for (const auto& law : laws) {
    if (!dist::is_integer_valued(law)) continue;
    // Bernstein's inequality for a sum of n Poisson or binomial loads (each
    // at most 1 above its mean per unit): P(T - n mu >= t) <= 1e-30 once
    // t >= 12 sqrt(n) sigma + 47; a constant's total is n V.
    const double n = static_cast<double>(most);
    const double total = std::min(n * dist::support_max(law),
                                  n * dist::mean(law) + 12.0 * std::sqrt(n) * dist::standard_deviation(law) + 47.0);
    if (!(total < kExactIntegers)) {
      throw InputError(fmt::format("--dist '{}' with --n {}: the total load could reach {:.3g}, beyond 2^53 where "
                                   "sums of integer loads stop being exact",
                                   dist::to_spec(law), most, total));
    }
  }
}

double quantile_store_bytes(const RunOptions& settings, int stores) {
  const std::int64_t most = settings.plan.target_rse ? std::max(settings.plan.max_reps, settings.plan.reps)
                                                      : settings.plan.reps;
  const double kept = std::min(static_cast<double>(most), static_cast<double>(engine::QuantileStore::kDefaultCap));
  return stores * 2.0 * 8.0 * kept;
}

void require_memory(const RunOptions& settings, double bytes, std::string_view what) {
  if (bytes <= settings.memory_limit) return;
  throw InputError(fmt::format("the run needs an estimated {} ({}), more than the {} {}",
                               engine::format_memory_size(bytes), what,
                               engine::format_memory_size(settings.memory_limit),
                               settings.memory_limit_given ? "of --max-memory"
                                                           : "this machine and the process's limits allow "
                                                             "(--max-memory sets a lower one)"));
}

std::vector<double> parse_levels(const char* option, const std::string& text) {
  const auto levels = parse_option(option, text, engine::parse_real_list);
  for (double a : levels) {
    if (!(a > 0.0 && a < 1.0)) throw InputError(fmt::format("{}: {} is not in (0,1)", option, a));
  }
  return levels;
}

std::vector<double> parse_costs(const char* option, const std::string& text) {
  const auto costs = parse_option(option, text, engine::parse_real_list);
  for (const double c : costs) {
    if (!(c >= 0.0 && c <= kMaxCost)) throw InputError(fmt::format("{}: {} is not in [0, 1e100]", option, c));
  }
  return costs;
}

double parse_cost(const char* option, const std::string& text) {
  const auto costs = parse_costs(option, text);
  if (costs.size() != 1) throw InputError(fmt::format("{}: '{}' is not one number", option, text));
  return costs.front();
}

void add_stream_options(OptionSet& options, StreamText& text, bool device) {
  options.text("--rng", text.rng,
               std::string("the blocks' stream: pcg64 (the default), or philox (Philox4x32-10, counter-based: the "
                             "stream a GPU runs") +
                   (device ? ", and the default under --device cuda)" : ")"));
  if (device) {
    options.text("--device", text.device,
                 "where the replications run: cpu, or cuda (a GPU: the same bytes as --device cpu --rng philox)")
        .show_default();
  }
}

void require_counter_stream_laws(const std::vector<dist::LoadLaw>& laws, const char* option) {
  for (const dist::LoadLaw& law : laws) {
    if (!dist::takes_counter_stream(law)) {
      throw InputError(fmt::format("{}: '{}' does not draw from the counter-based stream (laws that do: {})", option,
                                   dist::to_spec(law), dist::counter_stream_laws()));
    }
  }
}

void require_device(const std::vector<std::int64_t>& draws, const char* draws_name,
                    const std::function<std::size_t(std::int64_t)>& device_bytes) {
  std::size_t bytes = 0;
  for (const std::int64_t n : draws) {
    if (n > engine::kInterruptPollSpan) {
      throw InputError(fmt::format("--device cuda: {} {} is more than {}, the most draws a GPU thread makes for one "
                                   "replication",
                                   draws_name, n, engine::kInterruptPollSpan));
    }
    bytes = std::max(bytes, device_bytes(n));
  }
  engine::cuda::select_device();
  const std::size_t free = engine::cuda::free_memory();
  if (bytes > free) {
    throw InputError(fmt::format("--device cuda: the run needs an estimated {} of device memory, {} free",
                                 engine::format_memory_size(static_cast<double>(bytes)),
                                 engine::format_memory_size(static_cast<double>(free))));
  }
}

std::pair<engine::Stream, engine::Device> check_stream(const StreamText& text) {
  engine::Device device = engine::Device::cpu;
  if (text.device == "cuda") {
    device = engine::Device::cuda;
  } else if (text.device != "cpu") {
    throw InputError(fmt::format("--device: '{}' is not cpu or cuda", text.device));
  }
  if (text.rng.empty() || text.rng == "philox") {
    return {text.rng.empty() && device == engine::Device::cpu ? engine::Stream::pcg64 : engine::Stream::philox, device};
  }
  if (text.rng != "pcg64") throw InputError(fmt::format("--rng: '{}' is not pcg64 or philox", text.rng));
  if (device == engine::Device::cuda) {
    throw InputError("--device cuda: a GPU draws from the counter-based stream; give --rng philox or leave --rng out");
  }
  return {engine::Stream::pcg64, device};
}

engine::RunPlan make_plan(const AppliedRun& run, std::string label) {
  engine::RunPlan plan = run.options().plan;
  plan.label = std::move(label);
  return plan;
}

}  // namespace lbmc::exp
