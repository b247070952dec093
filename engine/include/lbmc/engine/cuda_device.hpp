// The CUDA device of this process, for `--device cuda`. Built with CUDA
// (LBMC_CUDA, cuda_device.cu), the functions reach the CUDA runtime, which is
// linked statically, so the same binary runs where there is no GPU or
// driver; built without, they say so. Either way, a machine without a usable
// device gets an InputError (exit 2): `--device cuda` never falls back to
// the CPU.
#pragma once

#include <cstddef>
#include <string>

namespace lbmc::engine::cuda {

//! Makes this process's device current, once: under MPI, device
//! (local rank mod device count). Throws InputError, naming why, where
//! there is none (no GPU, no driver, a build without CUDA).
void select_device();

//! The current device's name, e.g. "NVIDIA H200".
std::string device_name();

//! The current device's free memory in bytes.
std::size_t free_memory();

}  // namespace lbmc::engine::cuda
