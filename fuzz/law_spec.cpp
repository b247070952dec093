// Fuzz target: the load-law spec parser (dist::parse_load_law).
//
// Design note
// - Input: the spec as text ("normal:0,1", "poisson:5", anything else).
// - A spec is either refused with engine::InputError or gives a law that the
//   rest of lbmc can use: its canonical spec (to_spec) parses back to the
//   same law, its moments, support and cdf are computed without an
//   exception, and its sampler is built and draws values inside the support.
//   Any other exception escapes to libFuzzer and is a finding, as are the
//   sanitizers' reports.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "lbmc/dist/laws.hpp"
#include "lbmc/dist/samplers.hpp"
#include "lbmc/engine/errors.hpp"
#include "lbmc/engine/rng.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view spec(reinterpret_cast<const char*>(data), size);
  lbmc::dist::LoadLaw law;
  try {
    law = lbmc::dist::parse_load_law(spec);
  } catch (const lbmc::engine::InputError&) {
    return 0;
  }
  const std::string canonical = lbmc::dist::to_spec(law);
  if (lbmc::dist::to_spec(lbmc::dist::parse_load_law(canonical)) != canonical) std::abort();
  const double mean = lbmc::dist::mean(law);
  const double sd = lbmc::dist::standard_deviation(law);
  const double lo = lbmc::dist::support_min(law);
  const double hi = lbmc::dist::support_max(law);
  if (!(lo <= hi) || std::isnan(mean) || std::isnan(sd)) std::abort();
  (void)lbmc::dist::cdf(law, mean);
  (void)lbmc::dist::ccdf(law, mean);
  (void)lbmc::dist::is_continuous(law);
  (void)lbmc::dist::is_integer_valued(law);
  lbmc::dist::visit_sampler(law, [&](const auto& sampler) {
    lbmc::engine::Generator gen = lbmc::engine::keyed_generator(1);
    for (int i = 0; i < 4; ++i) {
      const double x = sampler(gen);
      if (!(x >= lo && x <= hi)) std::abort();
    }
  });
  return 0;
}
