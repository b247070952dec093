// `lbmc reproduce`: the committed results/ are what the code regenerates
// (fixed seeds), and every claim row follows the claims schema.
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <unistd.h>

namespace reproduce_test {

namespace fs = std::filesystem;

namespace {

std::string read_all(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

TEST_SUITE("fast") {
  TEST_CASE("reproduce: regenerated claims equal the committed results") {
    const fs::path out = fs::temp_directory_path() / ("lbmc_reproduce_test_" + std::to_string(::getpid()));
    const std::string cmd = std::string(LBMC_BINARY) + " reproduce all --quiet --out " + out.string() + " >/dev/null";
    REQUIRE(std::system(cmd.c_str()) == 0);
    for (const char* file : {"SUMMARY.md", "ERRATA.md"}) {
      CAPTURE(file);
      CHECK(read_all(out / file) == read_all(fs::path(LBMC_SOURCE_DIR) / "results" / file));
    }
    int papers = 0;
    for (const auto& entry : fs::directory_iterator(out)) {
      if (!entry.is_directory()) continue;
      const std::string paper = entry.path().filename().string();
      CAPTURE(paper);
      ++papers;
      for (const char* file : {"claims.csv", "claims.md"}) {
        CAPTURE(file);
        const fs::path committed = fs::path(LBMC_SOURCE_DIR) / "results" / paper / file;
        REQUIRE(fs::exists(committed));
        CHECK(read_all(entry.path() / file) == read_all(committed));
      }
      const std::string csv = read_all(entry.path() / "claims.csv");
      CHECK(csv.rfind("paper,claim,location,printed,exact,mc,mc_se,verdict,note\n", 0) == 0);
      std::istringstream lines(csv);
      std::string line;
      std::getline(lines, line);
      while (std::getline(lines, line)) {
        CAPTURE(line);
        const bool has_verdict = line.find(",reproduced,") != std::string::npos ||
                                 line.find(",rounding,") != std::string::npos ||
                                 line.find(",asymptotic-only,") != std::string::npos ||
                                 line.find(",differs,") != std::string::npos;
        CHECK(has_verdict);
      }
    }
    CHECK(papers >= 1);
    fs::remove_all(out);
  }
}

}  // namespace reproduce_test
