// device_maxima.hpp on CUDA: one thread per replication. Thread i of a
// launch of blocks [first, last) computes replication r = i mod block_reps of
// block first + i / block_reps from its own counter-based stream
// (philox_core.hpp) with the sampler's portable form, whose tables are
// copied to the device; the maxima go back through pinned memory on the
// launch's stream, so that a launch and the host's fold of the previous one
// overlap (device.hpp). Built with -fmad=false: no contraction, as on the
// host.
#include "device_maxima.hpp"

#include <cuda_runtime.h>

#include <string>
#include <utility>

#include "lbmc/engine/cuda_device.hpp"
#include "lbmc/engine/errors.hpp"
#include "lbmc/engine/philox_core.hpp"
#include "replication_max.hpp"

namespace lbmc::exp {
namespace {

constexpr int kThreadsPerBlock = 128;

// A failed CUDA call: exit 3, naming the call; an allocation, as such.
void check(cudaError_t status, const char* what) {
  if (status == cudaSuccess) return;
  if (status == cudaErrorMemoryAllocation) {
    throw engine::RuntimeFailure(std::string("--device cuda: out of memory (") + what + ")");
  }
  throw engine::RuntimeFailure(std::string("CUDA: ") + what + ": " + cudaGetErrorString(status));
}

template <class Sampler>
__global__ void __launch_bounds__(kThreadsPerBlock)
    maxima_kernel(Sampler sampler, std::int64_t n, std::uint64_t seed, std::int64_t first_block,
                  std::int64_t block_reps, std::int64_t count, double* maxima) {
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * kThreadsPerBlock + threadIdx.x;
  if (i >= count) return;
  const auto block = static_cast<std::uint64_t>(first_block + i / block_reps);
  const auto replication = static_cast<std::uint64_t>(i % block_reps);
  engine::PhiloxWords words(engine::philox_block_key(seed, block), block, replication);
  maxima[i] = replication_max(sampler, words, n);
}

// Memory on the device, or pinned on the host, freed on destruction.
template <bool Pinned>
class Buffer {
 public:
  Buffer() = default;
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  ~Buffer() {
    if (data_ == nullptr) return;
    if constexpr (Pinned) {
      cudaFreeHost(data_);
    } else {
      cudaFree(data_);
    }
  }
  void allocate(std::size_t bytes, const char* what) {
    if constexpr (Pinned) {
      check(cudaMallocHost(&data_, bytes), what);
    } else {
      check(cudaMalloc(&data_, bytes), what);
    }
  }
  void* get() const { return data_; }

 private:
  void* data_ = nullptr;
};

// A device copy of the host table at `table` (none for a null pointer).
template <class Table>
const Table* copy_to_device(const Table* table, Buffer<false>& buffer) {
  if (table == nullptr) return nullptr;
  buffer.allocate(sizeof(Table), "the sampler's tables");
  check(cudaMemcpy(buffer.get(), table, sizeof(Table), cudaMemcpyHostToDevice), "copying the sampler's tables");
  return static_cast<const Table*>(buffer.get());
}

template <class Sampler>
class DeviceMaxima final : public engine::DeviceReplications {
 public:
  DeviceMaxima(const Sampler& sampler, std::int64_t n, const engine::DeviceLaunchPlan& plan)
      : sampler_(sampler),
        n_(n),
        plan_(plan),
        blocks_per_launch_(device_maxima_blocks_per_launch(n, plan.block_reps, plan.blocks)) {
    engine::cuda::select_device();
    if constexpr (requires { sampler_.tables; }) {
      const dist::PortableSamplerTables& host = sampler.tables;
      sampler_.tables = {copy_to_device(host.normal, tables_[0]), copy_to_device(host.exponential, tables_[1]),
                         copy_to_device(host.exp_log, tables_[2])};
    }
    const auto bytes = static_cast<std::size_t>(blocks_per_launch_ * plan.block_reps) * sizeof(double);
    for (Slot& slot : slots_) {
      slot.device.allocate(bytes, "the maxima");
      slot.host.allocate(bytes, "pinned host memory for the maxima");
      check(cudaStreamCreateWithFlags(&slot.stream, cudaStreamNonBlocking), "creating a stream");
    }
  }
  DeviceMaxima(const DeviceMaxima&) = delete;
  DeviceMaxima& operator=(const DeviceMaxima&) = delete;
  ~DeviceMaxima() override {
    for (Slot& slot : slots_) {
      if (slot.stream == nullptr) continue;
      cudaStreamSynchronize(slot.stream);  // a launch still running writes into the buffers
      cudaStreamDestroy(slot.stream);
    }
  }

  std::int64_t blocks_per_launch() const override { return blocks_per_launch_; }

  void launch(int slot_index, std::int64_t first, std::int64_t last) override {
    engine::cuda::select_device();
    Slot& slot = slots_[slot_index];
    const std::int64_t begin = first * plan_.block_reps;
    const std::int64_t end = last * plan_.block_reps < plan_.reps_limit ? last * plan_.block_reps : plan_.reps_limit;
    slot.count = end - begin;
    const auto grid = static_cast<unsigned>((slot.count + kThreadsPerBlock - 1) / kThreadsPerBlock);
    auto* maxima = static_cast<double*>(slot.device.get());
    maxima_kernel<<<grid, kThreadsPerBlock, 0, slot.stream>>>(sampler_, n_, plan_.seed, first, plan_.block_reps,
                                                              slot.count, maxima);
    check(cudaGetLastError(), "launching the maxima kernel");
    check(cudaMemcpyAsync(slot.host.get(), maxima, static_cast<std::size_t>(slot.count) * sizeof(double),
                          cudaMemcpyDeviceToHost, slot.stream),
          "copying the maxima");
  }

  std::span<const double> collect(int slot_index) override {
    Slot& slot = slots_[slot_index];
    check(cudaStreamSynchronize(slot.stream), "the maxima kernel");
    return {static_cast<const double*>(slot.host.get()), static_cast<std::size_t>(slot.count)};
  }

 private:
  struct Slot {
    Buffer<false> device;
    Buffer<true> host;
    cudaStream_t stream = nullptr;
    std::int64_t count = 0;
  };

  Sampler sampler_;
  std::int64_t n_;
  engine::DeviceLaunchPlan plan_;
  std::int64_t blocks_per_launch_;
  Buffer<false> tables_[3];
  Slot slots_[2];
};

}  // namespace

template <class Sampler>
std::unique_ptr<engine::DeviceReplications> device_maxima(const Sampler& sampler, std::int64_t n,
                                                          const engine::DeviceLaunchPlan& plan) {
  return std::make_unique<DeviceMaxima<Sampler>>(sampler, n, plan);
}

template std::unique_ptr<engine::DeviceReplications> device_maxima(const dist::PortableNormal&, std::int64_t,
                                                                   const engine::DeviceLaunchPlan&);
template std::unique_ptr<engine::DeviceReplications> device_maxima(const dist::PortableExponential&, std::int64_t,
                                                                   const engine::DeviceLaunchPlan&);
template std::unique_ptr<engine::DeviceReplications> device_maxima(const dist::UniformSampler&, std::int64_t,
                                                                   const engine::DeviceLaunchPlan&);
template std::unique_ptr<engine::DeviceReplications> device_maxima(const dist::ConstantSampler&, std::int64_t,
                                                                   const engine::DeviceLaunchPlan&);

}  // namespace lbmc::exp
