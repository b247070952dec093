// The background writer of checkpoints (engine/checkpoint_writer.hpp): the
// file it writes is encode_run_state's, whole when a write ends, even at
// the writer's destruction; a failed write is thrown once, on the owner's
// thread, and leaves the previous file and no temporary one.
#include <doctest/doctest.h>

#include <chrono>
#include <cstddef>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "lbmc/engine/checkpoint_writer.hpp"
#include "lbmc/engine/errors.hpp"
#include "lbmc/engine/run_state.hpp"
#include "support/files.hpp"

namespace checkpoint_writer_test {

namespace fs = std::filesystem;
using namespace lbmc::engine;

namespace {

const fs::path& scratch() {
  static const fs::path dir = lbmc::test::scratch_folder("checkpoint_writer_test");
  return dir;
}

// A state of one call whose nodes hold `megabytes` MiB in all.
RunState state_of(std::size_t megabytes) {
  RunState s;
  s.version = "lbmc 1.2.3";
  s.arguments = {"maxload", "--seed", "7"};
  CallState call;
  call.identity = {7, 1000, 1000, 1, std::nullopt};
  call.next = 2;
  call.nodes.push_back({1, 0, std::vector<std::byte>(megabytes << 20, std::byte{0x5a})});
  call.nodes.push_back({0, 2, {std::byte{1}, std::byte{2}}});
  s.calls.push_back(call);
  return s;
}

std::string bytes_text(const std::vector<std::byte>& bytes) {
  return std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size());
}

// The folder's temporary files (".NAME...").
int temporaries(const fs::path& dir) {
  int n = 0;
  for (const auto& entry : fs::directory_iterator(dir)) n += entry.path().filename().string().front() == '.' ? 1 : 0;
  return n;
}

}  // namespace

TEST_SUITE("fast") {
  TEST_CASE("checkpoint writer: the encoded pieces take over large node bytes and are the file but its checksum") {
    RunState s = state_of(1);
    const std::byte* large = s.calls[0].nodes[0].bytes.data();
    const std::vector<std::byte> whole = encode_run_state(s);
    const EncodedRunState encoded = encode_run_state_pieces(std::move(s));
    bool moved = false;
    std::string joined;
    for (const auto& piece : encoded.pieces) {
      moved = moved || piece.data() == large;
      joined += bytes_text(piece);
    }
    CHECK(moved);
    const auto checksum = run_state_checksum(encoded);
    joined += bytes_text(std::vector<std::byte>(checksum.begin(), checksum.end()));
    CHECK(joined == bytes_text(whole));
    CHECK(decode_run_state(whole, "x").calls[0].nodes[0].bytes.size() == std::size_t{1} << 20);
  }

  TEST_CASE("checkpoint writer: a write in the background gives encode_run_state's file - whole once it ended") {
    const fs::path dir = scratch() / "whole";
    fs::create_directories(dir);
    const fs::path path = dir / "run.state";
    CheckpointWriter writer;
    CHECK_FALSE(writer.busy());
    writer.start(path.string(), encode_run_state_pieces(state_of(8)));
    writer.wait();
    CHECK_FALSE(writer.busy());
    CHECK(lbmc::test::slurp(path) == bytes_text(encode_run_state(state_of(8))));
    CHECK(temporaries(dir) == 0);
    // The destructor waits for a write in flight: the file is whole after it.
    {
      CheckpointWriter last;
      last.start(path.string(), encode_run_state_pieces(state_of(32)));
    }
    CHECK(read_run_state(path.string()).calls[0].nodes[0].bytes.size() == std::size_t{32} << 20);
    CHECK(temporaries(dir) == 0);
  }

  TEST_CASE("checkpoint writer: a failed write is thrown once - by check() after it ended or by wait() - naming the file") {
    const fs::path missing = scratch() / "no-such-folder" / "run.state";
    CheckpointWriter writer;
    writer.start(missing.string(), encode_run_state_pieces(state_of(1)));
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (writer.busy() && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    REQUIRE_FALSE(writer.busy());
    try {
      writer.check();
      FAIL("the failure was not thrown");
    } catch (const RuntimeFailure& e) {
      CHECK(std::string(e.what()).find(missing.string()) != std::string::npos);
    }
    CHECK_NOTHROW(writer.check());
    CHECK_NOTHROW(writer.wait());

    writer.start(missing.string(), encode_run_state_pieces(state_of(1)));
    CHECK_THROWS_AS(writer.wait(), RuntimeFailure);
    CHECK_NOTHROW(writer.wait());
    // drop() forgets it; a new write then starts afresh.
    writer.start(missing.string(), encode_run_state_pieces(state_of(1)));
    writer.drop();
    const fs::path dir = scratch() / "after";
    fs::create_directories(dir);
    writer.start((dir / "run.state").string(), encode_run_state_pieces(state_of(1)));
    CHECK_NOTHROW(writer.wait());
    CHECK(temporaries(dir) == 0);
  }
}

}  // namespace checkpoint_writer_test
