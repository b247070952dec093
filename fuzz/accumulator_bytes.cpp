// Fuzz target: the bytes of accumulators (engine/serial.hpp, fields.hpp), as
// one MPI rank reads them from another.
//
// Design note
// - Input: the first byte picks the accumulator (Moments, Proportion,
//   QuantileStore, BridgeCovariance, and the samples of maxshift, scatter
//   and rebalance, which hold optionals, strings, arrays and integers); the
//   rest is read by engine::from_bytes.
// - Bytes are either refused with engine::RuntimeFailure or give an
//   accumulator that behaves: it is saved again, that save loads, and saving
//   the loaded copy gives the same bytes, and its estimates (quantiles,
//   standard errors, the covariance) are read. Merging is not exercised:
//   counts near 2^63 are valid bytes but no run adds up to them. Nothing may crash, hang or allocate beyond what the
//   bytes describe (a length is checked against the bytes left before
//   anything is allocated); a dense sketch page is 4 MiB by design, which
//   -rss_limit_mb=2048 in scripts/fuzz.sh leaves room for.
// - Seeds: fuzz/corpus/accumulator_bytes/, written by lbmc_fuzz_seeds
//   (fuzz/seeds.cpp).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <span>
#include <vector>

#include "check.hpp"
#include "lbmc/engine/errors.hpp"
#include "lbmc/engine/fields.hpp"
#include "lbmc/engine/moments.hpp"
#include "lbmc/engine/proportion.hpp"
#include "lbmc/engine/quantile_store.hpp"
#include "lbmc/exp/maxshift.hpp"
#include "lbmc/exp/rebalance.hpp"
#include "lbmc/exp/scatter.hpp"

namespace {

using lbmc::engine::QuantileStore;

void read_out(const QuantileStore& loaded) {
  if (loaded.count() == 0) return;
  QuantileStore store = loaded;
  const lbmc::engine::QuantileResult s = store.finalize();
  for (const double alpha : {1e-4, 0.5, 0.9999}) {
    const auto q = s.quantile(alpha, 0.95);
    (void)s.resolution(q.value);
  }
  (void)s.fraction_at_most(0.5);
  (void)s.fraction_equal(0.5);
}

void use(const lbmc::engine::Moments& m) {
  (void)m.mean_se();
  (void)m.variance_se();
  (void)m.kurtosis();
}
void use(const lbmc::engine::Proportion& p) { (void)p.se(); }
void use(const QuantileStore& s) { read_out(s); }
void use(const lbmc::exp::BridgeCovariance& c) {
  if (c.count > 1) (void)c.covariance();
}
void use(const lbmc::exp::MaxShiftSample& s) {
  read_out(s.w_prime_values);
  read_out(s.d_prime_values);
}
void use(const lbmc::exp::ScatterSample& s) { read_out(s.l_values); }
void use(const lbmc::exp::RebalanceSample& s) { read_out(s.d_values); }

template <class Accumulator>
void load(std::span<const std::byte> bytes) {
  Accumulator acc;
  try {
    lbmc::engine::from_bytes(bytes, acc);
  } catch (const lbmc::engine::RuntimeFailure&) {
    return;
  }
  const std::vector<std::byte> saved = lbmc::engine::to_bytes(acc);
  Accumulator again;
  lbmc::engine::from_bytes(saved, again);
  check(lbmc::engine::to_bytes(again) == saved);
  use(again);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(data) + 1, size - 1);
  switch (data[0] % 7) {
    case 0: load<lbmc::engine::Moments>(bytes); break;
    case 1: load<lbmc::engine::Proportion>(bytes); break;
    case 2: load<QuantileStore>(bytes); break;
    case 3: load<lbmc::exp::BridgeCovariance>(bytes); break;
    case 4: load<lbmc::exp::MaxShiftSample>(bytes); break;
    case 5: load<lbmc::exp::ScatterSample>(bytes); break;
    default: load<lbmc::exp::RebalanceSample>(bytes); break;
  }
  return 0;
}
