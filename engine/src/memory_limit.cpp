// Memory limits of the process: physical memory, rlimits, cgroup v2.
#include "lbmc/engine/memory_limit.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <string>

#include <fmt/format.h>
#include <sys/resource.h>
#include <unistd.h>

#include "lbmc/engine/errors.hpp"
#include "lbmc/engine/lists.hpp"

namespace lbmc::engine {
namespace {

// The n-th field of /proc/self/statm in bytes (0: total mapped, 5: data +
// stack); 0 when it cannot be read.
double statm_bytes(int field) {
  std::ifstream statm("/proc/self/statm");
  double pages = 0.0;
  for (int i = 0; i <= field && statm >> pages; ++i) {
  }
  return statm ? pages * static_cast<double>(::sysconf(_SC_PAGE_SIZE)) : 0.0;
}

// A limit less what is in use, or infinity when there is no limit.
double headroom(int resource, double used) {
  rlimit limit{};
  if (::getrlimit(resource, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return INFINITY;
  return std::max(0.0, static_cast<double>(limit.rlim_cur) - used);
}

// The cgroup v2 limit of this process's group less its usage, or infinity.
double cgroup_headroom() {
  std::ifstream self("/proc/self/cgroup");
  std::string line;
  std::string group;
  while (std::getline(self, line)) {
    if (line.rfind("0::", 0) == 0) group = line.substr(3);
  }
  if (group.empty()) return INFINITY;
  const std::string dir = "/sys/fs/cgroup" + (group == "/" ? std::string() : group);
  std::ifstream max_file(dir + "/memory.max");
  std::string max_text;
  if (!(max_file >> max_text) || max_text == "max") return INFINITY;
  double current = 0.0;
  std::ifstream(dir + "/memory.current") >> current;
  try {
    return std::max(0.0, parse_real(max_text) - current);
  } catch (const InputError&) {
    return INFINITY;
  }
}

}  // namespace

double available_memory() {
  const double physical = static_cast<double>(::sysconf(_SC_PHYS_PAGES)) * static_cast<double>(::sysconf(_SC_PAGE_SIZE));
  return std::min({physical, headroom(RLIMIT_AS, statm_bytes(0)), headroom(RLIMIT_DATA, statm_bytes(5)),
                   cgroup_headroom()});
}

double parse_memory_size(std::string_view text) {
  double unit = 1.0;
  std::string_view number = text;
  if (!text.empty()) {
    const std::string_view suffixes = "KMGT";
    const std::size_t at = suffixes.find(static_cast<char>(std::toupper(static_cast<unsigned char>(text.back()))));
    if (at != std::string_view::npos) {
      unit = std::ldexp(1.0, 10 * static_cast<int>(at + 1));
      number.remove_suffix(1);
    }
  }
  double value = 0.0;
  try {
    value = parse_real(number);
  } catch (const InputError&) {
    throw InputError(fmt::format("'{}' is not a size (a number with an optional K, M, G or T suffix)", text));
  }
  if (!(value > 0.0)) throw InputError(fmt::format("'{}': a size must be > 0", text));
  return value * unit;
}

std::string format_memory_size(double bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  int unit = 0;
  while (bytes >= 1024.0 && unit < 5) {
    bytes /= 1024.0;
    ++unit;
  }
  if (unit == 0) return fmt::format("{:.0f} B", bytes);
  // Beyond 10^5 PiB (an estimate that overflows no machine's memory only by
  // being astronomically large), the mantissa and exponent read better.
  return bytes < 1e5 ? fmt::format("{:.1f} {}", bytes, units[unit]) : fmt::format("{:.3g} {}", bytes, units[unit]);
}

}  // namespace lbmc::engine
