// The floor of every lbmc kernel: the raw cost of one 64-bit pcg64 output.
//
// Usage: rng_floor [OUTPUTS_PER_REPETITION [REPETITIONS]]
//   (defaults 2^27 and 7). Prints the median ns per output on stdout, one
//   number; the individual repetitions go to stderr.
//
// The generator is built like lbmc's (pcg64, two-argument constructor: state
// and stream), the outputs are summed (the sum depends on every output, so the
// loop cannot be dropped) and each repetition's sum is stored into a volatile
// sink. Built by scripts/bench.sh with the Release build's -O3 and no
// -march=native.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <pcg_random.hpp>

namespace {

volatile std::uint64_t sink = 0;

std::uint64_t parse_count(const char* text, const char* what) {
  char* end = nullptr;
  const double value = std::strtod(text, &end);  // accepts 1e8
  if (end == text || *end != '\0' || !(value >= 1.0) || value > 1e12) {
    std::fprintf(stderr, "rng_floor: %s must be a number >= 1, got '%s'\n", what, text);
    std::exit(2);
  }
  return static_cast<std::uint64_t>(value);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 3) {
    std::fprintf(stderr, "usage: rng_floor [OUTPUTS_PER_REPETITION [REPETITIONS]]\n");
    return 2;
  }
  const std::uint64_t outputs = argc > 1 ? parse_count(argv[1], "OUTPUTS_PER_REPETITION") : (1ULL << 27);
  const std::uint64_t repetitions = argc > 2 ? parse_count(argv[2], "REPETITIONS") : 7;

  const pcg_extras::pcg128_t state = (pcg_extras::pcg128_t(0x853c49e6748fea9bULL) << 64) | 0xda3e39cb94b95bdbULL;
  const pcg_extras::pcg128_t stream = (pcg_extras::pcg128_t(0x2f6b1a5e9c3d7f01ULL) << 64) | 0x5851f42d4c957f2dULL;
  pcg64 gen(state, stream);

  // Warm-up: page in the code, let the clock settle.
  std::uint64_t warm = 0;
  for (std::uint64_t i = 0; i < (1ULL << 22); ++i) warm += gen();
  sink = warm;

  std::vector<double> ns_per_output;
  ns_per_output.reserve(repetitions);
  for (std::uint64_t r = 0; r < repetitions; ++r) {
    const auto start = std::chrono::steady_clock::now();
    std::uint64_t sum = 0;
    for (std::uint64_t i = 0; i < outputs; ++i) sum += gen();
    sink = sum;
    const auto stop = std::chrono::steady_clock::now();
    const double ns = std::chrono::duration<double, std::nano>(stop - start).count();
    ns_per_output.push_back(ns / static_cast<double>(outputs));
    std::fprintf(stderr, "rng_floor: repetition %llu: %.4f ns/output\n",
                 static_cast<unsigned long long>(r + 1), ns_per_output.back());
  }

  std::sort(ns_per_output.begin(), ns_per_output.end());
  const std::size_t m = ns_per_output.size();
  const double median = m % 2 == 1 ? ns_per_output[m / 2] : 0.5 * (ns_per_output[m / 2 - 1] + ns_per_output[m / 2]);
  std::printf("%.4f\n", median);
  return 0;
}
