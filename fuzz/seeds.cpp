// Writes the seeds of the accumulator_bytes fuzz target: small accumulators
// of every kind it reads, each as its selector byte (accumulator_bytes.cpp)
// and its bytes. Usage: lbmc_fuzz_seeds FOLDER (fuzz/corpus/accumulator_bytes).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "lbmc/engine/fields.hpp"
#include "lbmc/engine/moments.hpp"
#include "lbmc/engine/proportion.hpp"
#include "lbmc/engine/quantile_store.hpp"
#include "lbmc/exp/maxshift.hpp"
#include "lbmc/exp/rebalance.hpp"
#include "lbmc/exp/scatter.hpp"

namespace {

using namespace lbmc;

template <class Accumulator>
void write(const std::string& folder, const std::string& name, std::uint8_t selector, const Accumulator& acc) {
  const std::vector<std::byte> bytes = engine::to_bytes(acc);
  std::ofstream out(folder + "/" + name, std::ios::binary);
  out.put(static_cast<char>(selector));
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

// A small store: exact, or a sketch past a cap of 8 with 4 exact values per
// page, so that integer pages, float pages and dense pages all occur.
engine::QuantileStore store(int count, bool integers, std::size_t cap) {
  engine::QuantileStore s(cap, 4, 0xffffffffULL);
  for (int i = 0; i < count; ++i) s.add(integers ? static_cast<double>(i % 7) : 0.5 + 0.01 * i);
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: lbmc_fuzz_seeds FOLDER\n");
    return 2;
  }
  const std::string folder = argv[1];
  engine::Moments m;
  for (int i = 0; i < 5; ++i) m.add(1.5 * i);
  write(folder, "moments", 0, m);
  write(folder, "moments_empty", 0, engine::Moments{});
  engine::Proportion p;
  p.add(3, 10);
  write(folder, "proportion", 1, p);
  write(folder, "store_exact", 2, store(5, false, engine::QuantileStore::kDefaultCap));
  write(folder, "store_empty", 2, engine::QuantileStore{});
  write(folder, "store_integer_sketch", 2, store(40, true, 8));
  write(folder, "store_float_sketch", 2, store(40, false, 8));
  exp::BridgeCovariance c;
  Eigen::VectorXd v(3);
  for (int r = 0; r < 3; ++r) {
    v << 0.5 * r, -1.0, 0.5 - r;
    c.add(v);
  }
  write(folder, "bridge_covariance", 3, c);
  exp::MaxShiftSample shift;
  shift.w_prime.add(0.25);
  shift.w_prime_values.add(0.25);
  shift.d_prime_values.add(0.5);
  shift.w_zero.add(true);
  write(folder, "maxshift_sample", 4, shift);
  shift.covariance = c;
  write(folder, "maxshift_sample_covariance", 4, shift);
  exp::ScatterSample scatter;
  scatter.l.add(2.0);
  scatter.l_values.add(2.0);
  write(folder, "scatter_sample", 5, scatter);
  exp::RebalanceSample rebalance;
  rebalance.d.add(1.0);
  rebalance.d_values.add(1.0);
  rebalance.approach[0].violations = 1;
  rebalance.first_violation = "an element arrived twice";
  write(folder, "rebalance_sample", 6, rebalance);
  return 0;
}
