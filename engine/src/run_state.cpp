// Encoding and decoding of run-state files, and merging slices.
//
// The body is written by a small CBOR writer of its own (RFC 8949: definite
// lengths, the shortest heads, doubles in 8 bytes, the keys in nlohmann's
// order, so the bytes nlohmann wrote but for a target_rse that fits a
// float) straight into pieces: a node's bytes move into the file instead of
// being copied through a JSON document and a CBOR buffer. It is read back by
// nlohmann's parser after a check without recursion (below).
#include "lbmc/engine/run_state.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <string_view>
#include <utility>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "lbmc/engine/errors.hpp"
#include "lbmc/engine/input_file.hpp"
#include "lbmc/engine/reduction.hpp"
#include "lbmc/engine/serial.hpp"

namespace lbmc::engine {
namespace {

constexpr std::string_view kMagic = "LBMCSTATE\n";

// nlohmann's CBOR reader descends into nested arrays, maps and chunks of
// indefinite-length strings by recursion, so a body nested deeper than a
// state ever is (4 levels) could exhaust the stack. A state is checked
// first, without recursion, to hold definite-length items only (what
// encode_run_state writes) nested at most kMaxCborDepth deep; RFC 8949 §3
// gives the layout of an item's head.
constexpr std::size_t kMaxCborDepth = 16;

bool shallow_definite_cbor(std::span<const std::byte> body) {
  std::vector<std::uint64_t> open;  // items still to read in each open array or map
  std::size_t at = 0;
  open.push_back(1);  // the body is one item
  while (!open.empty()) {
    if (open.back() == 0) {
      open.pop_back();
      continue;
    }
    if (at >= body.size()) return false;
    const auto head = static_cast<std::uint8_t>(body[at++]);
    const int major = head >> 5;
    const int info = head & 0x1f;
    if (info >= 28) return false;  // reserved, or indefinite length
    std::uint64_t value = static_cast<std::uint64_t>(info);
    if (info >= 24) {
      const std::size_t width = std::size_t{1} << (info - 24);
      if (body.size() - at < width) return false;
      value = 0;
      for (std::size_t i = 0; i < width; ++i) value = (value << 8) | static_cast<std::uint8_t>(body[at++]);
    }
    --open.back();
    if (major == 2 || major == 3) {  // byte or text string
      if (value > body.size() - at) return false;
      at += static_cast<std::size_t>(value);
    } else if (major == 4 || major == 5) {  // array, map
      if (value > body.size() - at) return false;  // each element takes a byte at least
      if (open.size() >= kMaxCborDepth) return false;
      open.push_back(major == 5 ? 2 * value : value);
    } else if (major == 6) {  // a tag: one more item follows at this level
      ++open.back();
    }
  }
  return at == body.size();
}

// Builds the document as nlohmann's own handler does, refusing nesting past
// kMaxCborDepth (checked already; kept as a guard).
class BoundedDepth final : public nlohmann::json_sax<nlohmann::json> {
 public:
  explicit BoundedDepth(nlohmann::json& into) : dom_(into, false) {}
  bool null() override { return dom_.null(); }
  bool boolean(bool v) override { return dom_.boolean(v); }
  bool number_integer(number_integer_t v) override { return dom_.number_integer(v); }
  bool number_unsigned(number_unsigned_t v) override { return dom_.number_unsigned(v); }
  bool number_float(number_float_t v, const string_t& s) override { return dom_.number_float(v, s); }
  bool string(string_t& v) override { return dom_.string(v); }
  bool binary(binary_t& v) override { return dom_.binary(v); }
  bool start_object(std::size_t n) override { return ++depth_ <= kMaxDepth && dom_.start_object(n); }
  bool key(string_t& v) override { return dom_.key(v); }
  bool end_object() override {
    --depth_;
    return dom_.end_object();
  }
  bool start_array(std::size_t n) override { return ++depth_ <= kMaxDepth && dom_.start_array(n); }
  bool end_array() override {
    --depth_;
    return dom_.end_array();
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override { return false; }

 private:
  static constexpr int kMaxDepth = static_cast<int>(kMaxCborDepth);
  nlohmann::detail::json_sax_dom_parser<nlohmann::json> dom_;
  int depth_ = 0;
};

// CBOR items (RFC 8949 §3) appended to pieces: heads and short strings to
// the open piece, the bytes of a large byte string as a piece of their own.
// Each item returns the writer, so that a map's key and value share a line.
class CborPieces {
 public:
  explicit CborPieces(std::vector<std::byte> first) : open_(std::move(first)) {}

  CborPieces& map(std::size_t entries) { return head(5, entries); }
  CborPieces& array(std::size_t items) { return head(4, items); }
  CborPieces& text(std::string_view s) {
    head(3, s.size());
    const auto* first = reinterpret_cast<const std::byte*>(s.data());
    open_.insert(open_.end(), first, first + s.size());
    return *this;
  }
  CborPieces& integer(std::int64_t v) {
    return v >= 0 ? head(0, static_cast<std::uint64_t>(v)) : head(1, static_cast<std::uint64_t>(-(v + 1)));
  }
  CborPieces& natural(std::uint64_t v) { return head(0, v); }
  CborPieces& boolean(bool v) { return byte(v ? 0xf5 : 0xf4); }
  CborPieces& null() { return byte(0xf6); }
  CborPieces& real(double v) { return byte(0xfb).big_endian(std::bit_cast<std::uint64_t>(v), 8); }
  CborPieces& bytes(std::vector<std::byte> b) {
    head(2, b.size());
    if (b.size() < kOwnPiece) {
      open_.insert(open_.end(), b.begin(), b.end());
    } else {
      pieces_.push_back(std::exchange(open_, {}));
      pieces_.push_back(std::move(b));
    }
    return *this;
  }

  EncodedRunState take() && {
    pieces_.push_back(std::move(open_));
    return {std::move(pieces_)};
  }

 private:
  static constexpr std::size_t kOwnPiece = std::size_t{1} << 16;

  CborPieces& byte(unsigned v) {
    open_.push_back(static_cast<std::byte>(v));
    return *this;
  }
  CborPieces& big_endian(std::uint64_t v, int width) {
    for (int i = width - 1; i >= 0; --i) byte(static_cast<unsigned>((v >> (8 * i)) & 0xff));
    return *this;
  }
  // The shortest head: the value in the initial byte below 24, else in 1, 2,
  // 4 or 8 bytes after it (additional information 24 to 27).
  CborPieces& head(unsigned major, std::uint64_t value) {
    if (value < 24) return byte((major << 5) | static_cast<unsigned>(value));
    const int width = value <= 0xff ? 1 : value <= 0xffff ? 2 : value <= 0xffffffffULL ? 4 : 8;
    return byte((major << 5) | static_cast<unsigned>(24 + std::countr_zero(static_cast<unsigned>(width))))
        .big_endian(value, width);
  }

  std::vector<std::vector<std::byte>> pieces_;
  std::vector<std::byte> open_;
};

// A call as a map, in nlohmann's key order; its nodes' bytes move out.
void write_call(CborPieces& out, CallState call) {
  const CallIdentity& id = call.identity;
  out.map(9);
  out.text("block_reps").integer(id.block_reps);
  out.text("decided").boolean(call.decided);
  out.text("finished").boolean(call.finished);
  out.text("max_reps").integer(id.max_reps);
  out.text("next").integer(call.next);
  out.text("nodes").array(call.nodes.size());
  for (NodeState& node : call.nodes) {
    out.map(3);
    out.text("bytes").bytes(std::move(node.bytes));
    out.text("index").integer(node.index);
    out.text("level").integer(node.level);
  }
  out.text("reps").integer(id.reps);
  out.text("seed").natural(id.seed);
  out.text("target_rse");
  if (id.target_rse) {
    out.real(*id.target_rse);
  } else {
    out.null();
  }
}

CallState call_from_json(const nlohmann::json& j) {
  CallState call;
  call.identity.seed = j.at("seed").get<std::uint64_t>();
  call.identity.reps = j.at("reps").get<std::int64_t>();
  call.identity.max_reps = j.at("max_reps").get<std::int64_t>();
  call.identity.block_reps = j.at("block_reps").get<std::int64_t>();
  if (!j.at("target_rse").is_null()) call.identity.target_rse = j.at("target_rse").get<double>();
  call.finished = j.at("finished").get<bool>();
  call.next = j.at("next").get<std::int64_t>();
  call.decided = j.at("decided").get<bool>();
  const CallIdentity& id = call.identity;
  if (id.reps < 1 || id.max_reps < 1 || id.block_reps < 1 || call.next < 0 ||
      (id.target_rse && !(*id.target_rse > 0.0))) {
    throw std::out_of_range("a run's plan out of range");
  }
  for (const auto& node : j.at("nodes")) {
    NodeState n;
    n.level = node.at("level").get<int>();
    n.index = node.at("index").get<std::int64_t>();
    if (n.level < 0 || n.level > 62 || n.index < 0 || n.index >= (std::int64_t{1} << (62 - n.level))) {
      throw std::out_of_range("a node outside the block tree");
    }
    const auto& bytes = node.at("bytes").get_binary();
    n.bytes.resize(bytes.size());
    if (!bytes.empty()) std::memcpy(n.bytes.data(), bytes.data(), bytes.size());
    call.nodes.push_back(std::move(n));
  }
  return call;
}

}  // namespace

EncodedRunState encode_run_state_pieces(RunState state) {
  ByteWriter head;
  for (const char c : kMagic) head.u8(static_cast<std::uint8_t>(c));
  head.u32(kRunStateFormat);
  head.u64(0);  // the body's length, set below
  const std::size_t header = head.data().size();
  CborPieces out(head.take());
  out.map(4);
  out.text("arguments").array(state.arguments.size());
  for (const std::string& argument : state.arguments) out.text(argument);
  out.text("calls").array(state.calls.size());
  for (CallState& call : state.calls) write_call(out, std::move(call));
  out.text("inputs").array(state.inputs.size());
  for (const InputFile& file : state.inputs) {
    out.map(3);
    out.text("bytes").natural(file.bytes);
    out.text("crc32").natural(file.crc32);
    out.text("path").text(file.path);
  }
  out.text("version").text(state.version);
  EncodedRunState encoded = std::move(out).take();
  std::uint64_t length = 0;
  for (const auto& piece : encoded.pieces) length += piece.size();
  length -= header;
  for (std::size_t i = 0; i < 8; ++i) {
    encoded.pieces.front()[kMagic.size() + 4 + i] = static_cast<std::byte>(length >> (8 * i));
  }
  return encoded;
}

std::array<std::byte, 4> run_state_checksum(const EncodedRunState& encoded) {
  std::uint32_t crc = 0;
  for (const auto& piece : encoded.pieces) crc = crc32_of(piece, crc);
  std::array<std::byte, 4> bytes{};
  for (std::size_t i = 0; i < 4; ++i) bytes[i] = static_cast<std::byte>(crc >> (8 * i));
  return bytes;
}

std::vector<std::byte> encode_run_state(const RunState& state) {
  const EncodedRunState encoded = encode_run_state_pieces(state);
  std::vector<std::byte> bytes;
  for (const auto& piece : encoded.pieces) bytes.insert(bytes.end(), piece.begin(), piece.end());
  const std::array<std::byte, 4> checksum = run_state_checksum(encoded);
  bytes.insert(bytes.end(), checksum.begin(), checksum.end());
  return bytes;
}

RunState decode_run_state(const std::vector<std::byte>& bytes, const std::string& path) {
  const auto fail = [&](std::string_view what) { return InputError(fmt::format("state file '{}': {}", path, what)); };
  const std::size_t header = kMagic.size() + 4 + 8;
  if (bytes.size() < kMagic.size() ||
      !std::equal(kMagic.begin(), kMagic.end(), bytes.begin(), [](char c, std::byte b) { return c == static_cast<char>(b); })) {
    throw fail("not an lbmc state file");
  }
  if (bytes.size() < header + 4) throw fail("truncated");
  const std::span<const std::byte> all(bytes);
  ByteReader head(all.subspan(kMagic.size(), 12));
  const std::uint32_t format = head.u32();
  if (format != kRunStateFormat) {
    throw fail(fmt::format("format version {}, this lbmc reads version {}", format, kRunStateFormat));
  }
  const std::uint64_t length = head.u64();
  if (length != bytes.size() - header - 4) throw fail("truncated or extended (the body length does not match)");
  ByteReader tail(all.subspan(bytes.size() - 4));
  if (tail.u32() != crc32_of(all.first(bytes.size() - 4))) throw fail("corrupted (the checksum does not match)");
  try {
    const auto body_bytes = all.subspan(header, length);
    if (!shallow_definite_cbor(body_bytes)) throw std::runtime_error("not CBOR, or nested too deep");
    nlohmann::json body;
    BoundedDepth sax(body);
    const auto* first = reinterpret_cast<const std::uint8_t*>(body_bytes.data());
    if (!nlohmann::json::sax_parse(first, first + body_bytes.size(), &sax, nlohmann::json::input_format_t::cbor)) {
      throw std::runtime_error("not CBOR, or nested too deep");
    }
    RunState state;
    state.version = body.at("version").get<std::string>();
    state.arguments = body.at("arguments").get<std::vector<std::string>>();
    for (const auto& call : body.at("calls")) state.calls.push_back(call_from_json(call));
    for (const auto& file : body.at("inputs")) {
      state.inputs.push_back({file.at("path").get<std::string>(), file.at("bytes").get<std::uint64_t>(),
                              file.at("crc32").get<std::uint32_t>()});
    }
    return state;
  } catch (const std::exception& e) {
    throw fail(fmt::format("malformed body ({})", e.what()));
  }
}

std::int64_t blocks_of(const CallIdentity& identity) {
  return (identity.reps + identity.block_reps - 1) / identity.block_reps;
}

RunState merge_slices(const std::vector<RunState>& states, const std::vector<std::string>& paths) {
  if (states.empty()) throw InputError("no state files");
  // "block 4" or "blocks 4 to 9".
  const auto blocks_text = [](std::int64_t first, std::int64_t last) {
    return first == last ? fmt::format("block {}", first) : fmt::format("blocks {} to {}", first, last);
  };
  RunState merged;
  merged.version = states.front().version;
  merged.arguments = states.front().arguments;
  merged.inputs = states.front().inputs;
  const std::size_t calls = states.front().calls.size();
  for (std::size_t s = 1; s < states.size(); ++s) {
    if (const auto m = first_mismatch(merged.inputs, states[s].inputs)) {
      throw InputError(fmt::format("'{}' and '{}' are slices of runs that read different data ({}: {} against {})",
                                   paths[0], paths[s], m->path, m->first, m->second));
    }
    if (states[s].calls.size() != calls) {
      throw InputError(
          fmt::format("'{}' holds {} parameter points, '{}' {}", paths[0], calls, paths[s], states[s].calls.size()));
    }
  }
  for (std::size_t c = 0; c < calls; ++c) {
    CallState call;
    call.identity = states.front().calls[c].identity;
    if (call.identity.target_rse) throw InputError(fmt::format("'{}' is not a slice of a fixed-length run", paths[0]));
    // Every node with the slice it came from, in block order.
    std::vector<std::pair<NodeId, std::size_t>> order;
    for (std::size_t s = 0; s < states.size(); ++s) {
      const CallState& part = states[s].calls[c];
      if (!(part.identity == call.identity)) {
        throw InputError(fmt::format("'{}' and '{}' differ in the seed or plan of point {}", paths[0], paths[s], c + 1));
      }
      for (std::size_t n = 0; n < part.nodes.size(); ++n) order.push_back({NodeId{part.nodes[n].level, part.nodes[n].index}, s});
      for (const NodeState& node : part.nodes) call.nodes.push_back(node);
    }
    std::sort(order.begin(), order.end(), [](const auto& a, const auto& b) { return a.first.first() < b.first.first(); });
    const std::int64_t blocks = blocks_of(call.identity);
    std::int64_t end = 0;
    std::size_t last_slice = 0;
    for (const auto& [id, slice] : order) {
      if (id.first() > end) {
        throw InputError(fmt::format("{} of point {} in no slice", blocks_text(end, id.first() - 1), c + 1));
      }
      if (id.first() < end) {
        throw InputError(fmt::format("{} of point {} in both '{}' and '{}'", blocks_text(id.first(), std::min(end, id.end()) - 1),
                                     c + 1, paths[last_slice], paths[slice]));
      }
      end = id.end();
      last_slice = slice;
    }
    if (end < blocks) {
      throw InputError(fmt::format("{} of point {} in no slice", blocks_text(end, blocks - 1), c + 1));
    }
    call.finished = true;
    call.next = blocks;
    merged.calls.push_back(std::move(call));
  }
  return merged;
}

}  // namespace lbmc::engine
