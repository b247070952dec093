// Encoding, decoding and durable writing of run-state files.
#include "lbmc/engine/run_state.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

#include <fcntl.h>
#include <fmt/format.h>
#include <zlib.h>
#include <nlohmann/json.hpp>
#include <sys/stat.h>
#include <unistd.h>

#include "lbmc/engine/errors.hpp"
#include "lbmc/engine/interrupt.hpp"
#include "lbmc/engine/reduction.hpp"
#include "lbmc/engine/serial.hpp"

namespace lbmc::engine {
namespace {

constexpr std::string_view kMagic = "LBMCSTATE\n";

std::uint32_t crc32_of(std::span<const std::byte> bytes) {
  // zlib's CRC-32 (the polynomial of Boost's crc_32_type and of gzip), fed in
  // pieces that fit its 32-bit lengths.
  uLong crc = ::crc32(0L, Z_NULL, 0);
  const auto* at = reinterpret_cast<const Bytef*>(bytes.data());
  std::size_t left = bytes.size();
  while (left > 0) {
    const auto piece = static_cast<uInt>(std::min<std::size_t>(left, std::size_t{1} << 30));
    crc = ::crc32(crc, at, piece);
    at += piece;
    left -= piece;
  }
  return static_cast<std::uint32_t>(crc);
}

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

nlohmann::json to_json(const CallState& call) {
  nlohmann::json nodes = nlohmann::json::array();
  for (const NodeState& node : call.nodes) {
    std::vector<std::uint8_t> bytes(node.bytes.size());
    if (!bytes.empty()) std::memcpy(bytes.data(), node.bytes.data(), bytes.size());
    nodes.push_back({{"level", node.level}, {"index", node.index}, {"bytes", nlohmann::json::binary(std::move(bytes))}});
  }
  const CallIdentity& id = call.identity;
  return {{"seed", id.seed},
          {"reps", id.reps},
          {"max_reps", id.max_reps},
          {"block_reps", id.block_reps},
          {"target_rse", id.target_rse ? nlohmann::json(*id.target_rse) : nlohmann::json(nullptr)},
          {"finished", call.finished},
          {"next", call.next},
          {"decided", call.decided},
          {"nodes", std::move(nodes)}};
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

std::vector<std::byte> encode_run_state(const RunState& state) {
  nlohmann::json calls = nlohmann::json::array();
  for (const CallState& call : state.calls) calls.push_back(to_json(call));
  const nlohmann::json body{{"version", state.version}, {"arguments", state.arguments}, {"calls", std::move(calls)}};
  const std::vector<std::uint8_t> cbor = nlohmann::json::to_cbor(body);
  ByteWriter head;
  for (const char c : kMagic) head.u8(static_cast<std::uint8_t>(c));
  head.u32(kRunStateFormat);
  head.u64(cbor.size());
  std::vector<std::byte> bytes = head.take();
  const std::size_t at = bytes.size();
  bytes.resize(at + cbor.size() + 4);
  std::memcpy(bytes.data() + at, cbor.data(), cbor.size());
  ByteWriter tail;
  tail.u32(crc32_of(std::span<const std::byte>(bytes).first(at + cbor.size())));
  std::memcpy(bytes.data() + at + cbor.size(), tail.data().data(), 4);
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
    return state;
  } catch (const std::exception& e) {
    throw fail(fmt::format("malformed body ({})", e.what()));
  }
}

void write_run_state(const std::string& path, const RunState& state) {
  write_run_state_bytes(path, encode_run_state(state));
}

void write_run_state_bytes(const std::string& path, const std::vector<std::byte>& bytes) {
  const std::filesystem::path target(path);
  const std::filesystem::path dir = target.has_parent_path() ? target.parent_path() : ".";
  std::string pattern = (dir / fmt::format(".{}.XXXXXX", target.filename().string())).string();
  std::vector<char> name(pattern.begin(), pattern.end());
  name.push_back('\0');
  const int fd = ::mkstemp(name.data());
  if (fd < 0) throw RuntimeFailure(fmt::format("cannot write state file {}: {}", path, std::strerror(errno)));
  struct Registered {
    int slot;
    ~Registered() { unregister_temporary_file(slot); }
  } const registered{register_temporary_file(name.data())};
  const auto failed = [&](const char* what) {
    const std::string message = fmt::format("cannot {} state file {}: {}", what, path, std::strerror(errno));
    ::close(fd);
    ::unlink(name.data());
    return RuntimeFailure(message);
  };
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw failed("write");
    done += static_cast<std::size_t>(n);
  }
  ::fchmod(fd, 0644);
  if (::fsync(fd) != 0) throw failed("flush");
  if (::close(fd) != 0) {
    ::unlink(name.data());
    throw RuntimeFailure(fmt::format("cannot write state file {}: {}", path, std::strerror(errno)));
  }
  if (std::rename(name.data(), path.c_str()) != 0) {
    ::unlink(name.data());
    throw RuntimeFailure(fmt::format("cannot rename into state file {}: {}", path, std::strerror(errno)));
  }
  // The rename itself reaches the disk with the folder's entry.
  const int dir_fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir_fd >= 0) {
    ::fsync(dir_fd);
    ::close(dir_fd);
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
  const std::size_t calls = states.front().calls.size();
  for (std::size_t s = 1; s < states.size(); ++s) {
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

RunState read_run_state(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(fmt::format("state file '{}': cannot be read ({})", path, std::strerror(errno)));
  std::vector<char> raw((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::byte> bytes(raw.size());
  if (!raw.empty()) std::memcpy(bytes.data(), raw.data(), raw.size());
  return decode_run_state(bytes, path);
}

}  // namespace lbmc::engine
