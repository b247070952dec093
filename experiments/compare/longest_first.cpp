// lpt's order (longest_first.hpp): the tasks in decreasing order of time,
// equal times by increasing index. A time's key is the complement of its bits: times >= 0
// order as their bits do as unsigned integers (-0 is read as +0), so their
// complements order longest first. The keys are spread: their distance
// above the least key, shifted left past the bits every distance leaves
// zero, orders as they do and brings more of their varying bits to the top
// (7 more for exponential times at N = 1e6). Each task is then one 64-bit
// word, its spread key with the low index_bits bits (enough for N − 1)
// replaced by its index, so words order by (the key's high bits, index)
// and a radix pass moves 8 bytes a task (a key and an index apart were 12,
// and took 1.7x as long). The words are sorted
// 1. below kRadixMin tasks by std::sort; beyond, by the engine's stable
//    least-significant-digit radix sort (engine/radix_sort.hpp) of their
//    top 30 bits (all key) in three passes of 10 bits (lpt 1.04x faster
//    than with four of 8 on 32; 11-bit digits were slower, their scatter
//    missing the caches), each run of words equal there (rare for laws with
//    a density) then ordered by the other 34 bits, by insertion when short
//    and by the same sort when long;
// 2. where the keys' low index_bits bits are not all alike (integer and
//    constant times leave them alike), within runs of words equal in their
//    key bits, by the whole key, read back from the times.
// The sort is exact, and linear on laws with a density.
#include "longest_first.hpp"

#include <algorithm>
#include <bit>
#include <utility>

#include "lbmc/engine/radix_sort.hpp"

namespace lbmc::exp {

namespace {

constexpr std::size_t kRadixMin = std::size_t{1} << 14;
constexpr int kDigitBits = 10;
// The first sort orders the words' top kHighBits (all key: index_bits <= 32).
constexpr int kHighBits = 30;
constexpr int kLowBits = 64 - kHighBits;
// Runs of equal high bits up to this length are sorted by insertion.
constexpr std::size_t kInsertionMax = 32;

std::uint64_t key_of_time(double t) { return ~std::bit_cast<std::uint64_t>(t + 0.0); }

// The words' digits for the radix sort (engine/radix_sort.hpp): the top
// kHighBits first, then the rest of a run equal there, 10 bits a digit.
using HighDigits = engine::RadixDigits<kDigitBits, kLowBits, kHighBits / kDigitBits>;
using LowDigits = engine::RadixDigits<kDigitBits, 0, (kLowBits + kDigitBits - 1) / kDigitBits>;

struct WordKey {
  std::uint64_t operator()(std::uint64_t word) const { return word; }
};

// Orders words[begin, end), equal in their high kHighBits, by the rest.
void sort_equal_high_run(std::uint64_t* words, std::uint64_t* scratch, std::size_t begin, std::size_t end,
                         std::vector<std::uint32_t>& counts) {
  if (end - begin > kInsertionMax) {
    engine::radix_sort_serial<LowDigits>(words + begin, scratch + begin, end - begin, WordKey{}, counts);
    return;
  }
  for (std::size_t i = begin + 1; i < end; ++i) {
    const std::uint64_t word = words[i];
    std::size_t j = i;
    for (; j > begin && words[j - 1] > word; --j) words[j] = words[j - 1];
    words[j] = word;
  }
}

// Calls order(begin, end) on each run of at least two words that agree in
// the bits that `shift` keeps.
template <class Order>
void for_each_equal_run(const std::uint64_t* words, std::size_t n, int shift, Order order) {
  for (std::size_t begin = 0; begin < n;) {
    const std::uint64_t high = words[begin] >> shift;
    std::size_t end = begin + 1;
    while (end < n && (words[end] >> shift) == high) ++end;
    if (end - begin > 1) order(begin, end);
    begin = end;
  }
}

// A key's distance above the least key, shifted left past the bits that
// every distance leaves zero: it orders as the key does.
struct SpreadKey {
  std::uint64_t least = 0;
  int lead = 0;

  static SpreadKey of(std::span<const double> times) {
    double shortest = times[0];
    double longest = times[0];
    for (const double t : times) {  // min and max vectorise; std::minmax_element does not
      shortest = std::min(shortest, t);
      longest = std::max(longest, t);
    }
    const std::uint64_t least = key_of_time(longest);
    return {least, std::min(63, std::countl_zero(key_of_time(shortest) - least))};
  }
  std::uint64_t operator()(double t) const { return (key_of_time(t) - least) << lead; }
};

// Orders runs of words that share their key bits by their whole keys, read
// back from the times. Runs wait in a batch of about kBatch words, whose
// reads are a loop of their own, independent of one another, so that their
// cache misses overlap: read inside a sort's comparisons, they waited one by
// one, and lpt of 3e8 exponential times took 2.2x as long as with (key,
// index) pairs, at that N a third of the words sharing their key bits.
class WholeKeyOrder {
 public:
  WholeKeyOrder(std::span<const double> times, std::uint64_t index_mask, SpreadKey spread)
      : times_(times), index_mask_(index_mask), spread_(spread) {}

  void add(std::uint64_t* first, std::uint64_t* last) {
    runs_.emplace_back(first, last);
    waiting_ += static_cast<std::size_t>(last - first);
    if (waiting_ >= kBatch) flush();
  }

  void flush() {
    keyed_.clear();
    for (const auto& [first, last] : runs_) {
      for (const std::uint64_t* w = first; w != last; ++w) keyed_.emplace_back(spread_(times_[*w & index_mask_]), *w);
    }
    auto from = keyed_.begin();
    for (const auto& [first, last] : runs_) {
      const auto to = from + (last - first);
      std::sort(from, to);  // by key, then word: equal keys in index order
      std::transform(from, to, first, [](const auto& keyed) { return keyed.second; });
      from = to;
    }
    runs_.clear();
    waiting_ = 0;
  }

 private:
  static constexpr std::size_t kBatch = 4096;
  std::span<const double> times_;
  std::uint64_t index_mask_;
  SpreadKey spread_;
  std::vector<std::pair<std::uint64_t*, std::uint64_t*>> runs_;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> keyed_;  // (whole key, word)
  std::size_t waiting_ = 0;                                      // words in runs_
};

}  // namespace

std::uint64_t sort_longest_first(std::span<const double> times, engine::ScratchVector<std::uint64_t>& words,
                                 engine::ScratchVector<std::uint64_t>& scratch, std::vector<std::uint32_t>& counts) {
  const std::size_t n = times.size();
  const int index_bits = std::max(1, static_cast<int>(std::bit_width(n - 1)));
  const std::uint64_t index_mask = (std::uint64_t{1} << index_bits) - 1;
  const SpreadKey spread = SpreadKey::of(times);
  words.resize(n);
  const std::uint64_t first_low = spread(times[0]) & index_mask;
  std::uint64_t low_varies = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint64_t key = spread(times[i]);
    low_varies |= (key & index_mask) ^ first_low;
    words[i] = (key & ~index_mask) | i;
  }
  if (n < kRadixMin) {
    std::sort(words.begin(), words.end());
  } else {
    scratch.resize(n);
    engine::radix_sort_serial<HighDigits>(words.data(), scratch.data(), n, WordKey{}, counts);
  }
  // Runs of equal key bits lie within runs of equal high bits (index_bits <= 32).
  WholeKeyOrder by_whole_key(times, index_mask, spread);
  for_each_equal_run(words.data(), n, kLowBits, [&](std::size_t begin, std::size_t end) {
    std::uint64_t* run = words.data() + begin;
    const std::size_t length = end - begin;
    if (!std::is_sorted(run, run + length)) sort_equal_high_run(words.data(), scratch.data(), begin, end, counts);
    if (low_varies == 0) return;
    for_each_equal_run(run, length, index_bits,
                       [&](std::size_t first, std::size_t last) { by_whole_key.add(run + first, run + last); });
  });
  by_whole_key.flush();
  return index_mask;
}

}  // namespace lbmc::exp
