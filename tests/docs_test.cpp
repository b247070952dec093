// The documentation as files: every relative link of every Markdown file of
// the tree (README, CONTRIBUTING, CHANGELOG, docs/, results/, bench/)
// resolves to a file that exists, and a link to a heading (#anchor) names a
// heading of its target, by GitHub's rule for heading ids; every page of
// docs/ is reachable from README.md. The reference pages agree with the
// program: each command's page (docs/commands/) and man page name every
// option of its --help, and no option it does not have; the console
// examples of README and docs/ run and print what they show.
#include <doctest/doctest.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <sys/wait.h>

#include "lbmc/dist/samplers.hpp"
#include "sanitizer.hpp"
#include "support/files.hpp"

namespace docs_test {

namespace fs = std::filesystem;

namespace {

const fs::path kRoot = LBMC_SOURCE_DIR;

std::vector<std::string> lines_of(const fs::path& file) {
  std::ifstream in(file);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The lines outside fenced code blocks.
std::vector<std::string> prose_lines(const fs::path& file) {
  std::vector<std::string> prose;
  bool fenced = false;
  for (const std::string& line : lines_of(file)) {
    if (line.rfind("```", 0) == 0) {
      fenced = !fenced;
      continue;
    }
    if (!fenced) prose.push_back(line);
  }
  return prose;
}

// GitHub's id of a heading: lower case, punctuation but '-' and '_' dropped,
// spaces made '-'; bytes past ASCII (letters of other scripts) kept.
std::string heading_id(const std::string& heading) {
  std::string id;
  for (const char c : heading) {
    const auto u = static_cast<unsigned char>(c);
    if (u >= 0x80 || std::isalnum(u) || c == '-' || c == '_') {
      id += static_cast<char>(u < 0x80 ? std::tolower(u) : u);
    } else if (c == ' ') {
      id += '-';
    }
  }
  return id;
}

std::set<std::string> heading_ids(const fs::path& file) {
  std::set<std::string> ids;
  for (const std::string& line : prose_lines(file)) {
    const auto hashes = line.find_first_not_of('#');
    if (hashes == 0 || hashes == std::string::npos || line[hashes] != ' ') continue;
    ids.insert(heading_id(line.substr(hashes + 1)));
  }
  return ids;
}

std::vector<fs::path> markdown_files() {
  std::vector<fs::path> files;
  for (const char* top : {"README.md", "CONTRIBUTING.md", "CHANGELOG.md"}) {
    if (fs::exists(kRoot / top)) files.push_back(kRoot / top);
  }
  for (const char* folder : {"docs", "results", "bench"}) {
    for (const auto& entry : fs::recursive_directory_iterator(kRoot / folder)) {
      if (entry.path().extension() == ".md") files.push_back(entry.path());
    }
  }
  return files;
}

// The targets of the inline links [text](target) of a file's prose.
std::vector<std::string> link_targets(const fs::path& file) {
  static const std::regex link(R"(\]\(([^()\s]+)\))");
  std::vector<std::string> targets;
  for (const std::string& line : prose_lines(file)) {
    for (std::sregex_iterator m(line.begin(), line.end(), link), end; m != end; ++m) targets.push_back((*m)[1]);
  }
  return targets;
}

// The long options of `lbmc command --help` (each "--name" that starts an
// option's line).
std::set<std::string> help_options(const std::string& command) {
  static const std::regex option_line(R"(^\s+(?:-\w,)?(--[A-Za-z0-9-]+))");
  const fs::path scratch = lbmc::test::scratch_folder("docs_test");
  const lbmc::test::Captured help = lbmc::test::LbmcRunner{scratch}(command + " --help");
  std::set<std::string> options;
  std::istringstream lines(help.out);
  for (std::string line; std::getline(lines, line);) {
    std::smatch m;
    if (std::regex_search(line, m, option_line)) options.insert(m[1]);
  }
  return options;
}

// The commands `lbmc --help` lists.
std::vector<std::string> commands() {
  const lbmc::test::Captured help = lbmc::test::LbmcRunner{lbmc::test::scratch_folder("docs_test")}("--help");
  std::vector<std::string> names;
  std::istringstream lines(help.out);
  bool listing = false;
  for (std::string line; std::getline(lines, line);) {
    if (line == "Subcommands:") {
      listing = true;
    } else if (listing && !line.empty()) {
      names.push_back(line.substr(2, line.find(' ', 2) - 2));
    }
  }
  return names;
}

// The options `text` names by `pattern` (its first group).
std::set<std::string> named_options(const std::string& text, const std::regex& pattern) {
  std::set<std::string> options;
  for (std::sregex_iterator m(text.begin(), text.end(), pattern), end; m != end; ++m) options.insert((*m)[1]);
  return options;
}

bool external(const std::string& target) {
  return target.rfind("http://", 0) == 0 || target.rfind("https://", 0) == 0 || target.rfind("mailto:", 0) == 0;
}

}  // namespace

TEST_SUITE("fast") {
  TEST_CASE("docs: every relative link resolves - to a file and to a heading of it") {
    std::size_t checked = 0;
    for (const fs::path& file : markdown_files()) {
      for (const std::string& target : link_targets(file)) {
        if (external(target)) continue;
        CAPTURE(file.lexically_relative(kRoot).string());
        CAPTURE(target);
        const auto hash = target.find('#');
        const std::string path = target.substr(0, hash);
        const fs::path resolved = path.empty() ? file : (file.parent_path() / path).lexically_normal();
        CHECK(fs::exists(resolved));
        if (hash != std::string::npos && resolved.extension() == ".md" && fs::exists(resolved)) {
          CHECK(heading_ids(resolved).count(target.substr(hash + 1)) == 1);
        }
        ++checked;
      }
    }
    CHECK(checked > 30);  // the scan finds links at all
  }

  TEST_CASE("docs: every page of docs/ is reachable from README.md") {
    std::set<fs::path> reached;
    std::vector<fs::path> queue{kRoot / "README.md"};
    while (!queue.empty()) {
      const fs::path file = queue.back();
      queue.pop_back();
      if (!reached.insert(file).second) continue;
      for (const std::string& target : link_targets(file)) {
        if (external(target)) continue;
        const fs::path next = (file.parent_path() / target.substr(0, target.find('#'))).lexically_normal();
        if (next.extension() == ".md" && fs::exists(next)) queue.push_back(next);
      }
    }
    for (const auto& entry : fs::recursive_directory_iterator(kRoot / "docs")) {
      if (entry.path().extension() != ".md") continue;
      CAPTURE(entry.path().lexically_relative(kRoot).string());
      CHECK(reached.count(entry.path().lexically_normal()) == 1);
    }
  }

  TEST_CASE("docs: each command's page names every option of its --help - and none it lacks") {
    // The common options are described once, on the topic pages (the
    // guide, output, checkpoints, cluster runs); a page's own option names
    // are code spans that start with the option.
    std::string common;
    for (const char* topic : {"guide.md", "output.md", "checkpoints.md", "cluster.md"}) {
      common += lbmc::test::slurp(kRoot / "docs" / topic);
    }
    const std::regex code_option(R"(`(--[A-Za-z0-9-]+))");
    for (const std::string& command : commands()) {
      const fs::path page = kRoot / "docs" / "commands" / (command + ".md");
      if (!fs::exists(page)) continue;  // reproduce, resume, extend, merge: docs/papers.md, docs/checkpoints.md
      CAPTURE(command);
      const std::string text = lbmc::test::slurp(page);
      const std::set<std::string> options = help_options(command);
      CHECK(options.count("--help") == 1);
      for (const std::string& option : options) {
        CAPTURE(option);
        CHECK((option == "--help" || text.find(option) != std::string::npos || common.find(option) != std::string::npos));
      }
      for (const std::string& option : named_options(text, code_option)) {
        CAPTURE(option);
        CHECK(options.count(option) == 1);
      }
    }
  }

#ifdef LBMC_MAN_DIR
  TEST_CASE("docs: each command's man page shows the options of its --help") {
    const std::regex option_name(R"((--[A-Za-z0-9-]+))");
    const std::vector<std::string> names = commands();
    CHECK(names.size() >= 12);
    CHECK(fs::exists(fs::path(LBMC_MAN_DIR) / "lbmc.1"));
    for (const std::string& command : names) {
      CAPTURE(command);
      // roff writes each '-' of an option as "\-".
      const std::string page = std::regex_replace(
          lbmc::test::slurp(fs::path(LBMC_MAN_DIR) / ("lbmc-" + command + ".1")), std::regex(R"(\\-)"), "-");
      REQUIRE_FALSE(page.empty());
      const std::set<std::string> shown = named_options(page, option_name);
      const std::set<std::string> options = help_options(command);
      for (const std::string& option : options) {
        CAPTURE(option);
        CHECK(shown.count(option) == 1);
      }
    }
  }
#endif

  TEST_CASE("docs: the bash completion offers the commands - their options and the law names") {
    const fs::path scratch = lbmc::test::scratch_folder("docs_test");
    // COMPREPLY for the words typed so far, the last one being completed.
    const auto complete = [&](const std::string& words) {
      const std::string script = "source " + std::string(LBMC_COMPLETION) + "; COMP_WORDS=(" + words +
                                 "); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _lbmc 2>/dev/null; "
                                 "echo \"${COMPREPLY[*]}\"";
      std::ofstream(scratch / "complete.sh") << script << "\n";
      return lbmc::test::run_captured("bash " + (scratch / "complete.sh").string(), scratch).out;
    };
    CHECK(complete("lbmc max") == "maxload maxshift\n");
    CHECK(complete("lbmc compare --str") == "--strategy --strict\n");
    CHECK(complete("lbmc maxload --dist po") == "poisson:\n");
    CHECK(complete("lbmc dynamic --r-dist mi") == "mix:\n");
    CHECK(complete("lbmc assign --sol") == "--solve-P\n");
  }

  TEST_CASE("docs: the console examples of README and docs/ run - and print the lines they show") {
    // Each "$ COMMAND" of a console block runs in a scratch folder holding
    // times.txt (scripts/example_times.sh), lbmc being the built binary and
    // mpirun the MPI launcher; the lines shown under it ("..." skips) must
    // appear in what it prints (stdout and stderr), in their order.
    const fs::path scratch = lbmc::test::scratch_folder("docs_examples");
    REQUIRE(lbmc::test::shell((kRoot / "scripts" / "example_times.sh").string() + " > " +
                              (scratch / "times.txt").string()) == 0);
    struct Example {
      std::string command;
      std::vector<std::string> shown;
    };
    std::vector<Example> examples;
    for (const fs::path& file : markdown_files()) {
      if (file.parent_path() != kRoot && file.string().find("/docs/") == std::string::npos) continue;
      bool console = false;
      for (const std::string& line : lines_of(file)) {
        if (line.rfind("```", 0) == 0) {
          console = line == "```console";
        } else if (console && line.rfind("$ ", 0) == 0) {
          examples.push_back({line.substr(2), {}});
        } else if (console && !examples.empty() && line.find("...") == std::string::npos) {
          examples.back().shown.push_back(line);
        }
      }
    }
    CHECK(examples.size() >= 8);
    for (Example& example : examples) {
      CAPTURE(example.command);
      std::string command = example.command;
      if (command.rfind("mpirun ", 0) == 0) {
        // Under ASan, Open MPI's own allocations would be reported as leaks;
        // the mpi tests, which sanitized runs leave out, cover the launch.
        if (kAddressSanitizer) continue;
#ifdef LBMC_MPIEXEC
        command = "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 " + std::string(LBMC_MPIEXEC) +
                  " -q --oversubscribe --bind-to none" + command.substr(6);
#else
        continue;
#endif
      }
      command = std::regex_replace(command, std::regex(R"((^| )lbmc )"), "$1" + std::string(LBMC_BINARY) + " ");
      const fs::path out = scratch / "printed.txt";
      const int status =
          std::system(("cd " + scratch.string() + " && { " + command + "; } >" + out.string() + " 2>&1").c_str());
      CHECK(WIFEXITED(status));
      CHECK(WEXITSTATUS(status) == 0);
      std::istringstream printed(lbmc::test::slurp(out));
      std::string line;
      for (const std::string& shown : example.shown) {
        CAPTURE(shown);
        bool found = false;
        while (!found && std::getline(printed, line)) found = line == shown;
        CHECK(found);
      }
    }
  }

  TEST_CASE("docs: the reproducibility page lists the laws the counter-based stream takes") {
    // The one place in docs/ that lists them; the command pages link to it.
    std::string text = lbmc::test::slurp(kRoot / "docs" / "reproducibility.md");
    std::replace(text.begin(), text.end(), '\n', ' ');
    CHECK(text.find(lbmc::dist::counter_stream_laws() + ";") != std::string::npos);
  }

  TEST_CASE("docs: heading ids follow GitHub's rule") {
    CHECK(heading_id("Which decomposition?") == "which-decomposition");
    CHECK(heading_id("`lbmc maxload`") == "lbmc-maxload");
    CHECK(heading_id("Measured task times: `empirical:FILE`") == "measured-task-times-empiricalfile");
  }
}

}  // namespace docs_test
