// The lbmc executable end to end: bad input (exit 2, one line, no file),
// output formats, and byte-identical CSV for any thread count.
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>
#include <omp.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lbmc/engine/run_journal.hpp"
#include "lbmc/exp/command.hpp"
#include "sanitizer.hpp"
#include "support/files.hpp"

namespace cli_test {

namespace fs = std::filesystem;

namespace {

using Outcome = lbmc::test::Captured;
using lbmc::test::slurp;

// A scratch folder per test run.
const fs::path& scratch() {
  static const fs::path dir = lbmc::test::scratch_folder("cli_test");
  return dir;
}

// lbmc with `args`, under an address-space limit of `limit_kib` KiB when given.
Outcome run_lbmc(const std::string& args, long limit_kib = 0) {
  const std::string limit = limit_kib > 0 ? "ulimit -v " + std::to_string(limit_kib) + "; " : "";
  return lbmc::test::run_captured(limit + LBMC_BINARY + " " + args, scratch());
}

std::size_t count_lines(const std::string& text) {
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

}  // namespace

TEST_SUITE("fast") {
  TEST_CASE("cli: bad input gives one line on stderr and exit 2 and no file") {
    const fs::path target = scratch() / "never.csv";
    const std::string out = " --csv " + target.string() + " --json " + (scratch() / "never.json").string();
    const char* cases[][2] = {
        {"maxload --n 0", "--n"},
        {"maxload --n -5", "--n"},
        {"maxload --n 16,,64", "--n"},
        {"maxload --n 16:4:*2", "--n"},
        {"maxload --n abc", "--n"},
        {"maxload --dist normal:0,0", "--dist"},
        {"maxload --dist normal:0,-1", "--dist"},
        {"maxload --dist normal:0", "--dist"},
        {"maxload --dist binomial:10,1.5", "--dist"},
        {"maxload --dist binomial:10,-0.1", "--dist"},
        {"maxload --dist binomial:-3,0.5", "--dist"},
        {"maxload --dist binomial:2.5,0.5", "--dist"},
        {"maxload --dist poisson:-1", "--dist"},
        {"maxload --dist exponential:0", "--dist"},
        {"maxload --dist uniform:1,1", "--dist"},
        {"maxload --dist cauchy:0,1", "--dist"},
        {"maxload --dist pareto:2,1", "--dist"},
        {"scatter --dist empirical:/nonexistent", "--dist"},
        {"maxload --dist normal", "--dist"},
        {"maxload --reps 0", "--reps"},
        {"maxload --reps 1.5", "--reps"},
        {"maxload --reps lots", "--reps"},
        {"maxload --alpha 1", "--alpha"},
        {"maxload --alpha 0", "--alpha"},
        {"maxload --alpha 0.5,1.2", "--alpha"},
        {"maxload --level 1.5", "--level"},
        {"maxload --threads 0", "--threads"},
        {"maxload --seed -1", "--seed"},
        {"maxload --seed 18446744073709551616", "--seed"},
        {"maxload --seed 1.5", "--seed"},
        {"maxload --target-rse -0.1", "--target-rse"},
        {"maxload --progress sometimes", "--progress"},
        {"maxload --frobnicate", "frobnicate"},
        {"maxload --method fast", "--method"},
        {"maxshift --n 1", "--n"},
        {"maxshift --dist constant:3", "--dist"},
        {"maxshift --dist poisson:0", "--dist"},
        {"maxshift --alpha 2", "--alpha"},
        {"maxshift --cov /nonexistent-dir/cov.csv", "--cov"},
        {"maxshift --cov /dev/null --n 100000", "--cov"},
        {"nosuchcommand", "nosuchcommand"},
        {"scatter --tasks 0", "--tasks"},
        {"scatter --tasks 10,,20", "--tasks"},
        {"scatter --procs 0", "--procs"},
        {"scatter --procs x", "--procs"},
        {"scatter --confidence 1", "--confidence"},
        {"scatter --confidence 0", "--confidence"},
        {"scatter --dist normal:0,1", "--dist"},
        {"scatter --dist uniform:-2,1", "--dist"},
        {"scatter --dist constant:0", "--dist"},
        {"scatter --dist exponential:0", "--dist"},
        {"scatter --reps 0", "--reps"},
        {"assign --N 0", "--N"},
        {"assign --P 0", "--P"},
        {"assign --P 10 --group 3", "--group"},
        {"assign --group 0", "--group"},
        {"assign --model other", "--model"},
        {"assign --N 1e18 --P 2", "2^53"},
        {"dynamic --p 2 --kappa 1e100", "2^31"},
        {"assign --model poisson --N 1e18 --P 2", "poisson:LAMBDA"},
        {"assign --model multinomial,poisson --N 2e10 --P 1", "poisson:LAMBDA"},
        {"assign --solve-P --lambda 0", "--lambda"},
        {"assign --solve-P --lambda 2e10", "--lambda"},
        {"assign --solve-P --target 1.5", "--target"},
        {"dynamic --p 0", "--p"},
        {"dynamic --lambda -1", "--lambda"},
        {"dynamic --model deterministic --nu 0.5", "--nu"},
        {"dynamic --model deterministic --nu 2.5", "--nu"},
        {"dynamic --model other", "--model"},
        {"dynamic --levels 2 --fanout 4,4,4", "--fanout"},
        {"dynamic --levels 2 --p 8", "--fanout"},
        {"dynamic --levels 0", "--levels"},
        {"dynamic --fanout 4,4 --levels 2 --p 8", "--fanout"},
        {"dynamic --lemma1 --isoefficiency --p 4", "--lemma1 and --isoefficiency: give one of them"},
        {"dynamic --t1 0", "--t1"},
        {"dynamic --kappa -1", "--kappa"},
        {"dynamic --r-dist normal:1,1", "--r-dist"},
        {"dynamic --u-dist uniform:-1,1", "--u-dist"},
        {"dynamic --optimize-nu --lambda inf", "--lambda"},
        {"dynamic --isoefficiency --eta0 1", "--eta0"},
        {"rebalance --n 0", "--n"},
        {"rebalance --tau -1", "--tau"},
        {"rebalance --phi x", "--phi"},
        {"rebalance --tau 1e300 --phi 1e300", "--tau"},
        {"rebalance --approach 5", "--approach"},
        {"rebalance --approach 1,,bdm", "--approach"},
        {"rebalance --dist normal:0,1", "--dist"},
        {"rebalance --dist constant:2.5", "--dist"},
        {"rebalance --example cm6", "--example"},
        {"rebalance --alpha 1", "--alpha"},
        {"rebalance --remainder last", "--remainder"},
        // Parameters whose moments or range overflow, or whose spread is lost
        // to rounding: refused by one rule for every command.
        {"maxload --dist normal:1e308,1e308", "--dist"},
        {"maxload --dist uniform:-1e308,1e308", "--dist"},
        {"maxload --dist normal:0,1e-300", "--dist"},
        {"maxshift --dist normal:0,1e-300", "--dist"},
        {"maxload --dist normal:1e9,1e-3", "--dist"},
        {"maxload --dist uniform:1,1.0000000001", "--dist"},
        {"maxload --dist exponential:1e-300", "--dist"},
        {"maxload --dist constant:1e101", "--dist"},
        {"scatter --dist exponential:1e200", "--dist"},
        {"maxload --dist poisson:1.1e10", "--dist"},
        // Integer totals beyond 2^53 would stop being exact.
        {"maxshift --dist poisson:1e10 --n 1e6", "--dist"},
        {"rebalance --dist binomial:9007199254740992,0.5 --n 4", "--dist"},
        {"rebalance --dist constant:1e100 --n 2", "--dist"},
        // Checkpoints and slices.
        {"maxload --checkpoint /nonexistent-dir/x.state", "--checkpoint"},
        {"maxload --checkpoint /tmp", "--checkpoint"},
        {"maxload --checkpoint-every -1", "--checkpoint-every"},
        {"maxload --blocks 0:4", "--blocks"},
        {"maxload --blocks 4 --checkpoint /tmp/lbmc-never.state", "--blocks"},
        {"maxload --blocks 0:0 --checkpoint /tmp/lbmc-never.state", "--blocks"},
        {"maxload --blocks 0:4 --target-rse 0.1 --checkpoint /tmp/lbmc-never.state", "--blocks"},
    };
    for (const auto& [args, option] : cases) {
      CAPTURE(args);
      const Outcome r = run_lbmc(std::string(args) + " --quiet" + out);
      CHECK(r.code == 2);
      CHECK(count_lines(r.err) == 1);
      CHECK(r.err.find(option) != std::string::npos);
      CHECK(r.out.empty());
      CHECK_FALSE(fs::exists(target));
      CHECK_FALSE(fs::exists(scratch() / "never.json"));
    }
  }

  TEST_CASE("cli: reproduce rejects unknown papers and unwritable folders") {
    const char* cases[][2] = {{"reproduce nosuchpaper", "nosuchpaper"},
                              {"reproduce all --out /proc/version", "--out"},
                              {"reproduce all --seed x", "--seed"}};
    for (const auto& [args, option] : cases) {
      CAPTURE(args);
      const Outcome r = run_lbmc(std::string(args) + " --quiet");
      CHECK(r.code == 2);
      CHECK(count_lines(r.err) == 1);
      CHECK(r.err.find(option) != std::string::npos);
      CHECK(r.out.empty());
    }
  }

  TEST_CASE("cli: --quiet keeps the notes of references left out - and only them") {
    // N/P past the Poisson model's range: its reference is left out of the
    // rows, which a note on stderr says even under --quiet.
    const Outcome noted = run_lbmc("assign --N 9e15 --P 2 --reps 10 --seed 1 --quiet --csv -");
    CHECK(noted.code == 0);
    CHECK(count_lines(noted.err) == 1);
    CHECK(noted.err.find("note: ") != std::string::npos);
    CHECK(noted.err.find("poisson-model unavailable") != std::string::npos);
    CHECK(noted.out.find("poisson-model") == std::string::npos);
    // Nothing left out: nothing on stderr.
    const Outcome silent = run_lbmc("assign --N 100 --P 2 --reps 10 --seed 1 --quiet --csv -");
    CHECK(silent.code == 0);
    CHECK(silent.err.empty());
  }

  TEST_CASE("cli: unwritable output paths fail before running and leave nothing") {
    for (const std::string& path : std::vector<std::string>{"/nonexistent-dir/x.csv", "/proc/version", scratch().string()}) {
      CAPTURE(path);
      const Outcome r = run_lbmc("maxload --n 4 --reps 10 --quiet --csv " + path);
      CHECK(r.code == 2);
      CHECK(count_lines(r.err) == 1);
      CHECK(r.err.find("--csv") != std::string::npos);
    }
    // An existing file is not truncated by a run that fails on bad input.
    const fs::path keep = scratch() / "keep.csv";
    std::ofstream(keep) << "precious\n";
    const Outcome r = run_lbmc("maxload --n 0 --quiet --csv " + keep.string());
    CHECK(r.code == 2);
    CHECK(slurp(keep) == "precious\n");
    // No temporary files are left behind.
    for (const auto& entry : fs::directory_iterator(scratch())) {
      CHECK(entry.path().filename().string().rfind(".keep.csv", 0) != 0);
    }
  }

  TEST_CASE("cli: two outputs naming one file are refused - the same device is not") {
    const fs::path dir = scratch() / "one_file";
    fs::create_directories(dir / "sub");
    const std::string run = "maxload --n 4 --reps 10 --seed 1 --quiet ";
    const std::string cases[] = {
        "--csv " + (dir / "a").string() + " --json " + (dir / "a").string(),
        "--csv " + (dir / "b").string() + " --checkpoint " + (dir / "sub" / ".." / "b").string(),
        "--csv - --json " + (dir / "c").string() + " --checkpoint " + (dir / "c").string(),
    };
    for (const std::string& outputs : cases) {
      CAPTURE(outputs);
      const Outcome r = run_lbmc(run + outputs);
      CHECK(r.code == 2);
      CHECK(count_lines(r.err) == 1);
      CHECK(r.err.find("the same file as") != std::string::npos);
    }
    CHECK(fs::is_empty(dir / "sub"));
    CHECK(std::distance(fs::directory_iterator(dir), fs::directory_iterator()) == 1);  // sub only
    CHECK(run_lbmc(run + "--csv /dev/null --json /dev/null").code == 0);
  }

  TEST_CASE("cli: output to a character device or a pipe is written in place") {
    const Outcome null = run_lbmc("maxload --n 4 --reps 400 --seed 3 --quiet --csv /dev/null --json /dev/null");
    CHECK(null.code == 0);
    CHECK(null.err.empty());
    const fs::path fifo = scratch() / "rows.fifo";
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    const fs::path copy = scratch() / "from_fifo.csv";
    const std::string reader = "cat " + fifo.string() + " > " + copy.string() + " &";
    REQUIRE(std::system(reader.c_str()) == 0);
    const Outcome piped = run_lbmc("maxload --n 4 --reps 100 --seed 3 --quiet --csv " + fifo.string());
    CHECK(piped.code == 0);
    const Outcome direct = run_lbmc("maxload --n 4 --reps 100 --seed 3 --quiet --csv -");
    std::system("wait");
    for (int i = 0; i < 100 && slurp(copy) != direct.out; ++i) ::usleep(20000);
    CHECK(slurp(copy) == direct.out);
    fs::remove(fifo);
  }

  TEST_CASE("cli: every seed below 2^64 is taken exactly - the largest included") {
    const Outcome top = run_lbmc("maxload --n 4 --reps 10 --seed 18446744073709551615 --quiet --json -");
    CHECK(top.code == 0);
    CHECK(top.out.find("\"seed\": 18446744073709551615") != std::string::npos);
    const Outcome scientific = run_lbmc("maxload --n 4 --reps 10 --seed 1e6 --quiet --json -");
    CHECK(scientific.out.find("\"seed\": 1000000,") != std::string::npos);
  }

  TEST_CASE("cli: no number prints as -0") {
    // -0 in a spec is zero, and a quantile of a symmetric law at 0.5 that
    // rounds to -0.0 prints unsigned.
    const Outcome r = run_lbmc("maxload --dist uniform:-1,1 --dist constant:-0 --n 1 --alpha 0.5 --reps 1 --quiet --csv -");
    REQUIRE(r.code == 0);
    CHECK(r.out.find("-0,") == std::string::npos);
    CHECK(r.out.find(",-0\n") == std::string::npos);
    CHECK(r.out.find("constant:0,") != std::string::npos);
  }

  TEST_CASE("cli: --help states each law's valid range") {
    for (const char* command : {"maxload", "maxshift", "scatter", "rebalance"}) {
      CAPTURE(command);
      const Outcome r = run_lbmc(std::string(command) + " --help");
      CHECK(r.code == 0);
      CHECK(r.out.find("1e-100 <= SIGMA <= 1e100") != std::string::npos);
    }
  }

  TEST_CASE("cli: same seed gives byte-identical CSV for 1 and 2 threads") {
    const std::string args =
        "maxload --dist normal:0,1 --dist poisson:3 --n 5,300 --alpha 0.5,0.9 --reps 20000 --seed 11 --quiet";
    const std::string csv = lbmc::test::same_output_at_1_and_2_threads({scratch()}, args + " --csv -");
    CHECK(csv.rfind("experiment,dist,n,method,statistic,estimate,se,ci_low,ci_high,reps,reference,", 0) == 0);
    const Outcome other_seed = run_lbmc("maxload --n 5 --reps 20000 --seed 12 --quiet --threads 2 --csv -");
    CHECK(other_seed.out != csv);
  }

  TEST_CASE("cli: maxshift gives byte-identical CSV and covariance for 1 and 2 threads") {
    const std::string args = "maxshift --dist normal:0,1 --dist binomial:100,0.3 --n 8,33 --reps 20000 --seed 5 --quiet";
    const fs::path cov1 = scratch() / "cov1.csv";
    const fs::path cov2 = scratch() / "cov2.csv";
    const Outcome one = run_lbmc(args + " --threads 1 --csv - --cov " + cov1.string());
    const Outcome two = run_lbmc(args + " --threads 2 --csv - --cov " + cov2.string());
    REQUIRE(one.code == 0);
    REQUIRE(two.code == 0);
    CHECK(one.out == two.out);
    CHECK(slurp(cov1) == slurp(cov2));
    CHECK(slurp(cov1).rfind("dist,n,k,l,estimate,exact\n", 0) == 0);
    CHECK(count_lines(slurp(cov1)) == 1 + 2 * (8 * 8 + 33 * 33));
    for (const char* statistic : {"W'.mean", "W'.second_moment", "W'.q0.95", "W'.p_zero", "W'.ks", "D'.mean",
                                  "D'.second_moment", "D'.q0.95", "D'.ks", "D.p_ge_1", "Max_R_Shift.mean",
                                  "Max_L_Shift.mean", "V.cov_max_abs_error", "V.cov_max_rel_error"}) {
      CAPTURE(statistic);
      CHECK(one.out.find(std::string(",") + statistic + ",") != std::string::npos);
    }
    // Exact checks pass; the paper's bound on P(D >= 1) may legitimately fail.
    std::istringstream lines(one.out);
    for (std::string line; std::getline(lines, line);) {
      if (line.find(",exact,") != std::string::npos) CHECK(line.substr(line.size() - 5) != ",fail");
    }
  }

  TEST_CASE("cli: files are written whole and JSON carries the metadata") {
    const fs::path csv = scratch() / "run.csv";
    const fs::path json = scratch() / "run.json";
    const Outcome r = run_lbmc("maxload --n 8 --reps 5000 --seed 3 --csv " + csv.string() + " --json " + json.string());
    REQUIRE(r.code == 0);
    CHECK(r.err.find("seed 3") != std::string::npos);
    CHECK(r.err.find("ns/variate") != std::string::npos);
    CHECK(r.out.find("gumbel-paper") != std::string::npos);  // the readable table
    const auto doc = nlohmann::json::parse(slurp(json));
    const auto& meta = doc.at("meta");
    for (const char* key : {"version", "git_revision", "command_line", "seed", "threads", "reps", "build_type",
                            "compiler", "start_time", "wall_seconds", "reps_per_second", "ns_per_variate",
                            "store_seconds"}) {
      CAPTURE(key);
      CHECK(meta.contains(key));
    }
    CHECK(meta.at("seed") == 3);
    CHECK(meta.at("reps") == 5000);
    CHECK(doc.at("rows").size() == count_lines(slurp(csv)) - 1);
    CHECK(doc.at("rows")[0].at("dist") == "normal:0,1");
  }

  TEST_CASE("cli: SIGINT or SIGTERM exits 130 and leaves no file") {
    for (const std::string signal : {"INT", "TERM"}) {
      CAPTURE(signal);
      const fs::path target = scratch() / "interrupted.csv";
      const std::string cmd = std::string(LBMC_BINARY) + " maxload --n 4096 --reps 1e9 --seed 1 --quiet --csv " +
                              target.string() + " & pid=$!; sleep 1; kill -" + signal + " $pid; wait $pid";
      const int status = std::system(("bash -c '" + cmd + "'").c_str());
      CHECK(WIFEXITED(status));
      CHECK(WEXITSTATUS(status) == 130);
      CHECK_FALSE(fs::exists(target));
      for (const auto& entry : fs::directory_iterator(scratch())) {
        CHECK(entry.path().filename().string().rfind(".interrupted.csv", 0) != 0);
      }
    }
  }

  TEST_CASE("cli: a run that needs more memory than allowed is refused before any work") {
    const fs::path target = scratch() / "too_big.csv";
    // Under a 3 GB address space: huge arrays are estimated and refused with
    // the estimate; few tasks on a billion processors need no billion counters.
    const char* refused[] = {"rebalance --dist poisson:5 --n 1e9", "dynamic --model deterministic --nu 2147483647",
                             "maxshift --n 1e9 --reps 2", "assign --N 1e9 --P 1e9 --reps 2"};
    for (const char* args : refused) {
      CAPTURE(args);
      if (kAddressSanitizer) break;
      const Outcome r = run_lbmc(std::string(args) + " --quiet --csv " + target.string(), 3'000'000);
      CHECK(r.code == 2);
      CHECK(count_lines(r.err) == 1);
      CHECK(r.err.find("needs an estimated") != std::string::npos);
      CHECK_FALSE(fs::exists(target));
    }
    const Outcome sparse = run_lbmc("assign --N 10 --P 1e9 --reps 100 --quiet --csv -");
    CHECK(sparse.code == 0);
    // The Poisson model and conditional binomials keep no load counters: a
    // bound on them (N or P, 8 bytes, per thread) would refuse these.
    CHECK(run_lbmc("assign --model poisson --N 2e7 --P 2e6 --reps 2 --threads 2 --max-memory 2M --quiet").code == 0);
    CHECK(run_lbmc("assign --N 1e9 --P 1e5 --reps 2 --threads 2 --max-memory 1M --quiet").code == 0);
    // --max-memory, in powers of 1024: 2^20 stored maxima need 16 MiB.
    const Outcome capped = run_lbmc("maxload --n 4 --reps 1048576 --max-memory 15M --quiet");
    CHECK(capped.code == 2);
    CHECK(capped.err.find("16.0 MiB") != std::string::npos);
    CHECK(capped.err.find("--max-memory") != std::string::npos);
    CHECK(run_lbmc("maxload --n 4 --reps 1000 --max-memory 17M --quiet").code == 0);
    CHECK(run_lbmc("maxload --n 4 --max-memory 0 --quiet").code == 2);
    CHECK(run_lbmc("maxload --n 4 --max-memory 4X --quiet").code == 2);
  }

  TEST_CASE("cli: an allocation that fails anyway is exit 3 with one line - no crash and no file") {
    // --max-memory above the address-space limit lets the run start; its
    // arrays then cannot be allocated.
    if (kAddressSanitizer) return;
    const fs::path target = scratch() / "no_memory.csv";
    const Outcome r =
        run_lbmc("rebalance --n 2e8 --reps 4 --threads 2 --max-memory 1T --quiet --csv " + target.string(), 2'000'000);
    CHECK(r.code == 3);
    CHECK(count_lines(r.err) == 1);
    CHECK(r.err.find("out of memory") != std::string::npos);
    CHECK_FALSE(fs::exists(target));
  }

  TEST_CASE("cli: a full disk is exit 3 with one line") {
    const Outcome r = run_lbmc("maxload --n 4 --reps 100 --quiet --csv /dev/full");
    CHECK(r.code == 3);
    CHECK(count_lines(r.err) == 1);
    CHECK(r.err.find("/dev/full") != std::string::npos);
  }

  TEST_CASE("cli: --strict exits 1 exactly when an exact check fails") {
    // With a vanishing tolerance every continuous exact check fails.
    CHECK(run_lbmc("maxload --n 16 --reps 1000 --seed 1 --quiet --strict --z-tol 1e-9").code == 1);
    CHECK(run_lbmc("maxload --n 16 --reps 1000 --seed 1 --quiet --z-tol 1e-9").code == 0);
    CHECK(run_lbmc("maxload --n 16 --reps 1000 --seed 1 --quiet --strict").code == 0);
  }

  TEST_CASE("cli: help and version exit 0") {
    CHECK(run_lbmc("--help").code == 0);
    const Outcome sub = run_lbmc("maxload --help");
    CHECK(sub.code == 0);
    CHECK(sub.out.find("--alpha") != std::string::npos);
    CHECK(run_lbmc("--version").code == 0);
  }

  TEST_CASE("cli: --version and the JSON meta name the commit the binary was built from") {
    const fs::path head = scratch() / "head.txt";
    const std::string git = "git -C " + std::string(LBMC_SOURCE_DIR) + " rev-parse --short=12 HEAD >" + head.string();
    if (std::system((git + " 2>/dev/null").c_str()) != 0) return;  // not a git checkout: "unknown"
    std::string revision = slurp(head);
    revision.erase(revision.find_last_not_of('\n') + 1);
    REQUIRE(revision.size() == 12);
    CHECK(run_lbmc("--version").out.find("(" + revision) != std::string::npos);
    CHECK(run_lbmc("maxload --n 4 --reps 10 --seed 1 --quiet --json -").out.find("\"git_revision\": \"" + revision) !=
          std::string::npos);
  }
}

TEST_SUITE("fast") {
  TEST_CASE("cli: check-only parses a valid command line in process and does nothing") {
    const fs::path csv = scratch() / "check_only.csv";
    const fs::path out = scratch() / "check_only_results";
    const auto check = [](std::vector<std::string> args) {
      args.insert(args.begin(), "lbmc");
      std::vector<const char*> argv;
      for (const auto& a : args) argv.push_back(a.c_str());
      return lbmc::exp::run_cli(static_cast<int>(argv.size()), argv.data(), lbmc::exp::CliMode::check_only);
    };
    CHECK(check({"maxload", "--n", "1e9", "--reps", "1e12", "--csv", csv.string()}) == 0);
    CHECK(check({"maxshift", "--n", "16", "--cov", csv.string()}) == 0);
    CHECK(check({"reproduce", "all", "--out", out.string()}) == 0);
    CHECK(check({"validate", "--only", "maxload"}) == 0);
    CHECK(check({"dynamic", "--lemma1", "--p", "1:1e6:*10"}) == 0);
    CHECK_FALSE(fs::exists(csv));
    CHECK_FALSE(fs::exists(out));
    CHECK(check({"maxload", "--n", "0"}) == 2);
    CHECK(check({"maxload", "--dist", "normal:0"}) == 2);
    CHECK(check({"nosuch"}) == 2);
  }

  TEST_CASE("cli: checking options changes nothing - threads and journal stay as they were") {
    const fs::path state = scratch() / "check_only.state";
    const int threads = omp_get_max_threads();
    const int other = threads == 1 ? 2 : 1;
    std::vector<std::string> args{"lbmc",          "maxload", "--n",   "16", "--threads", std::to_string(other),
                                  "--checkpoint", state.string()};
    std::vector<const char*> argv;
    for (const auto& a : args) argv.push_back(a.c_str());
    CHECK(lbmc::exp::run_cli(static_cast<int>(argv.size()), argv.data(), lbmc::exp::CliMode::check_only) == 0);
    CHECK(omp_get_max_threads() == threads);
    CHECK_FALSE(lbmc::engine::RunJournal::get().recording());
    CHECK_FALSE(fs::exists(state));
  }
}

}  // namespace cli_test
