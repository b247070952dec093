// A run's state as a file: what `--checkpoint` writes and `lbmc resume` reads.
//
// A command's run is a sequence of driver calls (one per parameter point, in
// an order fixed by its options). The state holds the command's arguments
// (with the seed made explicit), the lbmc version, and per call the plan
// that identifies it and the nodes of its block reduction (reduction.hpp) as
// portable bytes (serial.hpp), and the length and CRC-32 of every input file
// the run read (input_file.hpp), so that it never goes on with other data. Running the same arguments with the state
// preloaded skips every block a node covers and merges the same subtrees in
// the same order, so a resumed run writes the bytes of an uninterrupted one.
//
// File format, version 2: the 10 bytes "LBMCSTATE\n", the format version as
// a 32-bit little-endian integer, the length of the body as a 64-bit
// little-endian integer, the body (CBOR with byte strings for the nodes,
// read by nlohmann-json), and the CRC-32 (zlib's, the gzip polynomial) of
// everything before it, 32-bit little-endian. Files are written beside the
// target, flushed to disk and renamed over it, so a crash at any instant
// leaves the previous file.
//
// Memory: a checkpoint is encoded into pieces (EncodedRunState) that take
// over the nodes' bytes instead of copying them, so writing a state holds
// one encoded copy beside the run's accumulators; the checksum is computed
// by whoever writes the pieces (run_state_file.cpp), off the simulating
// threads when a checkpoint is written in the background
// (checkpoint_writer.hpp).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "lbmc/engine/input_file.hpp"

namespace lbmc::engine {

//! The plan of one driver call, which a resumed run must reproduce.
struct CallIdentity {
  std::uint64_t seed = 0;
  std::int64_t reps = 0;
  std::int64_t max_reps = 0;
  std::int64_t block_reps = 0;
  std::optional<double> target_rse;
  friend bool operator==(const CallIdentity&, const CallIdentity&) = default;
};

struct NodeState {
  int level = 0;
  std::int64_t index = 0;
  std::vector<std::byte> bytes;  //!< the accumulator, by to_bytes
};

struct CallState {
  CallIdentity identity;
  bool finished = false;  //!< every block ran (or the target was met)
  //! The wave boundary reached, and whether the stopping rule of a
  //! --target-rse run was consulted there already (the run went on).
  std::int64_t next = 0;
  bool decided = false;
  std::vector<NodeState> nodes;
};

struct RunState {
  std::string version;                 //!< lbmc's version line
  std::vector<std::string> arguments;  //!< the command line after "lbmc"
  std::vector<CallState> calls;
  std::vector<InputFile> inputs;  //!< the files its data came from (measured times)
};

inline constexpr std::uint32_t kRunStateFormat = 2;

//! A state file's bytes but its 4-byte checksum, in pieces in file order:
//! the header and the CBOR around the nodes, and each large node's bytes as
//! a piece of its own, taken over from the state.
struct EncodedRunState {
  std::vector<std::vector<std::byte>> pieces;
};

//! Encodes `state`, taking over its node bytes (pass a copy to keep them).
EncodedRunState encode_run_state_pieces(RunState state);
//! The checksum that ends the file: the CRC-32 of every piece, little-endian.
std::array<std::byte, 4> run_state_checksum(const EncodedRunState& encoded);
//! The file's bytes.
std::vector<std::byte> encode_run_state(const RunState& state);
//! Throws InputError naming `path` and what is wrong: not a state file,
//! another format version, a wrong checksum, a truncated or malformed body.
RunState decode_run_state(const std::vector<std::byte>& bytes, const std::string& path);

//! Writes the pieces and their checksum atomically and durably (a
//! temporary file beside `path`, fsync, rename, fsync of the folder);
//! throws RuntimeFailure naming `path` on I/O errors, leaving no temporary
//! file and the previous file as it was (run_state_file.cpp).
void write_run_state_file(const std::string& path, const EncodedRunState& encoded);
//! The same for a state (copied).
void write_run_state(const std::string& path, const RunState& state);
//! Reads and decodes; throws InputError when the file cannot be read.
RunState read_run_state(const std::string& path);

//! The blocks of a call, [0, blocks_of(identity)) (fixed-length runs).
std::int64_t blocks_of(const CallIdentity& identity);

//! One state from the slices of one run (`states[i]` read from `paths[i]`,
//! each run with --blocks): every call must have the same plan in every
//! slice, and the slices' nodes must cover each call's blocks exactly once.
//! Throws InputError naming the files and the missing or repeated blocks.
//! Every slice must have read the same input files (input_file.hpp). The
//! result holds the first slice's version, arguments and inputs, and every
//! call finished.
RunState merge_slices(const std::vector<RunState>& states, const std::vector<std::string>& paths);

}  // namespace lbmc::engine
