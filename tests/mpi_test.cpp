// Runs under MPI give the bytes of one process (engine/cluster.hpp,
// engine/driver.hpp): every command is run once as a single process and then
// under `mpirun -np K` for K = 1..4 ranks with 1 or 2 threads per rank, and
// the CSV files must be identical. Also: bad input under mpirun is one line
// from rank 0, exit 2 on the job, and no file; a signal to the ranks ends the
// job with exit 130 and no file. The machine may have fewer cores than
// ranks × threads (--oversubscribe): correctness only, no timing.
#include <doctest/doctest.h>

#ifdef LBMC_MPIEXEC

#include <sys/wait.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "sanitizer.hpp"

namespace mpi_test {

namespace {

namespace fs = std::filesystem;

// Open MPI refuses to start as root unless told, and must not bind a rank's
// threads to one core; -q leaves its own banners out of the error output.
const std::string kLaunch = "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 " +
                            std::string(LBMC_MPIEXEC) + " -q --oversubscribe --bind-to none";

int exit_code(int status) { return WIFEXITED(status) ? WEXITSTATUS(status) : -1; }

std::string read_all(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// A folder of this test process, removed when it exits.
struct ScratchFolder {
  fs::path path = fs::temp_directory_path() / ("lbmc_mpi_test_" + std::to_string(::getpid()));
  ScratchFolder() { fs::create_directories(path); }
  ~ScratchFolder() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

const fs::path& scratch() {
  static const ScratchFolder folder;
  return folder.path;
}

// `lbmc ARGS --csv FILE`, as one process with 2 threads, or with `ranks` ranks
// of `threads` threads; returns the CSV.
std::string csv_of(const std::string& args, int ranks, int threads) {
  const fs::path csv = scratch() / "out.csv";
  fs::remove(csv);
  const std::string launch = ranks == 0 ? "" : kLaunch + " -np " + std::to_string(ranks) + " ";
  const std::string cmd = launch + LBMC_BINARY + " " + args + " --threads " + std::to_string(threads) +
                          " --quiet --csv " + csv.string() + " </dev/null >/dev/null 2>&1";
  INFO(cmd);
  REQUIRE(exit_code(std::system(cmd.c_str())) == 0);
  return read_all(csv);
}

void check_identical(const std::string& args) {
  const std::string one = csv_of(args, 0, 2);
  REQUIRE(!one.empty());
  for (const int ranks : {1, 2, 3, 4}) {
    for (const int threads : {1, 2}) {
      if (ranks == 1 && threads == 2) continue;
      CAPTURE(args);
      CAPTURE(ranks);
      CAPTURE(threads);
      CHECK(csv_of(args, ranks, threads) == one);
    }
  }
}

}  // namespace

TEST_SUITE("mpi") {
  TEST_CASE("mpi: maxload by brute force and by the direct method gives the bytes of one process") {
    check_identical("maxload --dist normal:0,1 --n 16,256 --reps 20000 --method brute --seed 11");
    check_identical("maxload --dist poisson:4 --n 1024 --reps 300000 --seed 12");
  }
  TEST_CASE("mpi: quantile stores past their cap on every rank - binned there - give the bytes of one process") {
    // Each rank's share of the maxima (2.6e7 or 1.7e7 values) is past the
    // 2^24 values a store keeps exactly, so the ranks send sketches.
    const std::string args = "maxload --dist exponential:1 --n 1024 --reps 5.2e7 --method direct --seed 19";
    const std::string one = csv_of(args, 0, 2);
    CHECK(csv_of(args, 2, 1) == one);
    CHECK(csv_of(args, 3, 2) == one);
  }
  TEST_CASE("mpi: maxshift and rebalance give the bytes of one process") {
    check_identical("maxshift --dist binomial:20,0.5 --n 64 --reps 20000 --seed 13");
    check_identical("rebalance --dist poisson:5 --n 32 --reps 3000 --seed 14");
  }
  TEST_CASE("mpi: assign and scatter and dynamic give the bytes of one process") {
    check_identical("assign --N 1000 --P 10,1000 --reps 2000 --seed 15");
    check_identical("scatter --dist exponential:1 --tasks 10 --procs 64 --reps 5000 --seed 16");
    check_identical("dynamic --model exponential --p 8 --kappa 4 --lambda 1 --reps 2000 --seed 17");
  }
  TEST_CASE("mpi: compare gives the bytes of one process") {
    check_identical("compare --dist lognormal:0,1 --field iid,ar1:0.9 --N 100 --P 8 --h 0,0.1 --reps 3000 --seed 18");
  }
  TEST_CASE("mpi: a run to a target relative se stops where one process stops") {
    check_identical("maxshift --dist poisson:3 --n 32 --target-rse 0.003 --seed 18");
  }
  TEST_CASE("mpi: reproduce writes the files of one process") {
    const fs::path dir = scratch();
    const std::string args = " reproduce salmon --quick --threads 1 --quiet --out ";
    std::string cmd = std::string(LBMC_BINARY) + args + (dir / "one").string() + " >/dev/null 2>&1";
    REQUIRE(exit_code(std::system(cmd.c_str())) == 0);
    cmd = kLaunch + " -np 3 " + LBMC_BINARY + args + (dir / "three").string() + " </dev/null >/dev/null 2>&1";
    REQUIRE(exit_code(std::system(cmd.c_str())) == 0);
    for (const char* file : {"salmon/claims.csv", "salmon/claims.md"}) {
      CAPTURE(file);
      CHECK(read_all(dir / "one" / file) == read_all(dir / "three" / file));
    }
  }
  TEST_CASE("mpi: bad input is one line from rank 0 and exit 2 and no file") {
    const fs::path dir = scratch();
    const fs::path csv = dir / "bad.csv";
    const fs::path err = dir / "bad.err";
    fs::remove(csv);
    // Found by every rank (a law), and by rank 0 alone (a file it cannot write).
    for (const std::string& args : {std::string("maxload --dist bogus:1 --csv ") + csv.string(),
                                    std::string("maxload --dist normal:0,1 --reps 1000 --csv ") +
                                        (dir / "missing" / "x.csv").string()}) {
      const std::string cmd = kLaunch + " -np 3 " + LBMC_BINARY + " " + args + " </dev/null 2>" + err.string();
      CAPTURE(cmd);
      CHECK(exit_code(std::system(cmd.c_str())) == 2);
      const std::string message = read_all(err);
      CHECK(message.rfind("lbmc maxload: error: ", 0) == 0);
      CHECK(message.find('\n') == message.size() - 1);
      CHECK(!fs::exists(csv));
    }
  }
  TEST_CASE("mpi: a rank out of memory ends the job with exit 3 - one line from rank 0 - and no file") {
    // Rank 1 alone runs under an address-space limit that lets it start but
    // not hold its share of the exact quantile store (2.4e7 values) while it
    // sends its nodes to rank 0; rank 0 has all the memory it needs.
    if (kAddressSanitizer) return;
    const fs::path dir = scratch();
    const fs::path csv = dir / "oom.csv";
    const fs::path err = dir / "oom.err";
    fs::remove(csv);
    const std::string run = std::string(LBMC_BINARY) +
                            " maxload --dist normal:0,1 --n 4096 --reps 6e7 --method direct --seed 3 --threads 1"
                            " --quiet --max-memory 1T --csv " + csv.string();
    const std::string cmd = kLaunch + " -np 1 " + run + " : -np 1 bash -c 'ulimit -v 450000; exec " + run +
                            "' </dev/null >/dev/null 2>" + err.string();
    CAPTURE(cmd);
    CHECK(exit_code(std::system(cmd.c_str())) == 3);
    const std::string message = read_all(err);
    CHECK(message.find("out of memory") != std::string::npos);
    CHECK(message.find('\n') == message.size() - 1);
    CHECK(!fs::exists(csv));
  }
  TEST_CASE("mpi: SIGTERM to the ranks ends the job with exit 130 and no file") {
    const fs::path dir = scratch();
    const fs::path csv = dir / "term.csv";
    fs::remove(csv);
    // A run of minutes, stopped after its first blocks; the ranks are found
    // by their command line (the launcher's does not start with the binary).
    const std::string args = "maxload --dist normal:0,1 --n 4096 --method brute --reps 1e9 --seed " +
                             std::to_string(::getpid()) + " --threads 1 --csv " + csv.string();
    const std::string cmd = kLaunch + " -np 2 " + LBMC_BINARY + " " + args + " </dev/null >/dev/null 2>&1";
    std::thread killer([&] {
      std::this_thread::sleep_for(std::chrono::seconds(2));
      const std::string kill = "pkill -TERM -f '^" + std::string(LBMC_BINARY) + " maxload .*--seed " +
                               std::to_string(::getpid()) + " '";
      (void)std::system(kill.c_str());
    });
    const int status = std::system(cmd.c_str());
    killer.join();
    CHECK(exit_code(status) == 130);
    CHECK(!fs::exists(csv));
  }

  TEST_CASE("mpi: a checkpoint of 2 ranks stopped by SIGTERM resumes on 3 ranks - or one process - to the same bytes") {
    const std::string tag = "--seed " + std::to_string(::getpid());
    const std::string args = "maxshift --dist poisson:5 --n 64,1024 --reps 2e5 " + tag;
    const std::string whole = csv_of(args, 0, 2);
    const fs::path state = scratch() / "run.state";
    const fs::path csv = scratch() / "resumed.csv";
    for (const int resume_ranks : {3, 0}) {
      CAPTURE(resume_ranks);
      fs::remove(state);
      fs::remove(csv);
      const std::string cmd = kLaunch + " -np 2 " + LBMC_BINARY + " " + args + " --threads 1 --quiet --csv " +
                              csv.string() + " --checkpoint " + state.string() +
                              " --checkpoint-every 0 </dev/null >/dev/null 2>&1";
      std::thread killer([&] {
        while (!fs::exists(state)) std::this_thread::sleep_for(std::chrono::milliseconds(50));
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        (void)std::system(("pkill -TERM -f '^" + std::string(LBMC_BINARY) + " maxshift .*" + tag + " '").c_str());
      });
      const int stopped = exit_code(std::system(cmd.c_str()));
      killer.join();
      CHECK((stopped == 130 || stopped == 0));
      const std::string launch = resume_ranks == 0 ? "" : kLaunch + " -np " + std::to_string(resume_ranks) + " ";
      REQUIRE(exit_code(std::system((launch + LBMC_BINARY + " resume " + state.string() +
                                     " </dev/null >/dev/null 2>&1").c_str())) == 0);
      CHECK(read_all(csv) == whole);
    }
  }

  TEST_CASE("mpi: slices run on 2 ranks merge on 3 ranks - and extend on 2 - to the bytes of one process") {
    const std::string args = "maxload --dist poisson:7 --n 300 --method brute --reps 30001 --seed 17";
    const std::string whole = csv_of(args, 0, 2);
    const std::string mpi2 = kLaunch + " -np 2 " + LBMC_BINARY + " ";
    const fs::path a = scratch() / "a.state";
    const fs::path b = scratch() / "b.state";
    const std::string quiet = " --quiet </dev/null >/dev/null 2>&1";
    REQUIRE(exit_code(std::system((mpi2 + args + " --blocks 0:4 --checkpoint " + a.string() + quiet).c_str())) == 0);
    REQUIRE(exit_code(std::system((mpi2 + args + " --blocks 4:1e12 --checkpoint " + b.string() + quiet).c_str())) == 0);
    const fs::path csv = scratch() / "merged.csv";
    REQUIRE(exit_code(std::system((kLaunch + " -np 3 " + LBMC_BINARY + " merge " + b.string() + " " + a.string() +
                                   " --csv " + csv.string() + quiet).c_str())) == 0);
    CHECK(read_all(csv) == whole);
    // A shorter run, checkpointed by one process, extended by 2 ranks.
    const fs::path state = scratch() / "short.state";
    const std::string shorter = "maxload --dist poisson:7 --n 300 --method brute --reps 9999 --seed 17";
    REQUIRE(exit_code(std::system((std::string(LBMC_BINARY) + " " + shorter + " --checkpoint " + state.string() +
                                   quiet).c_str())) == 0);
    fs::remove(csv);
    REQUIRE(exit_code(std::system((mpi2 + "extend " + state.string() + " --reps 30001 --csv " + csv.string() +
                                   " </dev/null >/dev/null 2>&1").c_str())) == 0);
    CHECK(read_all(csv) == whole);
  }
}

}  // namespace mpi_test

#endif
