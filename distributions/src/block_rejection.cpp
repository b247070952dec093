// The blocks, the piece table and the cold paths of BlockRejection (see
// block_rejection.hpp).
#include "lbmc/dist/block_rejection.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>

#include "lbmc/dist/double_double.hpp"

// No fused multiply-add anywhere in this file (sampler_support.hpp).
LBMC_SAMPLER_NO_FP_CONTRACT

namespace lbmc::dist {
namespace {

constexpr double kEpsilon = 0x1.0p-5;      // largest drop of log f over a block
constexpr double kHatMargin = 0x1.0p-32;   // hat raised, squeeze lowered by this
constexpr double kTableMargin = 0x1.0p-30; // T' = (1 + this)·T: room for the ceilings
constexpr unsigned kMaxShift = 40;
constexpr double kLargest = 0x1.0p52;      // values stay below 2^52 + 2^40
constexpr double kTwo63 = 0x1.0p63;

// 2^s for -1022 <= s <= 1023, without a call: the cold paths scale by it,
// exactly as ldexp would.
double power_of_two(int s) noexcept { return std::bit_cast<double>(static_cast<std::uint64_t>(1023 + s) << 52); }

struct RawBlock {
  double start;
  unsigned shift;
  double log_start;  // log f(start)
  double log_peak;   // log of the larger end's mass
  double slope;      // of the line below log f (design note)
  double rise;       // log f(start + i) - log f(start) <= i/(width - 1)·rise
};
struct RawTail {
  double edge = 0.0;
  double lambda = 1.0;
  double log_edge = -std::numeric_limits<double>::infinity();  // log f(edge); -inf: no tail
};
struct Layout {
  std::vector<RawBlock> blocks;  // by increasing start
  RawTail lower, upper;
};

// sum_{i >= 1} e^(-lambda i) = 1/expm1(lambda), as log, in double-double.
double log_geometric_sum(const ExpLogTables& t, double lambda) {
  return -portable_log(t, dd::to_double(dd::dd_exp(dd::DD{lambda}) - dd::DD{1.0}));
}

// The blocks on one side of the mode: direction +1 from `from` upwards,
// -1 from `from` downwards to 0.
void lay_side(const UnimodalLaw& law, const ExpLogTables& t, double from, double direction,
              std::vector<RawBlock>& out, RawTail& tail) {
  const auto& log_f = law.log_pmf;
  const double log_tail_mass = portable_log(t, law.tail_mass);
  double near = from;  // the end of the next block nearer the mode
  double log_near = log_f(near);
  unsigned s = 0;
  for (;;) {
    // The widest 2^s (searched from the last one) over which log f drops by <= epsilon.
    double log_far = log_near;
    auto fits = [&](unsigned shift, double& value) {
      const double far = near + direction * (std::ldexp(1.0, static_cast<int>(shift)) - 1.0);
      if (far < 0.0 || far >= kLargest) return false;
      value = log_f(far);
      return log_near - value <= kEpsilon;
    };
    if (fits(s, log_far)) {
      double wider = 0.0;
      while (s < kMaxShift && fits(s + 1, wider)) {
        ++s;
        log_far = wider;
      }
    } else {  // s > 0: a single value always fits
      while (--s > 0 && !fits(s, log_far)) {
      }
      if (s == 0) log_far = log_near;
    }
    const double width = std::ldexp(1.0, static_cast<int>(s));
    const double far = near + direction * (width - 1.0);
    const bool up = direction > 0.0;
    const double start = up ? near : far;
    const double log_start = up ? log_near : log_far;
    const double log_end = up ? log_far : log_near;
    // Below log f: the chord (concave) or the first ratio (convex); above
    // it the other one.
    double slope = 0.0;
    double rise = 0.0;
    if (s > 0) {
      const double chord = log_end - log_start;
      const double first = law.log_ratio(start);
      slope = (law.log_concave ? chord : first * (width - 1.0)) / (width - 1.0);
      rise = law.log_concave ? first * (width - 1.0) : chord;
    }
    out.push_back({start, s, log_start, std::max(log_near, log_far), slope, rise});
    if (!up && far == 0.0) return;  // down to 0: no lower tail
    if (up && far + 1.0 >= kLargest) {    // unreachable for the laws in use
      tail = {far, law.upper_decay(far), log_far};
      return;
    }
    if (log_far < log_tail_mass) {
      const double lambda = up ? law.upper_decay(far) : law.lower_decay(far);
      if (lambda > 0.0 && log_far + kHatMargin + log_geometric_sum(t, lambda) <= log_tail_mass) {
        tail = {far, lambda, log_far};
        return;
      }
    }
    near = far + direction;
    log_near = log_f(near);
  }
}

Layout lay_out(const UnimodalLaw& law, const ExpLogTables& t) {
  Layout layout;
  std::vector<RawBlock> below;
  if (law.mode > 0.0) lay_side(law, t, law.mode - 1.0, -1.0, below, layout.lower);
  layout.blocks.assign(below.rbegin(), below.rend());
  lay_side(law, t, law.mode, 1.0, layout.blocks, layout.upper);
  return layout;
}

// The hat masses: lower tail, blocks, upper tail.
std::vector<double> hat_masses(const Layout& layout, const ExpLogTables& t) {
  const std::vector<RawBlock>& raw = layout.blocks;
  const std::size_t n = raw.size();
  std::vector<double> mass(n + 2, 0.0);
  auto tail_mass = [&](const RawTail& tail) {
    if (tail.log_edge == -std::numeric_limits<double>::infinity()) return 0.0;
    return portable_exp(t, tail.log_edge + log_geometric_sum(t, tail.lambda)) * (1.0 + kHatMargin);
  };
  mass[0] = tail_mass(layout.lower);
  for (std::size_t j = 0; j < n; ++j) {
    mass[j + 1] = std::ldexp(portable_exp(t, raw[j].log_peak), static_cast<int>(raw[j].shift)) * (1.0 + kHatMargin);
  }
  mass[n + 1] = tail_mass(layout.upper);
  return mass;
}

// The table's widths of the masses over T', rounded up; the last cell,
// what they leave, draws again.
std::vector<std::uint64_t> rounded_widths(const std::vector<double>& mass, double scaled_total) {
  std::vector<std::uint64_t> widths(mass.size() + 1, 0);
  std::uint64_t used = 0;
  for (std::size_t j = 0; j < mass.size(); ++j) {
    widths[j] = static_cast<std::uint64_t>(std::ceil(mass[j] / scaled_total * kTwo63));
    used += widths[j];
  }
  if (used >= std::uint64_t{1} << 63) throw std::logic_error("block rejection: widths exceed 2^63");
  widths.back() = (std::uint64_t{1} << 63) - used;
  return widths;
}

// The hat a block draws from once its width is rounded (h'), and the
// squeeze and ceiling under it, unscaled.
struct BlockHat {
  double height;  // h'
  double a;       // the squeeze at offset 0, over 1 - kHatMargin
  double top;     // the ceiling at offset 0
  double growth;  // the ceiling's rise per offset, relative to top
};
BlockHat block_hat(const RawBlock& r, std::uint64_t width, double scaled_total, const ExpLogTables& t) {
  BlockHat h{};
  h.height = std::ldexp(static_cast<double>(width) * scaled_total / kTwo63, -static_cast<int>(r.shift));
  h.a = portable_exp(t, r.log_start) / h.height * (1.0 - kHatMargin);
  // e^(x·rise) <= 1 + x·(e^rise - 1) for x in [0, 1] (exp is convex).
  h.top = portable_exp(t, r.log_start) / h.height * (1.0 + kHatMargin);
  h.growth = r.shift == 0 ? 0.0 : (portable_exp(t, r.rise) * (1.0 + kHatMargin) - 1.0) /
                                      (std::ldexp(1.0, static_cast<int>(r.shift)) - 1.0);
  return h;
}

// The log of the rescaled hat at a tail's edge: W·T'/2^63·expm1(lambda) at
// edge ± i times e^(-lambda i); -inf for a tail of width 0.
double log_tail_hat_edge(const RawTail& raw_tail, std::uint64_t width, double scaled_total, const ExpLogTables& t) {
  if (width == 0) return -std::numeric_limits<double>::infinity();
  const double expm1 = dd::to_double(dd::dd_exp(dd::DD{raw_tail.lambda}) - dd::DD{1.0});
  return portable_log(t, static_cast<double>(width) * scaled_total / kTwo63 * expm1);
}

}  // namespace

BlockRejection::BlockRejection(const UnimodalLaw& law) : log_pmf_(law.log_pmf) {
  const ExpLogTables& t = *math_;
  if (!law.log_concave && law.mode != 0.0) throw std::logic_error("block rejection: a log-convex law has mode 0");
  if (!(law.tail_mass > 0.0 && law.tail_mass <= 0.25)) throw std::logic_error("block rejection: tail_mass");
  const Layout layout = lay_out(law, t);
  const std::vector<RawBlock>& raw = layout.blocks;
  const std::size_t n = raw.size();
  const std::vector<double> mass = hat_masses(layout, t);
  double total = 0.0;
  for (const double m : mass) total += m;
  const double scaled_total = total * (1.0 + kTableMargin);  // T'
  const std::vector<std::uint64_t> widths = rounded_widths(mass, scaled_total);
  table_ = InversionTable(0.0, widths);

  // The hats the rounded widths draw from, and the squeezes under them;
  // A and B scaled for the comparison with W (header).
  for (std::size_t j = 0; j < n; ++j) {
    const RawBlock& r = raw[j];
    const BlockHat h = block_hat(r, widths[j + 1], scaled_total, t);
    const double a = std::ldexp(h.a, kPayloadBits);
    blocks_.push_back({r.start, a - std::ldexp(1.0, static_cast<int>(r.shift)), a * r.slope,
                       (std::uint64_t{1} << r.shift) - 1});
    shifts_.push_back(r.shift);
    ceilings_.push_back({h.top, h.top * h.growth});
    log_heights_.push_back(portable_log(t, h.height));
    widest_shift_ = std::max(widest_shift_, r.shift);
  }
  lower_ = {layout.lower.edge, layout.lower.lambda, log_tail_hat_edge(layout.lower, widths[0], scaled_total, t)};
  upper_ = {layout.upper.edge, layout.upper.lambda, log_tail_hat_edge(layout.upper, widths[n + 1], scaled_total, t)};
  // Bucket g holds the outputs x with x >> 48 == g, so u = x >> 1 in
  // [g·2^47, (g+1)·2^47): it fixes cell i when thr[i] is past its end.
  const std::vector<std::uint64_t>& thr = table_.thresholds();
  buckets_.assign(std::size_t{1} << (64 - kPayloadBits), kMixed);
  std::size_t i = 0;
  for (std::size_t g = 0; g < buckets_.size(); ++g) {
    const std::uint64_t first_u = static_cast<std::uint64_t>(g) << (kPayloadBits - 1);
    const std::uint64_t last_u = first_u + ((std::uint64_t{1} << (kPayloadBits - 1)) - 1);
    while (thr[i] <= first_u) ++i;
    const std::size_t j = i - 1;  // the block of cell i, if it is one
    if (thr[i] > last_u && i >= 1 && j < n) buckets_[g] = static_cast<std::uint32_t>(j);
  }
  first_ = raw.front().start;
  last_ = raw.back().start + std::ldexp(1.0, static_cast<int>(raw.back().shift)) - 1.0;
  choose_quiet_buckets();
}

void BlockRejection::choose_quiet_buckets() {
  LBMC_SAMPLER_NO_FP_CONTRACT
  // A payload below the squeeze's least value on block j, less one (for a
  // fused multiply-add), settles at every offset: base + slope·offset is
  // monotone in the offset, and so is its rounding, so the least is at an end.
  std::vector<std::uint64_t> bound(blocks_.size(), 0);
  for (std::size_t j = 0; j < blocks_.size(); ++j) {
    const Block& b = blocks_[j];
    const double least = std::min(b.base, b.base + b.slope * static_cast<double>(b.mask));
    if (least >= 2.0) bound[j] = static_cast<std::uint64_t>(least) - 1;
  }
  // One bound for every quiet bucket: the one that passes over the most
  // outputs, the bound times the share of the buckets whose blocks reach it.
  std::vector<std::uint64_t> reached;
  for (const std::uint32_t j : buckets_) {
    if (j != kMixed) reached.push_back(bound[j]);
  }
  std::sort(reached.begin(), reached.end(), std::greater<>());
  double most = 0.0;
  for (std::size_t k = 0; k < reached.size(); ++k) {
    const double passed = static_cast<double>(k + 1) * static_cast<double>(reached[k]);
    if (passed > most) {
      most = passed;
      quiet_payload_ = reached[k];
    }
  }
  quiet_buckets_.assign(buckets_.size() / 64, 0);
  for (std::size_t g = 0; g < buckets_.size(); ++g) {
    if (buckets_[g] != kMixed && quiet_payload_ != 0 && bound[buckets_[g]] >= quiet_payload_) {
      quiet_buckets_[g / 64] |= std::uint64_t{1} << (g % 64);
    }
  }
}

double BlockRejection::tail(const Tail& t, double direction, engine::Generator& gen) const {
  const double e = -portable_log(*math_, engine::uniform_open01(gen));
  const double i = 1.0 + std::floor(e / t.lambda);
  const double k = t.edge + direction * i;
  const double v = engine::uniform01(gen);
  if (k < 0.0 || k >= 0x1.0p53) return std::numeric_limits<double>::quiet_NaN();
  if (log_pmf_(k) >= portable_log(*math_, v) + (t.log_hat_edge - t.lambda * i)) return k;
  return std::numeric_limits<double>::quiet_NaN();
}

bool BlockRejection::accepts(std::size_t j, double offset, double v) const {
  const Ceiling& c = ceilings_[j];
  return v < c.a + c.c * offset &&
         log_pmf_(blocks_[j].start + offset) >= portable_log(*math_, v) + log_heights_[j];
}

double BlockRejection::completed(std::size_t j, double v_high, engine::Generator& gen) const {
  // Both products are exact (v is 0 or at least 2^-101).
  return (v_high + engine::uniform01(gen) * power_of_two(static_cast<int>(shifts_[j]))) *
         power_of_two(-static_cast<int>(kPayloadBits));
}

double BlockRejection::past_squeeze(std::uint32_t j, double offset, double v_high, engine::Generator& gen) const {
  const double v = completed(j, v_high, gen);
  if (accepts(j, offset, v)) return blocks_[j].start + offset;
  return draw_slowly(gen(), gen);
}

double BlockRejection::draw_slowly(std::uint64_t x, engine::Generator& gen) const {
  const std::size_t n = blocks_.size();
  for (;; x = gen()) {
    const std::uint32_t fixed = buckets_[static_cast<std::size_t>(x >> kPayloadBits)];
    std::size_t j = fixed;
    double offset = 0.0;
    double v = 0.0;
    if (fixed != kMixed) {  // as operator()
      double v_high = 0.0;
      if (squeezed(x, blocks_[j], offset, v_high)) return blocks_[j].start + offset;
      v = completed(j, v_high, gen);
    } else {
      j = table_.locate(x >> 1) - 1;
      if (j >= n) {
        if (j == n + 1) continue;  // the cell that draws again
        const bool up = j == n;
        const double k = tail(up ? upper_ : lower_, up ? 1.0 : -1.0, gen);
        if (!std::isnan(k)) return k;
        continue;
      }
      // A fresh output: the offset from its top bits, v from its low 53
      // (from a third output past 2^11 values).
      const Block& b = blocks_[j];
      const unsigned shift = shifts_[j];
      const std::uint64_t y = gen();
      if (shift <= 11) {
        offset = static_cast<double>((y >> 53) >> (11 - shift));
        v = static_cast<double>(y & ((std::uint64_t{1} << 53) - 1)) * 0x1.0p-53;
      } else {
        offset = static_cast<double>(y >> (64 - shift));
        v = engine::uniform01(gen);
      }
      if (v * 0x1.0p48 - power_of_two(static_cast<int>(shift)) < b.base + b.slope * offset) return b.start + offset;
    }
    if (accepts(j, offset, v)) return blocks_[j].start + offset;
  }
}

double BlockRejection::block_height(std::size_t j) const { return portable_exp(*math_, log_heights_.at(j)); }

double BlockRejection::squeeze(std::size_t j, double offset) const {
  const Block& b = blocks_.at(j);
  // W < base + slope·offset (rounded), W a multiple of 2^s: v < (W + 2^s)/2^48.
  return std::ldexp((b.base + b.slope * offset) + std::ldexp(1.0, static_cast<int>(shifts_[j])),
                    -static_cast<int>(kPayloadBits));
}

double BlockRejection::ceiling(std::size_t j, double offset) const {
  const Ceiling& c = ceilings_.at(j);
  return c.a + c.c * offset;
}

double BlockRejection::log_tail_hat(bool upper, double k) const {
  const Tail& t = upper ? upper_ : lower_;
  return t.log_hat_edge - t.lambda * std::abs(k - t.edge);
}

double BlockRejection::quiet_share() const noexcept {
  std::size_t quiet = 0;
  for (const std::uint64_t word : quiet_buckets_) quiet += static_cast<std::size_t>(std::popcount(word));
  return static_cast<double>(quiet) / static_cast<double>(buckets_.size());
}

double BlockRejection::fixed_share() const noexcept {
  const auto fixed = std::count_if(buckets_.begin(), buckets_.end(), [](std::uint32_t j) { return j != kMixed; });
  return static_cast<double>(fixed) / static_cast<double>(buckets_.size());
}

}  // namespace lbmc::dist
