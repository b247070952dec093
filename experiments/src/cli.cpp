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

#include <fmt/format.h>

#include "lbmc/dist/laws.hpp"
#include "lbmc/engine/build_info.hpp"
#include "lbmc/engine/cluster.hpp"
#include "lbmc/engine/errors.hpp"
#include "lbmc/engine/interrupt.hpp"
#include "lbmc/engine/run_journal.hpp"
#include "lbmc/exp/command.hpp"
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
  engine::install_interrupt_handler();
  return job->start();
}

}  // namespace

int run_cli(int argc, const char* const* argv, CliMode mode) {
  CLI::App app{"lbmc: Monte Carlo statistics of parallel load balancing, checked against closed forms"};
  app.name("lbmc");
  app.require_subcommand(1);
  app.set_version_flag("--version", engine::version_line());
  auto commands = make_commands();
  Subcommands subcommands;
  for (auto& command : commands) {
    CLI::App* sub = app.add_subcommand(command->name(), command->summary());
    // A repeated single-valued option takes its last value (list options say otherwise).
    sub->option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
    command->attach(*sub);
    help_from_tables(*sub, *command);
    subcommands.emplace_back(sub, command.get());
  }
  std::string prefix = "lbmc";
  // A failure's exit code and message; rank 0 prints the message of the
  // first rank that failed (engine/cluster.hpp), a single process its own.
  int code = 0;
  std::string failure;
  engine::RunJournal& journal = engine::RunJournal::get();
  if (!journal.restoring()) journal.reset();
  journal.set_arguments(std::vector<std::string>(argv + std::min(argc, 1), argv + argc));
  try {
    code = run_parsed(app, argc, argv, commands, subcommands, prefix, mode);
    if (mode == CliMode::run && (code == 0 || code == 1)) journal.finish();
  } catch (const engine::cluster::RemoteFailure& e) {
    code = e.code();
    failure = e.what();
  } catch (const engine::InputError& e) {
    code = 2;
    failure = fmt::format("{}: error: {}", prefix, e.what());
  } catch (const engine::Interrupted&) {
    code = 130;
    failure = fmt::format("{}: interrupted", prefix);
  } catch (const std::bad_alloc&) {
    code = 3;
    failure = fmt::format("{}: failed: out of memory (a smaller run, fewer --threads or a larger limit may fit)",
                          prefix);
  } catch (const std::length_error&) {
    code = 3;
    failure = fmt::format("{}: failed: out of memory (an array larger than the address space)", prefix);
  } catch (const std::exception& e) {
    code = 3;
    failure = fmt::format("{}: failed: {}", prefix, e.what());
  }
  // A checkpoint still being written when the command failed ends (whole,
  // or removed) before the process does.
  journal.settle();
  return engine::cluster::conclude(code, failure);
}

}  // namespace lbmc::exp
