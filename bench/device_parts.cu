// The GPU kernel's parts timed apart: where a `maxload --device cuda`
// replication's time goes. Each variant takes the maximum of n values per
// thread, one replication per thread as the kernels of device_kernels.cu
// do, and prints 10^9 values a second (kernel time from CUDA events, the
// median of 5 launches after a warm-up):
//   philox        the stream's 64-bit outputs alone (PhiloxWords), as uniforms
//   philox-pairs  the same outputs, a Philox call's two used in one step
//   zig-fast      the normal ziggurat's fast path alone (every point kept),
//                 tables in global memory
//   zig-fast-smem the same, tables in shared memory
//   normal-on-demand  the normal sampler on a stream that calls Philox
//                 whenever a thread has used its last call's outputs
//   normal        the normal sampler as lbmc runs it: a call for every
//                 thread every other draw (PhiloxWords' steps), tables in
//                 global memory
//   normal-smem   the same, its ziggurat in shared memory
//   normal-deferred-K  the normal sampler with its slow path deferred until
//                 K threads of a warp need it (deferred_normal_max)
// The normal variants check that their maxima are normal's, bit for bit.
//
// Usage: device_parts [N [THREADS]]   (defaults 4096 and 2^18)
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <type_traits>
#include <vector>

#include "lbmc/dist/portable_samplers.hpp"
#include "lbmc/engine/philox_core.hpp"

lbmc::dist::PortableNormal device_parts_normal();  // device_parts_normal.cpp

namespace {

using lbmc::dist::NormalZiggurat;
using lbmc::dist::PortableNormal;
using lbmc::engine::PhiloxWords;

constexpr int kBlock = 128;
constexpr std::uint64_t kSeed = 7;

void check(cudaError_t status, const char* what) {
  if (status == cudaSuccess) return;
  std::fprintf(stderr, "device_parts: %s: %s\n", what, cudaGetErrorString(status));
  std::exit(1);
}

// Thread i's replication: i mod 64 of block i / 64, with the block's key.
struct Replication {
  std::uint64_t key, block, index;
};
__device__ Replication replication_of(std::int64_t i) {
  const auto block = static_cast<std::uint64_t>(i / 64);
  return {lbmc::engine::philox_block_key(kSeed, block), block, static_cast<std::uint64_t>(i % 64)};
}
__device__ PhiloxWords words_of(std::int64_t i) {
  const Replication r = replication_of(i);
  return PhiloxWords(r.key, r.block, r.index);
}

// The stream's outputs with a Philox call whenever a thread has used the
// last call's two (PhiloxWords without its steps): threads that a rejection
// has put out of step call Philox at different draws.
class OnDemandWords {
 public:
  __device__ OnDemandWords(std::uint64_t key, std::uint64_t block, std::uint64_t replication)
      : key_(key), block_(block), next_call_(lbmc::engine::philox_replication_base(replication)) {}
  __device__ std::uint64_t operator()() {
    if (has_second_) {
      has_second_ = false;
      return second_;
    }
    const auto r = lbmc::engine::philox_call(key_, next_call_++, block_);
    second_ = r[2] | (std::uint64_t{r[3]} << 32);
    has_second_ = true;
    return r[0] | (std::uint64_t{r[1]} << 32);
  }

 private:
  std::uint64_t key_, block_, next_call_;
  std::uint64_t second_ = 0;
  bool has_second_ = false;
};

enum class Variant {
  philox,
  philox_pairs,
  zig_fast,
  zig_fast_smem,
  normal_on_demand,
  normal,
  normal_smem,
  normal_deferred_4,
  normal_deferred_8,
  normal_deferred_16
};
constexpr const char* kNames[] = {"philox",      "philox-pairs", "zig-fast",          "zig-fast-smem",
                                  "normal-on-demand", "normal",  "normal-smem",       "normal-deferred-4",
                                  "normal-deferred-8", "normal-deferred-16"};

// The pending draws a warp gathers before it runs their slow path together.
template <Variant V>
constexpr int kDeferred = V == Variant::normal_deferred_4 ? 4 : V == Variant::normal_deferred_8 ? 8 : 16;

// The maximum of n normal draws with the slow path (wedge test, tail)
// deferred: a thread whose point misses its layer's rectangle waits, drawing
// nothing, until kDeferred of its warp's threads wait too (or none has a
// fast draw left), and then they run the slow path together instead of one
// at a time while the others wait. Each thread still reads its own stream's
// outputs in order, so the values are the plain sampler's.
template <int Deferred>
__device__ double deferred_normal_max(const PortableNormal& normal, PhiloxWords& words, std::int64_t n) {
  const NormalZiggurat& t = *normal.tables.normal;
  const lbmc::dist::PortableMath math{normal.tables.exp_log};
  const unsigned lanes = __activemask();
  double z = -1e300;
  std::int64_t done = 0;
  bool pending = false;
  std::size_t entry = 0;
  double abscissa = 0.0;
  for (;;) {
    const unsigned slow = __ballot_sync(lanes, pending);
    const unsigned fast = __ballot_sync(lanes, !pending && done < n);
    if (slow == 0 && fast == 0) break;
    if (__popc(slow) >= Deferred || fast == 0) {
      if (pending) {
        pending = false;
        const double w = lbmc::dist::detail::normal_past_fast_path(t, entry, abscissa, words, math);
        if (w == w) {
          const double x = normal.mu + normal.sigma * w;
          z = z < x ? x : z;
          ++done;
        }
      }
    } else if (!pending && done < n) {
      lbmc::engine::before_draw(normal, words);
      const lbmc::dist::detail::ZigguratPoint p = lbmc::dist::detail::ziggurat_point(t, words());
      if (p.inside(t)) {
        const double x = normal.mu + normal.sigma * p.z;
        z = z < x ? x : z;
        ++done;
      } else {
        pending = true;
        entry = p.entry;
        abscissa = p.z;
      }
    }
  }
  return z;
}

template <Variant V>
__global__ void __launch_bounds__(kBlock) parts_kernel(PortableNormal normal, std::int64_t n, std::int64_t count,
                                                      double* out) {
  __shared__ NormalZiggurat shared_table;
  constexpr bool smem = V == Variant::zig_fast_smem || V == Variant::normal_smem;
  if constexpr (smem) {
    const auto* from = reinterpret_cast<const std::uint32_t*>(normal.tables.normal);
    auto* to = reinterpret_cast<std::uint32_t*>(&shared_table);
    for (std::size_t k = threadIdx.x; k < sizeof(NormalZiggurat) / 4; k += kBlock) to[k] = from[k];
    __syncthreads();
    normal.tables.normal = &shared_table;
  }
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * kBlock + threadIdx.x;
  if (i >= count) return;
  double z = -1e300;
  if constexpr (V == Variant::philox) {
    PhiloxWords words = words_of(i);
    for (std::int64_t k = 0; k < n; ++k) {
      const double x = lbmc::engine::uniform01(words);
      z = z < x ? x : z;
    }
  } else if constexpr (V == Variant::philox_pairs) {
    const Replication rep = replication_of(i);
    std::uint64_t call = lbmc::engine::philox_replication_base(rep.index);
    for (std::int64_t k = 0; k < n; k += 2) {
      const auto r = lbmc::engine::philox_call(rep.key, call++, rep.block);
      const double a = static_cast<double>((r[0] | (std::uint64_t{r[1]} << 32)) >> 11) * 0x1p-53;
      const double b = static_cast<double>((r[2] | (std::uint64_t{r[3]} << 32)) >> 11) * 0x1p-53;
      z = z < a ? a : z;
      z = z < b ? b : z;
    }
  } else if constexpr (V == Variant::zig_fast || V == Variant::zig_fast_smem) {
    PhiloxWords words = words_of(i);
    for (std::int64_t k = 0; k < n; ++k) {
      const double x = lbmc::dist::detail::ziggurat_point(*normal.tables.normal, words()).z;
      z = z < x ? x : z;
    }
  } else if constexpr (V == Variant::normal_on_demand) {
    const Replication rep = replication_of(i);
    OnDemandWords words(rep.key, rep.block, rep.index);
    for (std::int64_t k = 0; k < n; ++k) {
      const double x = normal(words);
      z = z < x ? x : z;
    }
  } else if constexpr (V == Variant::normal_deferred_4 || V == Variant::normal_deferred_8 ||
                       V == Variant::normal_deferred_16) {
    PhiloxWords words = words_of(i);
    z = deferred_normal_max<kDeferred<V>>(normal, words, n);
  } else {
    PhiloxWords words = words_of(i);
    for (std::int64_t k = 0; k < n; ++k) {
      const double x = lbmc::engine::stepped_draw(normal, words);
      z = z < x ? x : z;
    }
  }
  out[i] = z;
}

template <Variant V>
double rate(const PortableNormal& normal, std::int64_t n, std::int64_t count, double* out,
            std::vector<double>& host) {
  cudaEvent_t start, stop;
  check(cudaEventCreate(&start), "event");
  check(cudaEventCreate(&stop), "event");
  const auto grid = static_cast<unsigned>((count + kBlock - 1) / kBlock);
  std::vector<float> ms;
  for (int run = 0; run < 6; ++run) {
    check(cudaEventRecord(start), "record");
    parts_kernel<V><<<grid, kBlock>>>(normal, n, count, out);
    check(cudaEventRecord(stop), "record");
    check(cudaEventSynchronize(stop), kNames[static_cast<int>(V)]);
    float t = 0;
    check(cudaEventElapsedTime(&t, start, stop), "elapsed");
    if (run > 0) ms.push_back(t);
  }
  check(cudaEventDestroy(start), "event");
  check(cudaEventDestroy(stop), "event");
  std::sort(ms.begin(), ms.end());
  check(cudaMemcpy(host.data(), out, sizeof(double) * static_cast<std::size_t>(count), cudaMemcpyDeviceToHost),
        "copy");
  return static_cast<double>(n) * static_cast<double>(count) / (ms[ms.size() / 2] * 1e-3) / 1e9;
}

}  // namespace

int main(int argc, char** argv) {
  const std::int64_t n = argc > 1 ? std::atoll(argv[1]) : 4096;
  const std::int64_t count = argc > 2 ? std::atoll(argv[2]) : std::int64_t{1} << 18;
  PortableNormal normal = device_parts_normal();
  normal.for_each_table([](const auto*& table, std::size_t elements) {
    using T = std::remove_cvref_t<decltype(*table)>;
    void* copy = nullptr;
    check(cudaMalloc(&copy, sizeof(T) * elements), "tables");
    check(cudaMemcpy(copy, table, sizeof(T) * elements, cudaMemcpyHostToDevice), "tables");
    table = static_cast<const T*>(copy);
  });
  double* out = nullptr;
  check(cudaMalloc(&out, sizeof(double) * static_cast<std::size_t>(count)), "values");
  std::vector<double> plain(static_cast<std::size_t>(count)), values(plain.size());
  cudaDeviceProp prop{};
  check(cudaGetDeviceProperties(&prop, 0), "properties");
  std::printf("device_parts: %s, n = %lld, %lld threads of %d a block\n", prop.name, static_cast<long long>(n),
              static_cast<long long>(count), kBlock);
  const double normal_rate = rate<Variant::normal>(normal, n, count, out, plain);
  auto report = [&](Variant v, double r, bool same_as_normal) {
    const bool same = !same_as_normal || std::memcmp(plain.data(), values.data(), sizeof(double) * plain.size()) == 0;
    std::printf("%-18s %8.2f e9/s  %5.2fx normal%s\n", kNames[static_cast<int>(v)], r, r / normal_rate,
                same ? "" : "  VALUES DIFFER from normal");
  };
  report(Variant::philox, rate<Variant::philox>(normal, n, count, out, values), false);
  report(Variant::philox_pairs, rate<Variant::philox_pairs>(normal, n, count, out, values), false);
  report(Variant::zig_fast, rate<Variant::zig_fast>(normal, n, count, out, values), false);
  report(Variant::zig_fast_smem, rate<Variant::zig_fast_smem>(normal, n, count, out, values), false);
  report(Variant::normal_on_demand, rate<Variant::normal_on_demand>(normal, n, count, out, values), true);
  report(Variant::normal, normal_rate, false);
  report(Variant::normal_smem, rate<Variant::normal_smem>(normal, n, count, out, values), true);
  report(Variant::normal_deferred_4, rate<Variant::normal_deferred_4>(normal, n, count, out, values), true);
  report(Variant::normal_deferred_8, rate<Variant::normal_deferred_8>(normal, n, count, out, values), true);
  report(Variant::normal_deferred_16, rate<Variant::normal_deferred_16>(normal, n, count, out, values), true);
  return 0;
}
