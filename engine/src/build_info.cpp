// Static facts of this build, from definitions set on this file alone and
// the git revision the build read (lbmc_revision.hpp, in the build folder).
#include "lbmc/engine/build_info.hpp"

#include "lbmc_revision.hpp"

#include <fmt/format.h>

namespace lbmc::engine {

nlohmann::json build_info() {
  nlohmann::json info;
  info["tool"] = "lbmc";
  info["version"] = LBMC_VERSION;
  info["git_revision"] = LBMC_GIT_REVISION;
  info["build_type"] = LBMC_BUILD_TYPE;
#if defined(__clang__)
  info["compiler"] = fmt::format("clang {}.{}.{}", __clang_major__, __clang_minor__, __clang_patchlevel__);
#elif defined(__GNUC__)
  info["compiler"] = fmt::format("gcc {}.{}.{}", __GNUC__, __GNUC_MINOR__, __GNUC_PATCHLEVEL__);
#else
  info["compiler"] = "unknown";
#endif
  return info;
}

std::string version_line() { return fmt::format("lbmc {} ({})", LBMC_VERSION, LBMC_GIT_REVISION); }

}  // namespace lbmc::engine
