// Task times for the schedule tests: n iid draws of a law spec from block 0
// of `seed`'s stream, through the law's own sampler.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "lbmc/dist/laws.hpp"
#include "lbmc/dist/samplers.hpp"
#include "lbmc/engine/rng.hpp"

namespace lbmc::test {

inline std::vector<double> draw_times(const std::string& spec, std::size_t n, std::uint64_t seed) {
  engine::Generator gen = engine::block_generator(seed, 0);
  std::vector<double> times(n);
  dist::visit_sampler(dist::parse_load_law(spec), [&](const auto& sampler) {
    for (double& t : times) t = sampler(gen);
    return 0;
  });
  return times;
}

}  // namespace lbmc::test
