// cuda_device.hpp on the CUDA runtime.
#include "lbmc/engine/cuda_device.hpp"

#include <cuda_runtime.h>

#include <cstdlib>
#include <mutex>
#include <string>

#include "lbmc/engine/errors.hpp"

namespace lbmc::engine::cuda {
namespace {

// The rank of this process on its node, from the MPI launchers' variables
// (0 outside MPI).
int local_rank() {
  for (const char* name : {"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "SLURM_LOCALID"}) {
    if (const char* value = std::getenv(name)) return std::atoi(value);
  }
  return 0;
}

struct Selection {
  int device = -1;
  std::string failure;  // why there is no device, if there is none
};

Selection select_once() {
  Selection s;
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess || count == 0) {
    const char* why = status == cudaErrorInsufficientDriver ? "no NVIDIA driver, or one too old for CUDA 12"
                      : status == cudaSuccess || status == cudaErrorNoDevice
                          ? "none found"
                          : cudaGetErrorString(status);
    s.failure = std::string("--device cuda: no CUDA device (") + why + ")";
    return s;
  }
  const int device = local_rank() % count;
  // Creates the context now, so that a broken driver is found here.
  if (cudaSetDevice(device) != cudaSuccess || cudaFree(nullptr) != cudaSuccess) {
    s.failure = std::string("--device cuda: CUDA device ") + std::to_string(device) +
                " cannot be used (" + cudaGetErrorString(cudaGetLastError()) + ")";
    return s;
  }
  s.device = device;
  return s;
}

const Selection& selection() {
  static const Selection s = select_once();
  return s;
}

}  // namespace

void select_device() {
  const Selection& s = selection();
  if (s.device < 0) throw InputError(s.failure);
  // Each host thread that launches needs the device made current.
  if (cudaSetDevice(s.device) != cudaSuccess) throw RuntimeFailure("CUDA: cudaSetDevice failed");
}

std::string device_name() {
  select_device();
  cudaDeviceProp properties{};
  if (cudaGetDeviceProperties(&properties, selection().device) != cudaSuccess) return "CUDA device";
  return properties.name;
}

std::size_t free_memory() {
  select_device();
  std::size_t free = 0;
  std::size_t total = 0;
  if (cudaMemGetInfo(&free, &total) != cudaSuccess) throw RuntimeFailure("CUDA: cudaMemGetInfo failed");
  return free;
}

}  // namespace lbmc::engine::cuda
