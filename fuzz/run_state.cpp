// Fuzz target: run-state files (engine/run_state.hpp), what `lbmc resume`,
// `extend` and `merge` read.
//
// Design note
// - Input: the bytes of a file. The seeds are real checkpoints.
// - decode_run_state either returns a state or throws engine::InputError
//   (not a state file, another format version, a wrong checksum, a
//   truncated or malformed body). A decoded state encodes to bytes that
//   decode to the same state (arguments, plans, nodes).
// - Two copies of a decoded state are also merged as slices: that either
//   throws InputError (the copies overlap, or the state is not a slice
//   layout) or covers every block once.
// - Anything else escaping, and the sanitizers' reports, are findings.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "lbmc/engine/errors.hpp"
#include "lbmc/engine/run_state.hpp"

namespace {

void check(bool ok) {
  if (!ok) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<std::byte> bytes(size);
  if (size > 0) std::memcpy(bytes.data(), data, size);
  lbmc::engine::RunState state;
  try {
    state = lbmc::engine::decode_run_state(bytes, "fuzz");
  } catch (const lbmc::engine::InputError&) {
    return 0;
  }
  const lbmc::engine::RunState again = lbmc::engine::decode_run_state(lbmc::engine::encode_run_state(state), "again");
  check(again.arguments == state.arguments && again.version == state.version);
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
