// Runs as files: the state format (round trip, and every way a file can be
// wrong), and checkpoint then resume giving the bytes of an uninterrupted
// run for every simulating command.
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <boost/crc.hpp>
#include <nlohmann/json.hpp>
#include <sys/wait.h>

#include "lbmc/engine/errors.hpp"
#include "lbmc/engine/run_state.hpp"
#include "support/files.hpp"

namespace run_state_test {

namespace fs = std::filesystem;
using namespace lbmc::engine;

namespace {

using lbmc::test::shell;
using lbmc::test::slurp;

// Shell, after `pid=$!`: waits (up to 10 s) until the process catches
// SIGINT and SIGTERM (bits 1 and 14 of SigCgt in /proc/PID/status), so that
// a signal sent next meets lbmc's handlers however slowly a loaded machine
// started it.
const std::string kUntilHandlersInstalled =
    "for i in $(seq 200); do m=$(grep ^SigCgt: /proc/$pid/status); m=${m##*[[:space:]]};"
    " (( (16#${m:-0} & 0x4002) == 0x4002 )) && break; sleep 0.05; done;";

const fs::path& scratch() {
  static const fs::path dir = lbmc::test::scratch_folder("run_state_test");
  return dir;
}

void spill(const fs::path& path, const std::vector<std::byte>& bytes) {
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()),
                                              static_cast<std::streamsize>(bytes.size()));
}

// The exit code of a shell command.
RunState sample_state() {
  RunState s;
  s.version = "lbmc 1.2.3";
  s.arguments = {"maxload", "--n", "16", "--seed", "7"};
  s.inputs = {{"times.csv", 1234, 0x89abcdefu}, {"other.txt", std::uint64_t{1} << 40, 0}};
  CallState call;
  call.identity = {7, 1000, 1000, 128, std::nullopt};
  call.next = 4;
  call.decided = true;
  call.nodes.push_back({2, 0, {std::byte{1}, std::byte{2}, std::byte{255}}});
  call.nodes.push_back({0, 5, {}});
  s.calls.push_back(call);
  call.identity.target_rse = 0.01;
  call.finished = true;
  s.calls.push_back(call);
  return s;
}

}  // namespace

TEST_SUITE("fast") {
  TEST_CASE("run state: the file round-trips and names what is wrong with a bad one") {
    const RunState s = sample_state();
    const std::vector<std::byte> bytes = encode_run_state(s);
    const RunState back = decode_run_state(bytes, "x");
    CHECK(back.version == s.version);
    CHECK(back.arguments == s.arguments);
    CHECK(back.inputs == s.inputs);
    REQUIRE(back.calls.size() == 2);
    CHECK(back.calls[0].identity == s.calls[0].identity);
    CHECK(back.calls[1].identity.target_rse == 0.01);
    CHECK(back.calls[0].next == 4);
    CHECK(back.calls[0].decided);
    CHECK(back.calls[1].finished);
    CHECK(back.calls[0].nodes[0].bytes == s.calls[0].nodes[0].bytes);
    CHECK(back.calls[0].nodes[1].index == 5);
    // The header is fixed: magic, format 2 little-endian.
    CHECK(std::string(reinterpret_cast<const char*>(bytes.data()), 10) == "LBMCSTATE\n");
    CHECK(bytes[10] == std::byte{2});

    const auto refused = [](std::vector<std::byte> b, const char* what) {
      CAPTURE(what);
      try {
        decode_run_state(b, "the.state");
        FAIL("accepted");
      } catch (const InputError& e) {
        const std::string message = e.what();
        CHECK(message.find("the.state") != std::string::npos);
        CHECK(message.find(what) != std::string::npos);
      }
    };
    refused({}, "not an lbmc state file");
    refused(std::vector<std::byte>(bytes.begin(), bytes.begin() + 30), "truncated");
    refused(std::vector<std::byte>(bytes.begin(), bytes.end() - 1), "truncated");
    std::vector<std::byte> longer = bytes;
    longer.push_back(std::byte{0});
    refused(longer, "truncated or extended");
    for (const std::size_t at : {std::size_t{30}, bytes.size() / 2, bytes.size() - 1}) {
      std::vector<std::byte> flipped = bytes;
      flipped[at] ^= std::byte{0x10};
      refused(flipped, "checksum");
    }
    std::vector<std::byte> other = bytes;
    other[10] = std::byte{3};
    refused(other, "format version 3");
    std::vector<std::byte> csv(20, std::byte{'a'});
    refused(csv, "not an lbmc state file");
    // Bodies of a million nested one-element arrays, or of a million nested
    // chunks of an indefinite-length string, under a good checksum, are
    // refused without exhausting the stack.
    for (const std::byte nest : {std::byte{0x81}, std::byte{0x7f}}) {
      std::vector<std::byte> nested(bytes.begin(), bytes.begin() + 22);
      nested.insert(nested.end(), 1'000'000, nest);
      nested.push_back(std::byte{0xf6});
      const std::uint64_t length = nested.size() - 22;
      for (int i = 0; i < 8; ++i) nested[14 + static_cast<std::size_t>(i)] = static_cast<std::byte>(length >> (8 * i));
      boost::crc_32_type crc;
      crc.process_bytes(nested.data(), nested.size());
      for (int i = 0; i < 4; ++i) nested.push_back(static_cast<std::byte>(crc.checksum() >> (8 * i)));
      refused(nested, "nested too deep");
    }
  }

  TEST_CASE("run state: files are written whole - beside the target - and read back") {
    const fs::path path = scratch() / "s.state";
    write_run_state(path.string(), sample_state());
    CHECK(read_run_state(path.string()).arguments == sample_state().arguments);
    for (const auto& entry : fs::directory_iterator(scratch())) {
      CHECK(entry.path().filename().string().rfind(".s.state", 0) != 0);
    }
    CHECK_THROWS_AS(read_run_state((scratch() / "missing").string()), InputError);
  }

  TEST_CASE("resume - extend - merge: bad state files are one line - exit 2 - and no output file") {
    const fs::path good = scratch() / "good.state";
    write_run_state(good.string(), sample_state());  // another version's state
    std::vector<std::byte> truncated = encode_run_state(sample_state());
    truncated.resize(truncated.size() / 2);
    spill(scratch() / "truncated.state", truncated);
    spill(scratch() / "foreign.state", {std::byte{'x'}, std::byte{'y'}});
    const fs::path out = scratch() / "never.csv";
    const fs::path err = scratch() / "err.txt";
    for (const char* name : {"good.state", "truncated.state", "foreign.state", "missing.state"}) {
      for (const char* command : {"resume", "extend", "merge"}) {
        CAPTURE(name);
        CAPTURE(command);
        const fs::path state = scratch() / name;
        const std::string extra = std::string(command) == "extend" ? " --reps 10" : "";
        const int code = shell(std::string(LBMC_BINARY) + " " + command + " " + state.string() + extra + " --csv " +
                               out.string() + " 2>" + err.string());
        CHECK(code == 2);
        const std::string message = slurp(err);
        CHECK(std::count(message.begin(), message.end(), '\n') == 1);
        CHECK(message.find(name) != std::string::npos);
        CHECK_FALSE(fs::exists(out));
      }
    }
  }

  TEST_CASE("resume - extend: --device moves a run between devices and keeps its stream") {
    const std::string bin = LBMC_BINARY;
    const std::string run = bin + " maxload --n 64 --seed 5 --progress never --quiet";
    const fs::path state = scratch() / "device.state";
    const fs::path gpu_state = scratch() / "device_gpu.state";
    const fs::path whole = scratch() / "device_whole.csv";
    const fs::path longer = scratch() / "device_longer.csv";
    const fs::path again = scratch() / "device_again.csv";
    fs::remove(state);
    REQUIRE(shell(run + " --rng philox --reps 2e4 --checkpoint " + state.string() + " --csv " + whole.string()) == 0);
    REQUIRE(shell(run + " --rng philox --reps 5e4 --csv " + longer.string()) == 0);
    // The state of the same run on a GPU: --device cuda in place of --rng
    // philox (the GPU's stream), as a run there stores it.
    RunState on_gpu = read_run_state(state.string());
    const auto rng = std::find(on_gpu.arguments.begin(), on_gpu.arguments.end(), "--rng");
    REQUIRE(rng != on_gpu.arguments.end());
    *rng = "--device";
    *(rng + 1) = "cuda";
    write_run_state(gpu_state.string(), on_gpu);
    // Resumed as stored it needs a GPU, which this machine may lack; on the
    // CPU it keeps the counter-based stream and gives the GPU's bytes.
    if (shell("nvidia-smi >/dev/null 2>&1") != 0) {
      CHECK(shell(bin + " resume " + gpu_state.string() + " --csv " + again.string() + " 2>/dev/null") == 2);
    }
    REQUIRE(shell(bin + " resume " + gpu_state.string() + " --device cpu --csv " + again.string() + " >/dev/null") == 0);
    CHECK(slurp(again) == slurp(whole));
    fs::remove(again);
    REQUIRE(shell(bin + " extend " + gpu_state.string() + " --device cpu --reps 5e4 --csv " + again.string() + " >/dev/null") == 0);
    CHECK(slurp(again) == slurp(longer));
    // A pcg64 run stays on pcg64, which no GPU runs.
    const fs::path pcg_state = scratch() / "device_pcg.state";
    const fs::path pcg_whole = scratch() / "device_pcg.csv";
    fs::remove(pcg_state);
    REQUIRE(shell(run + " --reps 2e4 --checkpoint " + pcg_state.string() + " --csv " + pcg_whole.string()) == 0);
    fs::remove(again);
    REQUIRE(shell(bin + " resume " + pcg_state.string() + " --device cpu --csv " + again.string() + " >/dev/null") == 0);
    CHECK(slurp(again) == slurp(pcg_whole));
    fs::remove(again);
    const lbmc::test::Captured refused =
        lbmc::test::run_captured(bin + " resume " + pcg_state.string() + " --device cuda --csv " + again.string(),
                                 scratch());
    CHECK(refused.code == 2);
    CHECK(refused.err.find("--device cuda") != std::string::npos);
    CHECK_FALSE(fs::exists(again));
  }

  TEST_CASE("resume - extend - merge: an input file changed since the state was written is refused - one line - exit 2") {
    const std::string bin = LBMC_BINARY;
    const fs::path times = scratch() / "times.txt";
    const fs::path never = scratch() / "never_input.csv";
    const fs::path err = scratch() / "input_err.txt";
    const auto write_times = [&](const char* text) { std::ofstream(times) << text; };
    const auto refused = [&](const std::string& command) {
      CAPTURE(command);
      CHECK(shell(command + " --csv " + never.string() + " 2>" + err.string()) == 2);
      const std::string message = slurp(err);
      CHECK(std::count(message.begin(), message.end(), '\n') == 1);
      CHECK(message.find(times.string()) != std::string::npos);
      CHECK_FALSE(fs::exists(never));
      return message;
    };
    // Two commands that read a file: the law empirical:FILE, compare's --times.
    const std::string maxload = bin + " maxload --dist empirical:" + times.string() + " --n 16 --reps 3000 --seed 5 --quiet";
    const std::string compare = bin + " compare --times " + times.string() + " --P 4 --reps 300 --strategy block,cyclic --seed 5 --quiet";
    for (const std::string& run : {maxload, compare}) {
      CAPTURE(run);
      write_times("1\n2\n3\n5\n8\n13\n");
      const fs::path whole = scratch() / "whole_input.state";
      const fs::path a = scratch() / "a_input.state";
      const fs::path b = scratch() / "b_input.state";
      const fs::path c = scratch() / "c_input.state";
      for (const fs::path& p : {whole, a, b, c}) fs::remove(p);
      REQUIRE(shell(run + " --checkpoint " + whole.string() + " >/dev/null") == 0);
      REQUIRE(shell(run + " --blocks 0:1 --checkpoint " + a.string()) == 0);
      REQUIRE(shell(run + " --blocks 1:1e9 --checkpoint " + b.string()) == 0);
      // Unchanged, the file is accepted.
      CHECK(shell(bin + " resume " + whole.string() + " --csv - >/dev/null") == 0);
      CHECK(shell(bin + " merge " + a.string() + " " + b.string() + " --csv - >/dev/null") == 0);
      // One digit changed, same length: the checksum tells.
      write_times("1\n2\n3\n5\n8\n14\n");
      CHECK(refused(bin + " resume " + whole.string()).find("not the data the state's run read (13 bytes") !=
            std::string::npos);
      refused(bin + " extend " + whole.string() + " --reps 6000");
      refused(bin + " merge " + a.string() + " " + b.string());
      // Slices that read different bytes are not one run.
      REQUIRE(shell(run + " --blocks 1:1e9 --checkpoint " + c.string()) == 0);
      CHECK(refused(bin + " merge " + a.string() + " " + c.string()).find("slices of runs that read different data") !=
            std::string::npos);
    }
  }
}

TEST_SUITE("statistical") {
  TEST_CASE("resume: a run stopped by SIGTERM or killed goes on to the bytes of an uninterrupted run") {
    struct Case {
      const char* args;
      const char* stop;  // the signal
    };
    // Each takes a few seconds, so the signal lands mid-run once the first
    // checkpoint exists (every wave, with --checkpoint-every 0).
    const Case cases[] = {
        {"maxload --dist normal:0,1 --dist poisson:3 --n 256,4096 --method brute --reps 1e5", "TERM"},
        {"maxshift --dist binomial:100,0.3 --n 64,2048 --reps 6e4", "INT"},
        {"assign --N 1000,20000 --P 100,1000 --reps 1e4", "TERM"},
        {"scatter --tasks 10,1000 --procs 100 --reps 1e4", "KILL"},
        {"dynamic --model exponential,deterministic --p 16,64 --reps 1e4", "TERM"},
        {"rebalance --n 256,1024 --approach 1,2,bdm --reps 1e4", "KILL"},
        {"maxload --dist exponential:1 --n 1024 --method brute --reps 1e4 --target-rse 2e-4 --max-reps 2e6", "TERM"},
    };
    for (const Case& c : cases) {
      CAPTURE(c.args);
      const std::string run = std::string(LBMC_BINARY) + " " + c.args + " --seed 9 --threads 2 --quiet";
      const fs::path whole = scratch() / "whole.csv";
      const fs::path whole_json = scratch() / "whole.json";
      const fs::path resumed = scratch() / "resumed.csv";
      const fs::path resumed_json = scratch() / "resumed.json";
      const fs::path state = scratch() / "run.state";
      fs::remove(state);
      fs::remove(resumed);
      REQUIRE(shell(run + " --csv " + whole.string() + " --json " + whole_json.string()) == 0);
      const int stopped = shell(run + " --csv " + resumed.string() + " --json " + resumed_json.string() +
                                " --checkpoint " + state.string() + " --checkpoint-every 0 & pid=$!; while [ ! -e " +
                                state.string() + " ]; do sleep 0.05; done; sleep 0.3; kill -" + c.stop +
                                " $pid; wait $pid");
      MESSAGE("stopped with exit " << stopped);
      CHECK((stopped == 130 || stopped == 137 || stopped == 0));
      if (stopped != 0) CHECK_FALSE(fs::exists(resumed));
      REQUIRE(shell(std::string(LBMC_BINARY) + " resume " + state.string() + " --threads 1 2>/dev/null") == 0);
      CHECK(slurp(resumed) == slurp(whole));
      // The JSON rows too (its meta holds the resumed process's own times).
      CHECK(nlohmann::json::parse(slurp(resumed_json)).at("rows") == nlohmann::json::parse(slurp(whole_json)).at("rows"));
      // A finished run keeps its state; resuming it again runs nothing new.
      fs::remove(resumed);
      REQUIRE(shell(std::string(LBMC_BINARY) + " resume " + state.string() + " 2>/dev/null") == 0);
      CHECK(slurp(resumed) == slurp(whole));
    }
  }

  TEST_CASE("resume: SIGKILL at several instants - mid-write included - leaves a checkpoint that resumes to the same bytes") {
    const std::string bin = LBMC_BINARY;
    const std::string run = bin + " maxshift --dist poisson:3 --n 256,2048 --reps 6e4 --seed 13 --threads 2 --quiet";
    const fs::path whole = scratch() / "whole.csv";
    REQUIRE(shell(run + " --csv " + whole.string()) == 0);
    // Instants after the first checkpoint, with a checkpoint at every wave.
    for (const char* delay : {"0", "0.15", "0.45", "0.9"}) {
      CAPTURE(delay);
      const fs::path state = scratch() / "killed.state";
      const fs::path resumed = scratch() / "killed.csv";
      fs::remove(state);
      fs::remove(resumed);
      shell(run + " --csv " + resumed.string() + " --checkpoint " + state.string() +
            " --checkpoint-every 0 & pid=$!; while [ ! -e " + state.string() + " ]; do sleep 0.01; done; sleep " +
            delay + "; kill -KILL $pid; wait $pid");
      REQUIRE(shell(bin + " resume " + state.string() + " 2>/dev/null") == 0);
      CHECK(slurp(resumed) == slurp(whole));
    }
  }

  TEST_CASE("interrupt: a replication that never ends stops at the signal - with the checkpoint of the blocks done") {
    // One replication of 4e18 steps: no block boundary for centuries, so the
    // kernel itself must look for the stop.
    const char* endless[] = {
        "maxload --n 4e18 --method brute",
        "maxload --dist poisson:3 --n 4e18 --method brute",
        "scatter --tasks 4e18 --procs 2",
        "scatter --tasks 1 --procs 4e18",
        "assign --model poisson --N 4e18 --P 4e18",
    };
    for (const char* args : endless) {
      CAPTURE(args);
      const fs::path dir = scratch() / "endless_one";
      fs::remove_all(dir);
      fs::create_directories(dir);
      const fs::path err = scratch() / "endless_one_err.txt";
      const int code = shell(std::string(LBMC_BINARY) + " " + args + " --reps 10 --seed 1 --quiet --csv " +
                             (dir / "out.csv").string() + " --checkpoint " + (dir / "run.state").string() + " 2>" +
                             err.string() + " & pid=$!; " + kUntilHandlersInstalled + " sleep 0.5; kill -TERM $pid; wait $pid");
      CHECK(code == 130);
      const std::string message = slurp(err);
      CHECK(std::count(message.begin(), message.end(), '\n') == 1);
      CHECK(message.find("interrupted") != std::string::npos);
      CHECK(message.find("grace period") == std::string::npos);
      CHECK(fs::exists(dir / "run.state"));  // the final checkpoint: no block done
      CHECK_FALSE(fs::exists(dir / "out.csv"));
    }
  }

  TEST_CASE("interrupt: a second signal stops at once - with one line and no files left") {
    // Both signals wait while the process is stopped, then arrive together:
    // the second one ends the run before any boundary or checkpoint.
    const fs::path dir = scratch() / "endless";
    fs::create_directories(dir);
    const fs::path err = scratch() / "endless_err.txt";
    const int code = shell(std::string(LBMC_BINARY) +
                           " maxload --n 4e18 --method brute --reps 10 --seed 1 --quiet --csv " + (dir / "out.csv").string() +
                           " --checkpoint " + (dir / "run.state").string() + " 2>" + err.string() +
                           " & pid=$!; " + kUntilHandlersInstalled + " kill -STOP $pid; kill -INT $pid; kill -TERM $pid;"
                           " kill -CONT $pid;"
                           " wait $pid");
    CHECK(code == 130);
    const std::string message = slurp(err);
    CHECK(std::count(message.begin(), message.end(), '\n') == 1);
    CHECK(message.find("interrupted again") != std::string::npos);
    CHECK(fs::is_empty(dir));  // neither the output nor its temporary file
  }

  TEST_CASE("merge: slices run anywhere give the bytes of the whole run - and gaps - overlaps and strangers are refused") {
    const std::string bin = LBMC_BINARY;
    const std::string run = bin + " maxshift --dist poisson:5 --dist normal:0,1 --n 64,1024 --reps 50001 --quiet";
    const fs::path whole = scratch() / "whole.csv";
    REQUIRE(shell(run + " --seed 21 --csv " + whole.string()) == 0);
    const auto slice = [&](const std::string& blocks, const std::string& name, const std::string& seed = "21") {
      const fs::path path = scratch() / name;
      fs::remove(path);
      REQUIRE(shell(run + " --seed " + seed + " --threads 1 --blocks " + blocks + " --checkpoint " + path.string()) == 0);
      return path.string();
    };
    const std::string a = slice("0:3", "a.state");
    const std::string b = slice("3:7", "b.state");
    const std::string c = slice("10:1e12", "c.state");
    const fs::path merged = scratch() / "merged.csv";
    for (const std::string& order : {c + " " + a + " " + b, b + " " + c + " " + a, a + " " + b + " " + c}) {
      CAPTURE(order);
      fs::remove(merged);
      REQUIRE(shell(bin + " merge " + order + " --quiet --csv " + merged.string()) == 0);
      CHECK(slurp(merged) == slurp(whole));
    }

    const fs::path err = scratch() / "merge_err.txt";
    const fs::path never = scratch() / "never.csv";
    const auto refused = [&](const std::string& states, const std::string& what) {
      CAPTURE(states);
      CHECK(shell(bin + " merge " + states + " --csv " + never.string() + " 2>" + err.string()) == 2);
      const std::string message = slurp(err);
      CHECK(std::count(message.begin(), message.end(), '\n') == 1);
      CHECK(message.find(what) != std::string::npos);
      CHECK_FALSE(fs::exists(never));
    };
    refused(a + " " + c, "blocks 3 to 9 of point 1 in no slice");
    refused(a + " " + b + " " + c + " " + slice("9:2", "d.state"), "in both");
    refused(a + " " + b + " " + slice("10:1e12", "e.state", "22"), "slices of different runs");
    // A slice writes its state only, and a whole run is not a slice.
    CHECK(shell(run + " --seed 21 --blocks 0:3 --checkpoint " + a + " --csv x.csv 2>/dev/null") == 2);
    const fs::path plain = scratch() / "plain.state";
    REQUIRE(shell(run + " --seed 21 --checkpoint " + plain.string() + " >/dev/null") == 0);
    refused(plain.string(), "not a slice");
    // The output never replaces a slice it reads.
    const std::string a_bytes = slurp(a);
    CHECK(shell(bin + " merge " + a + " " + b + " " + c + " --quiet --csv " + a + " 2>" + err.string()) == 2);
    CHECK(slurp(err).find("is the slice") != std::string::npos);
    CHECK(slurp(a) == a_bytes);
  }

  TEST_CASE("checkpoint: a disk that fills while checkpointing is exit 3 with one line - and the last checkpoint resumes") {
    // The file size limit (ulimit -f, KiB) stands for a full disk: the early
    // checkpoints fit, a later one (the stored maxima grow) does not.
    const std::string bin = LBMC_BINARY;
    const std::string run = bin + " maxload --n 64 --method brute --reps 3e6 --seed 41 --quiet --threads 2";
    const fs::path whole = scratch() / "whole.csv";
    const fs::path state = scratch() / "full.state";
    const fs::path csv = scratch() / "full.csv";
    const fs::path err = scratch() / "full_err.txt";
    fs::remove(state);
    REQUIRE(shell(run + " --csv " + whole.string()) == 0);
    const int code = shell("ulimit -f 4096; " + run + " --csv " + csv.string() + " --checkpoint " + state.string() +
                           " --checkpoint-every 0 2>" + err.string());
    CHECK(code == 3);
    const std::string message = slurp(err);
    CHECK(std::count(message.begin(), message.end(), '\n') == 1);
    CHECK(message.find(state.string()) != std::string::npos);
    CHECK_FALSE(fs::exists(csv));
    REQUIRE(fs::exists(state));
    CHECK(fs::file_size(state) <= 4096 * 1024);
    for (const auto& entry : fs::directory_iterator(scratch())) {
      CHECK(entry.path().filename().string().rfind(".full.state", 0) != 0);
    }
    REQUIRE(shell(bin + " resume " + state.string()) == 0);
    CHECK(slurp(csv) == slurp(whole));
  }

  TEST_CASE("checkpoint: due at every wave but written one at a time in the background - the output is one run's and the last state whole") {
    // 2^23 stored maxima (64 MiB at the end) in waves shorter than a write:
    // checkpoints fall due while the previous one is still being written.
    const std::string bin = LBMC_BINARY;
    const std::string run = bin + " maxload --n 64 --reps 8388608 --seed 43 --quiet --threads 2";
    const fs::path dir = scratch() / "background";
    fs::create_directories(dir);
    const fs::path whole = dir / "whole.csv";
    const fs::path csv = dir / "run.csv";
    const fs::path state = dir / "run.state";
    REQUIRE(shell(run + " --csv " + whole.string()) == 0);
    const auto temporaries = [&] {
      int n = 0;
      for (const auto& entry : fs::directory_iterator(dir)) n += entry.path().filename().string().front() == '.' ? 1 : 0;
      return n;
    };
    REQUIRE(shell(run + " --csv " + csv.string() + " --checkpoint " + state.string() + " --checkpoint-every 0") == 0);
    CHECK(slurp(csv) == slurp(whole));
    CHECK(temporaries() == 0);
    // The final state is whole when the process has exited: resuming it runs
    // nothing and writes the same bytes.
    fs::remove(csv);
    REQUIRE(shell(bin + " resume " + state.string() + " --threads 1 2>/dev/null") == 0);
    CHECK(slurp(csv) == slurp(whole));
    // Stopped while a write may be in flight: the state written on the way
    // out is whole, and resumes to the same bytes.
    for (const char* delay : {"0", "0.2"}) {
      CAPTURE(delay);
      fs::remove(state);
      fs::remove(csv);
      const int stopped = shell(run + " --csv " + csv.string() + " --checkpoint " + state.string() +
                                " --checkpoint-every 0 & pid=$!; while [ ! -e " + state.string() +
                                " ]; do sleep 0.01; done; sleep " + delay + "; kill -TERM $pid; wait $pid");
      CHECK((stopped == 130 || stopped == 0));
      CHECK(temporaries() == 0);
      REQUIRE(shell(bin + " resume " + state.string() + " 2>/dev/null") == 0);
      CHECK(slurp(csv) == slurp(whole));
    }
  }

  TEST_CASE("checkpoint: a background write that fails is exit 3 with one line naming the file - before any output") {
    // The folder goes away once the first checkpoint is there: a later
    // write, in the background, cannot create its file. It is renamed away,
    // in one step, so that a write in flight cannot keep it in place.
    const fs::path dir = scratch() / "vanishing";
    const fs::path gone = scratch() / "vanished";
    fs::remove_all(dir);
    fs::remove_all(gone);
    fs::create_directories(dir);
    const fs::path state = dir / "run.state";
    const fs::path csv = scratch() / "vanishing.csv";
    const fs::path err = scratch() / "vanishing_err.txt";
    fs::remove(csv);
    const int code = shell(std::string(LBMC_BINARY) +
                           " maxload --n 64 --method brute --reps 6e6 --seed 47 --quiet --threads 2 --csv " +
                           csv.string() + " --checkpoint " + state.string() + " --checkpoint-every 0 2>" +
                           err.string() + " & pid=$!; while [ ! -e " + state.string() +
                           " ]; do sleep 0.01; done; mv " + dir.string() + " " + gone.string() +
                           "; wait $pid; code=$?; rm -rf " + gone.string() + "; exit $code");
    CHECK(code == 3);
    const std::string message = slurp(err);
    CHECK(std::count(message.begin(), message.end(), '\n') == 1);
    CHECK(message.find(state.string()) != std::string::npos);
    CHECK_FALSE(fs::exists(csv));
  }

  TEST_CASE("extend: a run continued to more replications gives the bytes of one run of the total") {
    const std::string bin = LBMC_BINARY;
    // Replication counts that leave a short last block, then fill it.
    for (const std::string args : {"maxshift --dist binomial:20,0.4 --n 64,1024", "maxload --n 16,1000 --method brute",
                                   "scatter --tasks 10 --procs 100", "rebalance --n 64"}) {
      CAPTURE(args);
      const std::string run = bin + " " + args + " --seed 31 --quiet";
      const fs::path whole = scratch() / "whole.csv";
      const fs::path state = scratch() / "extend.state";
      const fs::path extended = scratch() / "extended.csv";
      fs::remove(state);
      REQUIRE(shell(run + " --reps 30001 --csv " + whole.string()) == 0);
      REQUIRE(shell(run + " --reps 10001 --checkpoint " + state.string() + " >/dev/null") == 0);
      REQUIRE(shell(bin + " extend " + state.string() + " --reps 30001 --csv " + extended.string()) == 0);
      CHECK(slurp(extended) == slurp(whole));
    }
    const fs::path state = scratch() / "extend.state";
    CHECK(shell(bin + " extend " + state.string() + " --reps 100 2>/dev/null") == 2);
    const fs::path target = scratch() / "target.state";
    REQUIRE(shell(bin + " maxload --n 16 --reps 1000 --target-rse 0.01 --seed 3 --quiet --checkpoint " +
                  target.string() + " >/dev/null") == 0);
    CHECK(shell(bin + " extend " + target.string() + " --reps 100000 2>/dev/null") == 2);
  }

  TEST_CASE("resume - extend: the display options of every command - same bytes") {
    const std::string bin = LBMC_BINARY;
    const fs::path state = scratch() / "display.state";
    const fs::path whole = scratch() / "display_whole.csv";
    const fs::path again = scratch() / "display_again.csv";
    fs::remove(state);
    REQUIRE(shell(bin + " maxload --n 16 --reps 2e4 --seed 5 --progress never --checkpoint " + state.string() +
                  " --csv " + whole.string() + " 2>/dev/null") == 0);
    for (const std::string command : {"resume", "extend"}) {
      CAPTURE(command);
      const std::string more = command == "extend" ? " --reps 2e4" : "";
      const lbmc::test::Captured r = lbmc::test::run_captured(
          bin + " " + command + " " + state.string() + more + " --progress never --quiet --csv " + again.string(),
          scratch());
      CHECK(r.code == 0);
      CHECK(r.err.empty());
      CHECK(slurp(again) == slurp(whole));
    }
    // A bad value is the stored command's one line, exit 2, and no file.
    fs::remove(again);
    const lbmc::test::Captured bad = lbmc::test::run_captured(
        bin + " resume " + state.string() + " --progress bogus --csv " + again.string(), scratch());
    CHECK(bad.code == 2);
    CHECK(lbmc::test::count_of(bad.err, "\n") == 1);
    CHECK(bad.err.find("--progress") != std::string::npos);
    CHECK_FALSE(fs::exists(again));
  }
}

}  // namespace run_state_test
