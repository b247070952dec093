// Stored command lines, run again with their state.
#include "lbmc/exp/stored_run.hpp"

#include <algorithm>
#include <utility>

#include <fmt/format.h>

#include "lbmc/engine/build_info.hpp"
#include "lbmc/engine/errors.hpp"
#include "lbmc/engine/run_journal.hpp"
#include "lbmc/exp/command.hpp"

namespace lbmc::exp {
namespace {

// Ends the restored state's use whatever way the stored run ends.
struct RestoredState {
  RestoredState(engine::RunState state, bool extending) {
    engine::RunJournal::get().restore(std::move(state), extending);
  }
  ~RestoredState() { engine::RunJournal::get().reset(); }
  RestoredState(const RestoredState&) = delete;
  RestoredState& operator=(const RestoredState&) = delete;
};

}  // namespace

std::vector<std::string> without_option(const std::vector<std::string>& arguments, const std::string& option,
                                        bool flag) {
  std::vector<std::string> kept;
  for (std::size_t i = 0; i < arguments.size(); ++i) {
    if (arguments[i] == option) {
      if (!flag) ++i;  // its value
      continue;
    }
    if (!flag && arguments[i].rfind(option + "=", 0) == 0) continue;
    kept.push_back(arguments[i]);
  }
  return kept;
}

std::vector<std::string> with_option(std::vector<std::string> arguments, const std::string& option,
                                     const std::string& value) {
  if (value.empty()) return arguments;
  arguments = without_option(arguments, option);
  arguments.push_back(option);
  arguments.push_back(value);
  return arguments;
}

namespace {

// The value of `option` in `arguments` ("--option value" or "--option=value",
// the last one given), or empty.
std::string option_value(const std::vector<std::string>& arguments, const std::string& option) {
  std::string value;
  for (std::size_t i = 0; i < arguments.size(); ++i) {
    if (arguments[i] == option && i + 1 < arguments.size()) value = arguments[i + 1];
    if (arguments[i].rfind(option + "=", 0) == 0) value = arguments[i].substr(option.size() + 1);
  }
  return value;
}

}  // namespace

std::vector<std::string> with_overrides(std::vector<std::string> arguments, const StoredRunOverrides& overrides) {
  if (!overrides.device.empty()) {
    const std::vector<CommandSpec> commands = describe_commands();
    const auto stored = std::find_if(commands.begin(), commands.end(),
                                     [&](const CommandSpec& c) { return c.name == arguments.front(); });
    if (stored == commands.end() || std::none_of(stored->options.begin(), stored->options.end(),
                                                 [](const OptionSpec& o) { return o.name == "--device"; })) {
      throw engine::InputError(fmt::format("--device: the stored run, {}, runs on the CPU only", arguments.front()));
    }
    // The stored stream, as check_stream reads it: --rng, else philox on a GPU.
    std::string rng = option_value(arguments, "--rng");
    if (rng.empty()) rng = option_value(arguments, "--device") == "cuda" ? "philox" : "pcg64";
    if (overrides.device == "cuda" && rng == "pcg64") {
      throw engine::InputError("--device cuda: the stored run draws from pcg64, and a GPU draws from philox");
    }
    arguments = with_option(std::move(arguments), "--device", overrides.device);
    arguments = with_option(std::move(arguments), "--rng", rng);
  }
  arguments = with_option(std::move(arguments), "--threads", overrides.threads);
  arguments = with_option(std::move(arguments), "--csv", overrides.csv);
  arguments = with_option(std::move(arguments), "--json", overrides.json);
  arguments = with_option(std::move(arguments), "--progress", overrides.progress);
  if (overrides.quiet) {
    arguments = without_option(arguments, "--quiet", true);
    arguments.push_back("--quiet");
  }
  return arguments;
}

void add_overrides(OptionSet& options, StoredRunOverrides& overrides, bool stored) {
  const std::string by_default = stored ? " (default: as stored)" : "";
  options.text("--threads", overrides.threads, "OpenMP threads (default: all)");
  options.text("--csv", overrides.csv, "write tidy CSV to FILE, or - for stdout" + by_default);
  options.text("--json", overrides.json, "write JSON (rows and run metadata) to FILE, or - for stdout" + by_default);
  options.text("--progress", overrides.progress, "progress on stderr: auto|always|never");
  if (stored) {
    options.text("--device", overrides.device,
                 "cpu or cuda: where the replications still to run go (the same bytes on either; the run keeps its "
                 "stream) (default: as stored)");
  }
  options.flag("--quiet", overrides.quiet,
               "no seed, timing or progress lines on stderr (notes of references left out stay)");
}

engine::RunState read_stored_state(const std::string& path) {
  engine::RunState state = engine::read_run_state(path);
  if (state.version != engine::version_line()) {
    throw engine::InputError(
        fmt::format("state file '{}': written by {}, this is {}", path, state.version, engine::version_line()));
  }
  if (state.arguments.empty() || state.arguments.front() == "resume" || state.arguments.front() == "merge" ||
      state.arguments.front() == "extend") {
    throw engine::InputError(fmt::format("state file '{}': no command to run", path));
  }
  return state;
}

void StateFileArguments::attach(OptionSet& options, const std::string& help) {
  options.text("state", path, help).required();
  add_overrides(options, overrides, true);
}

int run_stored(engine::RunState state, std::vector<std::string> arguments, bool extending) {
  arguments.insert(arguments.begin(), "lbmc");
  const RestoredState restored(std::move(state), extending);
  std::vector<const char*> argv;
  for (const auto& a : arguments) argv.push_back(a.c_str());
  return run_cli(static_cast<int>(argv.size()), argv.data());
}

}  // namespace lbmc::exp
