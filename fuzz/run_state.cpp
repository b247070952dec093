// Fuzz target: run-state files (engine/run_state.hpp), what `lbmc resume`,
// `extend` and `merge` read.
//
// Design note
// - Input: the bytes of a file (the seeds are real checkpoints). When the
//   first byte is 'B', the rest is taken as a body instead, and given the
//   header and checksum of a good file, so that mutations reach the CBOR
//   body and its checks rather than stopping at the checksum.
// - decode_run_state either returns a state or throws engine::InputError
//   (not a state file, another format version, a wrong checksum, a
//   truncated or malformed body). A decoded state encodes to bytes that
//   decode to the same state (arguments, input files, plans, nodes).
// - Two copies of a decoded state are also merged as slices: that either
//   throws InputError (the copies overlap, or the state is not a slice
//   layout) or covers every block once.
// - Anything else escaping, and the sanitizers' reports, are findings.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <boost/crc.hpp>

#include "check.hpp"
#include "lbmc/engine/errors.hpp"
#include "lbmc/engine/run_state.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<std::byte> bytes;
  const auto append = [&](const void* from, std::size_t count) {
    const auto* first = static_cast<const std::byte*>(from);
    bytes.insert(bytes.end(), first, first + count);
  };
  if (size > 0 && data[0] == 'B') {
    // magic, the format version, body length, body, CRC-32 of all before it (little-endian)
    append("LBMCSTATE\n", 10);
    const std::uint32_t format = lbmc::engine::kRunStateFormat;
    const std::uint64_t length = size - 1;
    for (int i = 0; i < 4; ++i) bytes.push_back(static_cast<std::byte>(format >> (8 * i)));
    for (int i = 0; i < 8; ++i) bytes.push_back(static_cast<std::byte>(length >> (8 * i)));
    append(data + 1, size - 1);
    boost::crc_32_type crc;
    crc.process_bytes(bytes.data(), bytes.size());
    for (int i = 0; i < 4; ++i) bytes.push_back(static_cast<std::byte>(crc.checksum() >> (8 * i)));
  } else {
    append(data, size);
  }
  lbmc::engine::RunState state;
  try {
    state = lbmc::engine::decode_run_state(bytes, "fuzz");
  } catch (const lbmc::engine::InputError&) {
    return 0;
  }
  const lbmc::engine::RunState again = lbmc::engine::decode_run_state(lbmc::engine::encode_run_state(state), "again");
  check(again.arguments == state.arguments && again.version == state.version && again.inputs == state.inputs);
  check(again.calls.size() == state.calls.size());
  for (std::size_t c = 0; c < state.calls.size(); ++c) {
    check(again.calls[c].identity == state.calls[c].identity);
    check(again.calls[c].nodes.size() == state.calls[c].nodes.size());
  }
  try {
    const std::vector<lbmc::engine::RunState> slices{state, state};
    (void)lbmc::engine::merge_slices(slices, {"a", "b"});
    check(state.calls.empty());  // two copies of one slice overlap unless there is nothing to cover
  } catch (const lbmc::engine::InputError&) {
  }
  return 0;
}
