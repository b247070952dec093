// How much memory a run may take, and the sizes the user writes for it.
//
// A run's estimated need is compared, before any work, with the least of:
// the machine's physical memory; the address-space and data-segment limits
// (ulimit -v, ulimit -d) less what the process maps already; and a cgroup v2
// memory.max less memory.current (a container's or a Slurm job's limit).
// `--max-memory` sets a lower bound of the user's own. Sizes are written as
// a number with an optional K, M, G or T suffix, powers of 1024.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace lbmc::engine {

//! Bytes this process may still allocate, as above (at least 0).
double available_memory();

//! "512M", "4G", "1.5T", "1e9": bytes, > 0. Throws InputError otherwise.
double parse_memory_size(std::string_view text);

//! "3.2 GiB", "512 MiB", "900 KiB", "12 B": for messages.
std::string format_memory_size(double bytes);

}  // namespace lbmc::engine
