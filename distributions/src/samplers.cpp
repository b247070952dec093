// The uniform sampler's construction (see samplers.hpp); the other samplers
// are built in ziggurat.cpp and discrete_samplers.cpp.
#include "lbmc/dist/samplers.hpp"

#include <fmt/format.h>

#include <cmath>
#include <limits>

#include "lbmc/engine/errors.hpp"

// No fused multiply-add anywhere in this file (sampler_support.hpp).
LBMC_SAMPLER_NO_FP_CONTRACT

namespace lbmc::dist {

UniformSampler::UniformSampler(const Uniform& law)
    : a_(law.a),
      width_(law.b - law.a),
      below_b_(std::nextafter(law.b, -std::numeric_limits<double>::infinity())) {
  if (!(std::isfinite(law.a) && std::isfinite(law.b) && law.a < law.b)) {
    throw engine::InputError(
        fmt::format("uniform sampler: need finite a < b, got {}, {}", law.a, law.b));
  }
  if (!std::isfinite(width_)) {
    split_ = true;
    width_ = 0.5 * law.b - 0.5 * law.a;
  }
}

ConstantSampler::ConstantSampler(const Constant& law) noexcept : value_(law.value) {}

}  // namespace lbmc::dist
