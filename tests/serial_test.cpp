// Accumulators as bytes (engine/serial.hpp, engine/fields.hpp): a loaded
// accumulator reports what the saved one reports, bit for bit, and merges as
// it would; the encoding is fixed little-endian; bytes that are not an
// accumulator's are refused.
#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "lbmc/engine/errors.hpp"
#include "lbmc/engine/fields.hpp"
#include "lbmc/engine/moments.hpp"
#include "lbmc/engine/proportion.hpp"
#include "lbmc/engine/quantile_store.hpp"
#include "lbmc/engine/rng.hpp"
#include "lbmc/exp/dynamic_search.hpp"
#include "lbmc/exp/maxshift.hpp"

namespace serial_test {

using namespace lbmc::engine;

namespace {

template <class T>
T round_trip(const T& original, T loaded = T{}) {
  from_bytes(to_bytes(original), loaded);
  return loaded;
}

bool same_bits(double a, double b) { return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b); }

// Every quantile the store reports, with its interval, at a few levels.
std::vector<double> readout(const QuantileStore& store) {
  QuantileStore finalized = store;
  const QuantileResult s = finalized.finalize();
  std::vector<double> out{static_cast<double>(s.count())};
  for (const double alpha : {1e-4, 0.05, 0.5, 0.95, 0.9999}) {
    const QuantileEstimate q = s.quantile(alpha, 0.95);
    out.insert(out.end(), {q.value, q.low, q.high, q.se, s.resolution(q.value)});
  }
  out.push_back(s.fraction_at_most(0.5));
  return out;
}

bool same_readout(const QuantileStore& a, const QuantileStore& b) {
  const auto x = readout(a);
  const auto y = readout(b);
  if (x.size() != y.size()) return false;
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (!same_bits(x[i], y[i])) return false;
  }
  return true;
}

// A sample with every kind of field.
struct Sample {
  Moments m;
  Proportion p;
  QuantileStore q{64, 8};
  std::int64_t count = 0;
  std::string first;
  std::optional<Moments> maybe;
  Moments pair[2];
  template <class Self>
  static auto fields(Self& s) {
    return std::tie(s.m, s.p, s.q, s.count, s.first, s.maybe, s.pair);
  }
  void merge(const Sample& o) { merge_fields(*this, o); }
};

}  // namespace

TEST_SUITE("fast") {
  TEST_CASE("serial: the encoding is little-endian and doubles keep every bit") {
    ByteWriter out;
    out.u64(0x0102030405060708ULL);
    out.f64(-0.0);
    out.f64(std::nan("0x5"));
    const auto& b = out.data();
    REQUIRE(b.size() == 24);
    CHECK(static_cast<int>(b[0]) == 0x08);
    CHECK(static_cast<int>(b[7]) == 0x01);
    CHECK(static_cast<int>(b[15]) == 0x80);  // the sign of −0
    ByteReader in(b);
    CHECK(in.u64() == 0x0102030405060708ULL);
    CHECK(same_bits(in.f64(), -0.0));
    CHECK(same_bits(in.f64(), std::nan("0x5")));
    CHECK(in.at_end());
  }

  TEST_CASE("serial: a borrowing writer's pieces are the bytes a copying writer writes") {
    // Short and long sequences of doubles (the long ones borrowed), a
    // sequence at the borrowing threshold, and bytes after the last one.
    const std::size_t threshold = ByteWriter::kBorrowedBytes / sizeof(double);
    std::vector<std::vector<double>> sequences{{1.5, -2.0}, std::vector<double>(threshold + 3, 0.25),
                                               std::vector<double>(threshold, -7.0), {}, {3.0}};
    for (std::size_t i = 0; i < sequences[1].size(); ++i) sequences[1][i] = static_cast<double>(i) / 3.0;
    ByteWriter copying;
    ByteWriter borrowing = ByteWriter::borrowing();
    for (ByteWriter* out : {&copying, &borrowing}) {
      out->u32(7);
      for (const auto& sequence : sequences) out->f64s(sequence);
      out->f64s_elements(sequences[1]);
      out->text("end");
    }
    std::vector<std::byte> joined;
    const auto pieces = borrowing.pieces();
    for (const auto& piece : pieces) joined.insert(joined.end(), piece.begin(), piece.end());
    CHECK(joined == copying.data());
    CHECK(pieces.size() == 7);  // 3 borrowed, 4 runs of copied bytes around them
    CHECK(borrowing.data().size() < copying.data().size() / 10);
    borrowing.clear();
    CHECK(borrowing.pieces().empty());
  }

  TEST_CASE("serial: moments and proportions come back bit for bit") {
    auto gen = block_generator(1, 0);
    Moments m;
    Proportion p;
    for (int i = 0; i < 1000; ++i) {
      const double u = uniform01(gen);
      m.add(std::exp(u));
      p.add(u < 0.1);
    }
    const Moments m2 = round_trip(m);
    CHECK(m2.count() == m.count());
    for (const auto& [a, b] : {std::pair{m.mean(), m2.mean()}, {m.variance(), m2.variance()},
                               {m.kurtosis(), m2.kurtosis()}, {m.variance_se(), m2.variance_se()}}) {
      CHECK(same_bits(a, b));
    }
    const Proportion p2 = round_trip(p);
    CHECK(p2.hits() == p.hits());
    CHECK(p2.trials() == p.trials());
  }

  TEST_CASE("serial: quantile stores - exact and past the cap - report and merge as the saved ones") {
    auto gen = block_generator(2, 0);
    // Exact; integer sketch; float sketch with dense pages; and 64-bit counts.
    for (const bool integers : {true, false}) {
      for (const std::size_t n : {std::size_t{50}, std::size_t{5000}}) {
        CAPTURE(integers);
        CAPTURE(n);
        QuantileStore a(100, 16, 300), b(100, 16, 300), direct(100, 16, 300);
        for (std::size_t i = 0; i < n; ++i) {
          const double u = uniform01(gen);
          const double x = integers ? std::floor(20.0 * u * u) : u * u;
          (i % 3 == 0 ? a : b).add(x);
          direct.add(x);
        }
        const QuantileStore a2 = round_trip(a, QuantileStore(7));
        const QuantileStore b2 = round_trip(b);
        CHECK(same_readout(a, a2));
        CHECK(same_readout(b, b2));
        QuantileStore merged = a2;
        merged.merge(b2);
        QuantileStore original = a;
        original.merge(b);
        CHECK(same_readout(merged, original));
        CHECK(same_readout(merged, direct));
      }
    }
  }

  TEST_CASE("serial: a sample round-trips field by field") {
    auto gen = block_generator(3, 0);
    Sample s;
    for (int i = 0; i < 200; ++i) {
      const double u = uniform01(gen);
      s.m.add(u);
      s.p.add(u > 0.5);
      s.q.add(u);
      s.pair[i % 2].add(u);
    }
    s.count = -17;
    s.first = "a message, with\nlines";
    s.maybe.emplace().add(2.5);
    const Sample t = round_trip(s);
    CHECK(to_bytes(t) == to_bytes(s));
    CHECK(t.count == -17);
    CHECK(t.first == s.first);
    REQUIRE(t.maybe.has_value());
    CHECK(t.maybe->mean() == 2.5);
    CHECK(same_readout(t.q, s.q));
    Sample empty;
    CHECK(!round_trip(empty).maybe.has_value());
  }

  TEST_CASE("serial: the experiments' own accumulators round-trip") {
    lbmc::exp::BridgeCovariance c;
    c.sum = Eigen::VectorXd::LinSpaced(3, 1.0, 3.0);
    c.outer = Eigen::MatrixXd::Identity(3, 3) * 2.0;
    c.count = 5;
    const auto c2 = round_trip(c);
    CHECK(c2.count == 5);
    CHECK(c2.sum == c.sum);
    CHECK(c2.outer == c.outer);

    lbmc::exp::CommonSample k;
    k.t1 = 4.0;
    k.add({1.0, 2.0});
    k.add({3.0, 5.0});
    const auto k2 = round_trip(k);
    CHECK(to_bytes(k2) == to_bytes(k));
    CHECK(k2.mean_covariance(0, 1) == k.mean_covariance(0, 1));
  }

  TEST_CASE("serial: truncated - extended or corrupt bytes are refused") {
    Sample s;
    s.q.add(1.0);
    s.m.add(1.0);
    const std::vector<std::byte> bytes = to_bytes(s);
    for (std::size_t cut = 0; cut < bytes.size(); cut += 7) {
      Sample t;
      CHECK_THROWS_AS(from_bytes(std::span(bytes).first(cut), t), RuntimeFailure);
    }
    std::vector<std::byte> longer = bytes;
    longer.push_back(std::byte{0});
    Sample t;
    CHECK_THROWS_AS(from_bytes(longer, t), RuntimeFailure);
    // A length field claiming more than the bytes hold.
    ByteWriter lie;
    lie.u64(1ULL << 60);
    std::vector<double> v;
    CHECK_THROWS_AS(from_bytes(lie.data(), v), RuntimeFailure);
    // A negative count.
    ByteWriter negative;
    negative.i64(-1);
    for (int i = 0; i < 4; ++i) negative.f64(0.0);
    Moments m;
    CHECK_THROWS_AS(from_bytes(negative.data(), m), RuntimeFailure);
  }

  TEST_CASE("serial: a dense sketch page naming a bucket twice is refused") {
    // One integer page of 40 values in buckets 0..6, made dense (cap 8, 4
    // exact values per page), written by hand with bucket 0 twice: the
    // counts add up to the page's count, but a bucket holds one count.
    ByteWriter out;
    out.u64(8);            // cap
    out.u64(4);            // exact values per page
    out.u64(0xffffffff);   // 32-bit count limit
    out.i64(40);           // count
    out.boolean(true);     // a sketch
    out.boolean(true);     // integer keys
    out.u64(1);            // pages
    out.i64(0);            // page key
    out.i64(40);           // page count
    out.boolean(true);     // dense
    out.u64(7);            // nonzero buckets
    const std::uint32_t buckets[] = {0, 1, 2, 3, 4, 0, 6};
    const std::uint64_t counts[] = {6, 6, 6, 6, 6, 5, 5};
    for (int i = 0; i < 7; ++i) {
      out.u32(buckets[i]);
      out.u64(counts[i]);
    }
    QuantileStore q;
    CHECK_THROWS_AS(from_bytes(out.data(), q), RuntimeFailure);
    // The same buckets in order, each once, load.
    ByteWriter good;
    for (const std::uint64_t v : {8ULL, 4ULL, 0xffffffffULL}) good.u64(v);
    good.i64(40);
    good.boolean(true);
    good.boolean(true);
    good.u64(1);
    good.i64(0);
    good.i64(40);
    good.boolean(true);
    good.u64(7);
    for (std::uint32_t b = 0; b < 7; ++b) {
      good.u32(b);
      good.u64(b < 5 ? 6 : 5);
    }
    QuantileStore loaded;
    from_bytes(good.data(), loaded);
    CHECK(loaded.count() == 40);
    CHECK(to_bytes(loaded) == good.data());
  }
}

}  // namespace serial_test
