// cuda_device.hpp in a build without CUDA: every function refuses.
#if !defined(LBMC_WITH_CUDA)
#include "lbmc/engine/cuda_device.hpp"

#include "lbmc/engine/errors.hpp"

namespace lbmc::engine::cuda {

namespace {
[[noreturn]] void refuse() {
  throw InputError("--device cuda: this lbmc was built without CUDA (nvcc 12 or later was not found at build time)");
}
}  // namespace

void select_device() { refuse(); }
std::string device_name() { refuse(); }
std::size_t free_memory() { refuse(); }

}  // namespace lbmc::engine::cuda
#endif
