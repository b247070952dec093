// A neighbour that keeps the caches busy, for `scripts/bench.sh --busy`: it
// increments words at random positions of a 64 MiB buffer forever, so every
// cache it shares with the benchmark (the whole hierarchy, when both are
// pinned to one core and take turns on it) is refilled with its lines between
// the benchmark's time slices, as on a host shared with other work.
// Usage: cache_sweeper [MiB]  (default 64)
#include <cstdint>
#include <cstdlib>
#include <vector>

int main(int argc, char** argv) {
  const std::size_t mib = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 64;
  std::vector<std::uint64_t> buffer(mib << 17);  // 2^17 words of 8 bytes = 1 MiB
  volatile std::uint64_t* words = buffer.data();
  const std::uint64_t mask = buffer.size() - 1;  // a power of two for mib a power of two
  std::uint64_t x = 0x9e3779b97f4a7c15ULL;
  for (;;) {
    // xorshift64 (Marsaglia 2003) positions.
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    words[x & mask] += 1;
  }
}
