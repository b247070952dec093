// Portable bytes of accumulators.
//
// An accumulator crosses a process boundary (an MPI rank sending its blocks'
// partial results, a state file) as bytes written by ByteWriter and read back
// by ByteReader. The encoding is fixed, whatever the machine: integers as
// 64-bit (or 32-bit, or 8-bit) two's complement little-endian, doubles as the
// little-endian bytes of their IEEE-754 binary64 pattern (bit for bit, NaN
// payloads and the sign of zero included), sequences as a 64-bit length and
// their elements. A reader that runs past the end, or finds a length larger
// than what is left, throws RuntimeFailure: bytes that do not describe an
// accumulator are never read as one.
//
// An accumulator is written by `save(ByteWriter&) const` and read by
// `load(ByteReader&)`, or, for a sample listing its members in `fields(self)`,
// by the rules of fields.hpp.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "lbmc/engine/errors.hpp"

namespace lbmc::engine {

class ByteWriter {
 public:
  //! Sequences of doubles of at least this many bytes that a borrowing
  //! writer refers to instead of copying.
  static constexpr std::size_t kBorrowedBytes = std::size_t{1} << 14;

  ByteWriter() = default;
  //! A writer that refers to long sequences of doubles where they lie
  //! instead of copying them: its bytes are pieces(), valid while those
  //! sequences are unchanged (data() holds the copied bytes alone). For bytes
  //! sent at once, such as the total MPI rank 0 sends every rank.
  static ByteWriter borrowing() {
    ByteWriter writer;
    writer.borrowing_ = true;
    return writer;
  }

  void u8(std::uint8_t v) { bytes_.push_back(static_cast<std::byte>(v)); }
  void u32(std::uint32_t v) {
    for (int i = 0; i < 4; ++i) u8(static_cast<std::uint8_t>(v >> (8 * i)));
  }
  void u64(std::uint64_t v) {
    for (int i = 0; i < 8; ++i) u8(static_cast<std::uint8_t>(v >> (8 * i)));
  }
  void i64(std::int64_t v) { u64(static_cast<std::uint64_t>(v)); }
  void f64(double v) { u64(std::bit_cast<std::uint64_t>(v)); }
  void boolean(bool v) { u8(v ? 1 : 0); }
  void f64s(std::span<const double> vs) {
    u64(vs.size());
    f64s_elements(vs);
  }
  //! The elements alone: a sequence written in parts after its length.
  void f64s_elements(std::span<const double> vs) {
    if constexpr (std::endian::native == std::endian::little) {
      // The encoding is the memory image on a little-endian machine.
      const auto image = std::as_bytes(vs);
      if (borrowing_ && image.size() >= kBorrowedBytes) {
        borrowed_.push_back({bytes_.size(), image});
        return;
      }
      bytes_.insert(bytes_.end(), image.begin(), image.end());
    } else {
      for (const double v : vs) f64(v);
    }
  }
  void text(std::string_view s) {
    u64(s.size());
    for (const char c : s) u8(static_cast<std::uint8_t>(c));
  }
  //! A nested byte string (length first).
  void bytes(std::span<const std::byte> b) {
    u64(b.size());
    bytes_.insert(bytes_.end(), b.begin(), b.end());
  }

  //! Room for `count` more bytes (growing geometrically, as appending does).
  void reserve(std::size_t count) {
    if (borrowing_) return;  // what is reserved for is mostly borrowed
    if (bytes_.capacity() - bytes_.size() < count) {
      bytes_.reserve(std::max(bytes_.size() + count, 2 * bytes_.capacity()));
    }
  }

  const std::vector<std::byte>& data() const noexcept { return bytes_; }
  std::vector<std::byte> take() noexcept { return std::move(bytes_); }
  //! Empties the writer, keeping its memory for the next bytes.
  void clear() noexcept {
    bytes_.clear();
    borrowed_.clear();
  }
  //! Every byte written, in order: runs of copied bytes and, in their
  //! places, the borrowed sequences.
  std::vector<std::span<const std::byte>> pieces() const {
    std::vector<std::span<const std::byte>> pieces;
    const std::span<const std::byte> copied(bytes_);
    std::size_t at = 0;
    for (const Borrowed& b : borrowed_) {
      if (b.offset > at) pieces.push_back(copied.subspan(at, b.offset - at));
      pieces.push_back(b.bytes);
      at = b.offset;
    }
    if (at < copied.size()) pieces.push_back(copied.subspan(at));
    return pieces;
  }

 private:
  // A borrowed sequence, which comes before the copied byte at `offset`.
  struct Borrowed {
    std::size_t offset = 0;
    std::span<const std::byte> bytes;
  };
  std::vector<std::byte> bytes_;
  bool borrowing_ = false;
  std::vector<Borrowed> borrowed_;
};

class ByteReader {
 public:
  explicit ByteReader(std::span<const std::byte> bytes) : bytes_(bytes) {}

  std::uint8_t u8() {
    need(1);
    return static_cast<std::uint8_t>(bytes_[at_++]);
  }
  std::uint32_t u32() {
    need(4);
    std::uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v |= std::uint32_t{static_cast<std::uint8_t>(bytes_[at_++])} << (8 * i);
    return v;
  }
  std::uint64_t u64() {
    need(8);
    std::uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v |= std::uint64_t{static_cast<std::uint8_t>(bytes_[at_++])} << (8 * i);
    return v;
  }
  std::int64_t i64() { return static_cast<std::int64_t>(u64()); }
  double f64() { return std::bit_cast<double>(u64()); }
  bool boolean() {
    const std::uint8_t v = u8();
    if (v > 1) throw RuntimeFailure("corrupt accumulator bytes: a flag is neither 0 nor 1");
    return v == 1;
  }
  //! A sequence of doubles, into a new Vector (a ScratchVector skips the
  //! zeroing its elements would get before being overwritten).
  template <class Vector = std::vector<double>>
  Vector f64s() {
    const std::size_t n = length(8);
    Vector vs(n);
    if constexpr (std::endian::native == std::endian::little) {
      if (n > 0) std::memcpy(vs.data(), bytes_.data() + at_, n * sizeof(double));
      at_ += n * sizeof(double);
    } else {
      for (double& v : vs) v = f64();
    }
    return vs;
  }
  std::string text() {
    const std::size_t n = length(1);
    std::string s(n, '\0');
    for (char& c : s) c = static_cast<char>(u8());
    return s;
  }
  std::span<const std::byte> bytes() {
    const std::size_t n = length(1);
    const auto out = bytes_.subspan(at_, n);
    at_ += n;
    return out;
  }
  //! A sequence length whose elements (of `element_bytes` each) fit in what is left.
  std::size_t length(std::size_t element_bytes) {
    const std::uint64_t n = u64();
    if (n > (bytes_.size() - at_) / element_bytes) throw RuntimeFailure("corrupt accumulator bytes: a length runs past the end");
    return static_cast<std::size_t>(n);
  }

  bool at_end() const noexcept { return at_ == bytes_.size(); }
  //! Throws unless every byte was read.
  void expect_end() const {
    if (!at_end()) throw RuntimeFailure("corrupt accumulator bytes: trailing bytes");
  }

 private:
  void need(std::size_t n) const {
    if (bytes_.size() - at_ < n) throw RuntimeFailure("corrupt accumulator bytes: truncated");
  }

  std::span<const std::byte> bytes_;
  std::size_t at_ = 0;
};

}  // namespace lbmc::engine
