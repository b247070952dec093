// device_kernels.hpp in a build without CUDA: each refuses, as --device cuda
// does wherever there is no device (exit 2), never a fall-back to the CPU.
#if !defined(LBMC_WITH_CUDA)
#include "lbmc/exp/device_kernels.hpp"

#include "lbmc/engine/cuda_device.hpp"

namespace lbmc::exp {

template <class Sampler>
std::unique_ptr<engine::DeviceReplications> device_maxima(const Sampler&, std::int64_t,
                                                          const engine::DeviceLaunchPlan&) {
  engine::cuda::select_device();  // throws
  return nullptr;
}

template <class Sampler>
std::unique_ptr<engine::DeviceReplications> device_shifts(const Sampler&, std::int64_t, double,
                                                          const engine::DeviceLaunchPlan&) {
  engine::cuda::select_device();
  return nullptr;
}

template <class Sampler>
std::unique_ptr<engine::DeviceReplications> device_integer_shifts(const Sampler&, std::int64_t, double,
                                                                  const engine::DeviceLaunchPlan&) {
  engine::cuda::select_device();
  return nullptr;
}

template <class Sampler>
std::unique_ptr<engine::DeviceReplications> device_scatter(const Sampler&, std::int64_t, std::int64_t, double,
                                                           const engine::DeviceLaunchPlan&) {
  engine::cuda::select_device();
  return nullptr;
}

LBMC_DEVICE_KERNELS_OF_EVERY_SAMPLER

}  // namespace lbmc::exp
#endif
