// device_kernels.hpp on CUDA: one thread per replication. Thread i of a
// launch of blocks [first, last) computes replication r = i mod block_reps of
// block first + i / block_reps from its own counter-based stream
// (philox_core.hpp) with the sampler's portable form, whose tables are
// copied to the device, and writes its values at i·values. The values go
// back through pinned memory on the launch's stream, so that a launch and
// the host's fold of the previous one overlap (device.hpp). Built with
// -fmad=false: no contraction, as on the host.
#include "lbmc/exp/device_kernels.hpp"

#include <cuda_runtime.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "../maxload/replication_max.hpp"
#include "../maxshift/replication_shift.hpp"
#include "../scatter/replication_scatter.hpp"
#include "lbmc/engine/cuda_device.hpp"
#include "lbmc/engine/errors.hpp"
#include "lbmc/engine/philox_core.hpp"

namespace lbmc::exp {
namespace {

constexpr int kThreadsPerBlock = 128;

// What a thread computes, each with its sampler (whose tables the launcher
// copies), its draws and its values a replication.
template <class Sampler>
struct Maximum {
  static constexpr std::int64_t kValues = 1;
  Sampler sampler;
  std::int64_t n;
  std::int64_t draws() const { return n; }
  __device__ void operator()(engine::PhiloxWords& words, double* values) const {
    values[0] = replication_max(sampler, words, n);
  }
};

template <class Sampler>
struct Shift {
  static constexpr std::int64_t kValues = kDeviceShiftValues;
  Sampler sampler;
  std::int64_t n;
  double scale;
  std::int64_t draws() const { return n; }
  __device__ void operator()(engine::PhiloxWords& words, double* values) const {
    const ShiftValues shift = replication_shift(sampler, words, n, scale);
    values[0] = shift.w_prime;
    values[1] = shift.d_prime;
    values[2] = shift.reaches_one_processor ? 1.0 : 0.0;
  }
};

template <class Sampler>
struct IntegerShift {
  static constexpr std::int64_t kValues = kDeviceIntegerShiftValues;
  Sampler sampler;
  std::int64_t n;
  double scale_per_n;
  std::int64_t draws() const { return n; }
  __device__ void operator()(engine::PhiloxWords& words, double* values) const {
    const IntegerShiftValues shift = replication_integer_shift(sampler, words, n, scale_per_n);
    values[0] = shift.w_prime;
    values[1] = shift.d_prime;
    values[2] = shift.reaches_one_processor ? 1.0 : 0.0;
    values[3] = static_cast<double>(shift.max_right);
    values[4] = static_cast<double>(shift.max_left);
  }
};

template <class Sampler>
struct Scatter {
  static constexpr std::int64_t kValues = kDeviceScatterValues;
  Sampler sampler;
  std::int64_t tasks;
  std::int64_t procs;
  double m_proc;
  std::int64_t draws() const { return tasks * procs; }
  __device__ void operator()(engine::PhiloxWords& words, double* values) const {
    const ScatterValues scatter = replication_scatter(sampler, words, tasks, procs, m_proc);
    values[0] = scatter.l;
    values[1] = scatter.l_obs;
  }
};

// A failed CUDA call: exit 3, naming the call; an allocation, as such.
void check(cudaError_t status, const char* what) {
  if (status == cudaSuccess) return;
  if (status == cudaErrorMemoryAllocation) {
    throw engine::RuntimeFailure(std::string("--device cuda: out of memory (") + what + ")");
  }
  throw engine::RuntimeFailure(std::string("CUDA: ") + what + ": " + cudaGetErrorString(status));
}

template <class Replication>
__global__ void __launch_bounds__(kThreadsPerBlock)
    replications_kernel(Replication replication, std::uint64_t seed, std::int64_t first_block,
                        std::int64_t block_reps, std::int64_t count, double* values) {
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * kThreadsPerBlock + threadIdx.x;
  if (i >= count) return;
  const auto block = static_cast<std::uint64_t>(first_block + i / block_reps);
  engine::PhiloxWords words(engine::philox_block_key(seed, block), block, static_cast<std::uint64_t>(i % block_reps));
  replication(words, values + i * Replication::kValues);
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

// Device copies of a sampler's tables, freed on destruction.
class DeviceTables {
 public:
  // Replaces `table` (count elements on the host) by its device copy.
  template <class T>
  void copy(const T*& table, std::size_t count) {
    Buffer<false>& buffer = *buffers_.emplace_back(std::make_unique<Buffer<false>>());
    buffer.allocate(sizeof(T) * count, "the sampler's tables");
    check(cudaMemcpy(buffer.get(), table, sizeof(T) * count, cudaMemcpyHostToDevice), "copying the sampler's tables");
    table = static_cast<const T*>(buffer.get());
  }

 private:
  std::vector<std::unique_ptr<Buffer<false>>> buffers_;
};

template <class Replication>
class DeviceRuns final : public engine::DeviceReplications {
 public:
  DeviceRuns(const Replication& replication, const engine::DeviceLaunchPlan& plan)
      : replication_(replication),
        plan_(plan),
        blocks_per_launch_(device_blocks_per_launch(replication.draws(), plan.block_reps, plan.blocks)) {
    engine::cuda::select_device();
    replication_.sampler.for_each_table(
        [this](const auto*& table, std::size_t count) { tables_.copy(table, count); });
    const auto bytes =
        static_cast<std::size_t>(blocks_per_launch_ * plan.block_reps * Replication::kValues) * sizeof(double);
    for (Slot& slot : slots_) {
      slot.device.allocate(bytes, "the replications' values");
      slot.host.allocate(bytes, "pinned host memory for the replications' values");
      check(cudaStreamCreateWithFlags(&slot.stream, cudaStreamNonBlocking), "creating a stream");
    }
  }
  DeviceRuns(const DeviceRuns&) = delete;
  DeviceRuns& operator=(const DeviceRuns&) = delete;
  ~DeviceRuns() override {
    for (Slot& slot : slots_) {
      if (slot.stream == nullptr) continue;
      cudaStreamSynchronize(slot.stream);  // a launch still running writes into the buffers
      cudaStreamDestroy(slot.stream);
    }
  }

  std::int64_t blocks_per_launch() const override { return blocks_per_launch_; }
  std::int64_t values_per_replication() const override { return Replication::kValues; }

  void launch(int slot_index, std::int64_t first, std::int64_t last) override {
    engine::cuda::select_device();
    Slot& slot = slots_[slot_index];
    const std::int64_t begin = first * plan_.block_reps;
    const std::int64_t end = last * plan_.block_reps < plan_.reps_limit ? last * plan_.block_reps : plan_.reps_limit;
    slot.count = end - begin;
    const auto grid = static_cast<unsigned>((slot.count + kThreadsPerBlock - 1) / kThreadsPerBlock);
    auto* values = static_cast<double*>(slot.device.get());
    replications_kernel<<<grid, kThreadsPerBlock, 0, slot.stream>>>(replication_, plan_.seed, first,
                                                                    plan_.block_reps, slot.count, values);
    check(cudaGetLastError(), "launching the replications");
    check(cudaMemcpyAsync(slot.host.get(), values, value_bytes(slot), cudaMemcpyDeviceToHost, slot.stream),
          "copying the replications' values");
  }

  std::span<const double> collect(int slot_index) override {
    Slot& slot = slots_[slot_index];
    check(cudaStreamSynchronize(slot.stream), "the replications kernel");
    return {static_cast<const double*>(slot.host.get()), value_bytes(slot) / sizeof(double)};
  }

 private:
  struct Slot {
    Buffer<false> device;
    Buffer<true> host;
    cudaStream_t stream = nullptr;
    std::int64_t count = 0;  // replications of the slot's launch
  };
  static std::size_t value_bytes(const Slot& slot) {
    return static_cast<std::size_t>(slot.count * Replication::kValues) * sizeof(double);
  }

  Replication replication_;
  engine::DeviceLaunchPlan plan_;
  std::int64_t blocks_per_launch_;
  DeviceTables tables_;
  Slot slots_[2];
};

}  // namespace

template <class Sampler>
std::unique_ptr<engine::DeviceReplications> device_maxima(const Sampler& sampler, std::int64_t n,
                                                          const engine::DeviceLaunchPlan& plan) {
  return std::make_unique<DeviceRuns<Maximum<Sampler>>>(Maximum<Sampler>{sampler, n}, plan);
}

template <class Sampler>
std::unique_ptr<engine::DeviceReplications> device_shifts(const Sampler& sampler, std::int64_t n, double scale,
                                                          const engine::DeviceLaunchPlan& plan) {
  return std::make_unique<DeviceRuns<Shift<Sampler>>>(Shift<Sampler>{sampler, n, scale}, plan);
}

template <class Sampler>
std::unique_ptr<engine::DeviceReplications> device_integer_shifts(const Sampler& sampler, std::int64_t n,
                                                                  double scale_per_n,
                                                                  const engine::DeviceLaunchPlan& plan) {
  return std::make_unique<DeviceRuns<IntegerShift<Sampler>>>(IntegerShift<Sampler>{sampler, n, scale_per_n}, plan);
}

template <class Sampler>
std::unique_ptr<engine::DeviceReplications> device_scatter(const Sampler& sampler, std::int64_t tasks,
                                                           std::int64_t procs, double m_proc,
                                                           const engine::DeviceLaunchPlan& plan) {
  return std::make_unique<DeviceRuns<Scatter<Sampler>>>(Scatter<Sampler>{sampler, tasks, procs, m_proc}, plan);
}

LBMC_DEVICE_KERNELS_OF_EVERY_SAMPLER

}  // namespace lbmc::exp
