// What this build is: version, git revision, build type, compiler. Recorded
// in JSON metadata and printed by --version.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace lbmc::engine {

//! tool, version, git_revision, build_type and compiler, as a JSON object.
nlohmann::json build_info();
//! "lbmc VERSION (REVISION)".
std::string version_line();

}  // namespace lbmc::engine
