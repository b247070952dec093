// The host's side of device_parts.cu: the standard normal's portable sampler
// with its tables on the host (laws.hpp stays out of nvcc's way).
#include "lbmc/dist/laws.hpp"
#include "lbmc/dist/samplers.hpp"

lbmc::dist::PortableNormal device_parts_normal() {
  static const lbmc::dist::NormalSampler sampler(lbmc::dist::Normal{0.0, 1.0});
  return sampler.portable();
}
