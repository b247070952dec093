// The lbmc command line: subcommands, error reporting and exit codes.
#include <algorithm>
#include <cstdio>
#include <exception>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "lbmc/dist/laws.hpp"
#include "lbmc/engine/build_info.hpp"
#include "lbmc/engine/cluster.hpp"
#include "lbmc/engine/embedding.hpp"
#include "lbmc/engine/errors.hpp"
#include "lbmc/engine/interrupt.hpp"
#include "lbmc/engine/run_journal.hpp"
#include "lbmc/exp/command.hpp"
#include "lbmc/exp/option_set.hpp"
#include "lbmc/exp/report.hpp"

namespace lbmc::exp {

namespace {

using Subcommands = std::vector<std::pair<CLI::App*, Command*>>;

// The help a command's tables give: its statistics before its footer, and
// the law table after it when an option takes laws (--dist, --r-dist, ...).
void help_from_tables(CLI::App& sub, const Command& command) {
  std::string footer = sub.get_footer();
  if (!command.statistics().empty()) footer = engine::statistics_help(command.statistics()) + footer;
  const auto options = sub.get_options([](const CLI::Option* o) {
    const std::string& name = o->get_name();
    return name.size() >= 6 && name.compare(name.size() - 4, 4, "dist") == 0;
  });
  if (!options.empty()) {
    if (!footer.empty() && footer.back() != '\n') footer += '\n';
    footer += dist::law_ranges_help();
  }
  sub.footer(footer);
}

// Parses the command line, checks the command it names and, unless `mode`
// only checks, runs its job; `prefix` becomes "lbmc COMMAND" once the
// command is known (for the error line).
int run_parsed(CLI::App& app, int argc, const char* const* argv,
               const std::vector<std::unique_ptr<Command>>& commands, const Subcommands& subcommands,
               std::string& prefix, CliMode mode) {
  if (argc > 1 && argv[1][0] != '-' &&
      std::none_of(commands.begin(), commands.end(), [&](const auto& c) { return c->name() == std::string(argv[1]); })) {
    std::string names;
    for (const auto& c : commands) names += names.empty() ? c->name() : std::string(", ") + c->name();
    throw engine::InputError(fmt::format("unknown command '{}' (commands: {})", argv[1], names));
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    // App::help() shows the selected subcommand's help when there is one.
    std::fputs(app.help().c_str(), stdout);
    return 0;
  } catch (const CLI::CallForAllHelp&) {
    std::fputs(app.help("", CLI::AppFormatMode::All).c_str(), stdout);
    return 0;
  } catch (const CLI::CallForVersion&) {
    std::fputs((app.version() + "\n").c_str(), stdout);
    return 0;
  } catch (const CLI::ParseError& e) {
    for (const auto& [sub, command] : subcommands) {
      if (sub->parsed()) prefix = std::string("lbmc ") + command->name();
    }
    throw engine::InputError(e.what());
  }
  const auto parsed = std::find_if(subcommands.begin(), subcommands.end(), [](const auto& s) { return s.first->parsed(); });
  if (parsed == subcommands.end()) throw engine::InputError("no command given (see lbmc --help)");
  Command& command = *parsed->second;
  prefix = std::string("lbmc ") + command.name();
  const std::unique_ptr<CheckedCommand> job = command.check(join_command_line(argc, argv));
  engine::RunJournal::get().check_restored_inputs(job->inputs());
  // A check runs nothing that a signal should stop, and the process hosting
  // it keeps its own handlers.
  if (mode == CliMode::check_only) return 0;
  if (engine::current_embedding() == nullptr) engine::install_interrupt_handler();
  return job->start();
}

// The parser of every command in `commands`, each subcommand beside its command.
Subcommands declare_commands(CLI::App& app, const std::vector<std::unique_ptr<Command>>& commands) {
  app.name("lbmc");
  app.require_subcommand(1);
  app.set_version_flag("--version", engine::version_line());
  Subcommands subcommands;
  for (const auto& command : commands) {
    CLI::App* sub = app.add_subcommand(command->name(), command->summary());
    OptionSet options(*sub);
    command->attach(options);
    help_from_tables(*sub, *command);
    subcommands.emplace_back(sub, command.get());
  }
  return subcommands;
}

constexpr const char* kDescription =
    "lbmc: Monte Carlo statistics of parallel load balancing, checked against closed forms";

// Every step of run_cli but the last exchange: the outcome to conclude.
CliOutcome run_to_outcome(int argc, const char* const* argv, CliMode mode) {
  CLI::App app{kDescription};
  const auto commands = make_commands();
  const Subcommands subcommands = declare_commands(app, commands);
  std::string prefix = "lbmc";
  using Failure = CliOutcome::Failure;
  CliOutcome outcome;
  const auto fail = [&](int code, Failure failure, std::string message) {
    outcome = {code, failure, std::move(message)};
  };
  engine::RunJournal& journal = engine::RunJournal::get();
  if (!journal.restoring()) journal.reset();
  journal.set_arguments(std::vector<std::string>(argv + std::min(argc, 1), argv + argc));
  try {
    outcome.code = run_parsed(app, argc, argv, commands, subcommands, prefix, mode);
    if (mode == CliMode::run && (outcome.code == 0 || outcome.code == 1)) journal.finish();
  } catch (const engine::cluster::RemoteFailure& e) {
    fail(e.code(), Failure::remote, e.what());
  } catch (const engine::InputError& e) {
    fail(2, Failure::bad_input, fmt::format("{}: error: {}", prefix, e.what()));
  } catch (const engine::Interrupted&) {
    fail(130, Failure::interrupted, fmt::format("{}: interrupted", prefix));
  } catch (const std::bad_alloc&) {
    fail(3, Failure::out_of_memory,
         fmt::format("{}: failed: out of memory (a smaller run, fewer --threads or a larger limit may fit)", prefix));
  } catch (const std::length_error&) {
    fail(3, Failure::out_of_memory,
         fmt::format("{}: failed: out of memory (an array larger than the address space)", prefix));
  } catch (const std::exception& e) {
    fail(3, Failure::runtime, fmt::format("{}: failed: {}", prefix, e.what()));
  }
  // A checkpoint still being written when the command failed ends (whole,
  // or removed) before the command does.
  journal.settle();
  return outcome;
}

}  // namespace

int run_cli(int argc, const char* const* argv, CliMode mode) {
  // A failure's exit code and message; rank 0 prints the message of the
  // first rank that failed (engine/cluster.hpp), a single process its own.
  const CliOutcome outcome = run_to_outcome(argc, argv, mode);
  return engine::cluster::conclude(outcome.code, outcome.message);
}

std::vector<CommandSpec> describe_commands() {
  CLI::App app{kDescription};
  const auto commands = make_commands();
  std::vector<CommandSpec> specs;
  for (const auto& [sub, command] : declare_commands(app, commands)) {
    CommandSpec spec{command->name(), command->summary(), sub->help("lbmc"), {}};
    for (const CLI::Option* option : sub->get_options()) {
      const bool positional = !option->nonpositional();
      if (!positional && option->get_lnames().empty()) continue;  // -h alone
      if (!positional && option->get_lnames().front() == "help") continue;
      OptionSpec o;
      o.name = positional ? option->get_name() : "--" + option->get_lnames().front();
      o.positional = positional;
      o.flag = option->get_expected_max() == 0;
      o.several = option->get_multi_option_policy() == CLI::MultiOptionPolicy::TakeAll ||
                  option->get_expected_max() > 1;
      o.help = option->get_description();
      spec.options.push_back(std::move(o));
    }
    specs.push_back(std::move(spec));
  }
  return specs;
}

CliOutcome run_embedded(const std::vector<std::string>& arguments) {
  std::vector<const char*> argv{"lbmc"};
  for (const std::string& a : arguments) argv.push_back(a.c_str());
  return run_to_outcome(static_cast<int>(argv.size()), argv.data(), CliMode::run);
}

}  // namespace lbmc::exp
