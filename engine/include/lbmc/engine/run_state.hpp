// A run's state as a file: what `--checkpoint` writes and `lbmc resume` reads.
//
// A command's run is a sequence of driver calls (one per parameter point, in
// an order fixed by its options). The state holds the command's arguments
// (with the seed made explicit), the lbmc version, and per call the plan
// that identifies it and the nodes of its block reduction (reduction.hpp) as
// portable bytes (serial.hpp). Running the same arguments with the state
// preloaded skips every block a node covers and merges the same subtrees in
// the same order, so a resumed run writes the bytes of an uninterrupted one.
//
// File format, version 1: the 10 bytes "LBMCSTATE\n", the format version as
// a 32-bit little-endian integer, the length of the body as a 64-bit
// little-endian integer, the body (CBOR, nlohmann-json, with byte strings
// for the nodes), and the CRC-32 (zlib's, the gzip polynomial) of everything
// before it, 32-bit little-endian. Files are written beside the target, flushed to disk and
// renamed over it, so a crash at any instant leaves the previous file.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

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
};

inline constexpr std::uint32_t kRunStateFormat = 1;

//! The file's bytes.
std::vector<std::byte> encode_run_state(const RunState& state);
//! Throws InputError naming `path` and what is wrong: not a state file,
//! another format version, a wrong checksum, a truncated or malformed body.
RunState decode_run_state(const std::vector<std::byte>& bytes, const std::string& path);

//! Writes atomically and durably (temporary file, fsync, rename, fsync of
//! the folder); throws RuntimeFailure on I/O errors.
void write_run_state(const std::string& path, const RunState& state);
//! The same with the bytes already encoded (encode_run_state).
void write_run_state_bytes(const std::string& path, const std::vector<std::byte>& bytes);
//! Reads and decodes; throws InputError when the file cannot be read.
RunState read_run_state(const std::string& path);

//! The blocks of a call, [0, blocks_of(identity)) (fixed-length runs).
std::int64_t blocks_of(const CallIdentity& identity);

//! One state from the slices of one run (`states[i]` read from `paths[i]`,
//! each run with --blocks): every call must have the same plan in every
//! slice, and the slices' nodes must cover each call's blocks exactly once.
//! Throws InputError naming the files and the missing or repeated blocks.
//! The result holds the first slice's version and arguments, and every call
//! finished.
RunState merge_slices(const std::vector<RunState>& states, const std::vector<std::string>& paths);

}  // namespace lbmc::engine
