// Fingerprints of the input files a run reads.
#include "lbmc/engine/input_file.hpp"

#include <algorithm>
#include <optional>
#include <utility>

#include <fmt/format.h>
#include <zlib.h>

#include "lbmc/engine/errors.hpp"

namespace lbmc::engine {

std::uint32_t crc32_of(std::span<const std::byte> bytes, std::uint32_t start) {
  uLong crc = start;
  const auto* at = reinterpret_cast<const Bytef*>(bytes.data());
  std::size_t left = bytes.size();
  // zlib takes 32-bit lengths.
  while (left > 0) {
    const auto piece = static_cast<uInt>(std::min<std::size_t>(left, std::size_t{1} << 30));
    crc = ::crc32(crc, at, piece);
    at += piece;
    left -= piece;
  }
  return static_cast<std::uint32_t>(crc);
}

InputFile fingerprint_of(std::string path, std::span<const std::byte> content) {
  return {std::move(path), content.size(), crc32_of(content)};
}

void add_input(std::vector<InputFile>& files, const InputFile& file) {
  const auto noted = std::find_if(files.begin(), files.end(), [&](const InputFile& f) { return f.path == file.path; });
  if (noted == files.end()) {
    files.push_back(file);
  } else if (!(*noted == file)) {
    throw InputError(fmt::format("{}: the file changed while this run read it ({}, then {})", file.path,
                                 describe_fingerprint(*noted), describe_fingerprint(file)));
  }
}

std::string describe_fingerprint(const InputFile& file) {
  return fmt::format("{} bytes, CRC-32 {:#010x}", file.bytes, file.crc32);
}

std::optional<InputMismatch> first_mismatch(const std::vector<InputFile>& first, const std::vector<InputFile>& second) {
  const auto described = [](const std::vector<InputFile>& files, const std::string& path) {
    const auto f = std::find_if(files.begin(), files.end(), [&](const InputFile& file) { return file.path == path; });
    return f == files.end() ? std::string("not read") : describe_fingerprint(*f);
  };
  for (const auto* files : {&first, &second}) {
    for (const InputFile& file : *files) {
      InputMismatch m{file.path, described(first, file.path), described(second, file.path)};
      if (m.first != m.second) return m;
    }
  }
  return std::nullopt;
}

}  // namespace lbmc::engine
