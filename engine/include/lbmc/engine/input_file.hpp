// The input files a run's results depend on (measured task times), each
// known by the length and CRC-32 of the bytes the run read.
//
// Design note
// - A state file (run_state.hpp) stores the command line, not the data its
//   file arguments named. It stores each such file's fingerprint as well,
//   and a resumed, extended or merged run that reads other bytes under the
//   same name is refused (RunJournal::check_restored_inputs), and so are
//   slices that read different bytes (merge_slices): the output would mix
//   two workloads and match no single run.
// - CRC-32 (zlib's, the gzip polynomial) detects every change of up to 32
//   adjacent bits and any other change but for a chance of 2^-32; the
//   length is compared as well. It costs about 0.2 ns a byte (zlib), a
//   small part of the cost of parsing the numbers.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace lbmc::engine {

//! zlib's CRC-32 of `bytes`, continuing `start` (0 to begin).
std::uint32_t crc32_of(std::span<const std::byte> bytes, std::uint32_t start = 0);

//! A file as a run read it: its name as given, its length and checksum.
struct InputFile {
  std::string path;
  std::uint64_t bytes = 0;
  std::uint32_t crc32 = 0;
  friend bool operator==(const InputFile&, const InputFile&) = default;
};

//! The fingerprint of `content`, read from `path`.
InputFile fingerprint_of(std::string path, std::span<const std::byte> content);

//! Adds `file` to `files` unless a file of its name is there; throws
//! InputError when that one has other bytes (the file changed between two
//! reads of one run).
void add_input(std::vector<InputFile>& files, const InputFile& file);

//! "1234 bytes, CRC-32 0x89abcdef".
std::string describe_fingerprint(const InputFile& file);

//! A file two runs did not read alike: each side described as "1234 bytes,
//! CRC-32 0x89abcdef", or "not read".
struct InputMismatch {
  std::string path;
  std::string first;
  std::string second;
};

//! The first file, in the order of `first` and then of `second`, that the
//! two runs did not read with the same bytes; nothing when they agree.
std::optional<InputMismatch> first_mismatch(const std::vector<InputFile>& first, const std::vector<InputFile>& second);

}  // namespace lbmc::engine
