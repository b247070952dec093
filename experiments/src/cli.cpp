// The lbmc command line: subcommands, error reporting and exit codes.
#include <algorithm>
#include <cstdio>
#include <exception>

#include <fmt/format.h>

#include "lbmc/engine/build_info.hpp"
#include "lbmc/engine/errors.hpp"
#include "lbmc/engine/interrupt.hpp"
#include "lbmc/exp/command.hpp"
#include "lbmc/exp/report.hpp"

namespace lbmc::exp {

namespace {

CliMode current_mode = CliMode::run;

// Ends a command under CliMode::check_only once its options are checked.
struct OptionsChecked {};

}  // namespace

void options_checked() {
  if (current_mode == CliMode::check_only) throw OptionsChecked{};
}

int run_cli(int argc, const char* const* argv, CliMode mode) {
  current_mode = mode;
  CLI::App app{"lbmc: Monte Carlo statistics of parallel load balancing, checked against closed forms"};
  app.name("lbmc");
  app.require_subcommand(1);
  app.set_version_flag("--version", engine::version_line());
  auto commands = make_commands();
  std::vector<std::pair<CLI::App*, Command*>> subcommands;
  for (auto& command : commands) {
    CLI::App* sub = app.add_subcommand(command->name(), command->summary());
    // A repeated single-valued option takes its last value (list options say otherwise).
    sub->option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
    command->attach(*sub);
    subcommands.emplace_back(sub, command.get());
  }
  std::string prefix = "lbmc";
  try {
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
      for (auto& [sub, command] : subcommands) {
        if (sub->parsed()) prefix = std::string("lbmc ") + command->name();
      }
      throw engine::InputError(e.what());
    }
    engine::install_interrupt_handler();
    const std::string command_line = join_command_line(argc, argv);
    for (auto& [sub, command] : subcommands) {
      if (sub->parsed()) {
        prefix = std::string("lbmc ") + command->name();
        return command->run(command_line);
      }
    }
    throw engine::InputError("no command given (see lbmc --help)");
  } catch (const OptionsChecked&) {
    return 0;
  } catch (const engine::InputError& e) {
    std::fprintf(stderr, "%s: error: %s\n", prefix.c_str(), e.what());
    return 2;
  } catch (const engine::Interrupted&) {
    std::fprintf(stderr, "%s: interrupted\n", prefix.c_str());
    return 130;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: failed: %s\n", prefix.c_str(), e.what());
    return 3;
  }
}

}  // namespace lbmc::exp
