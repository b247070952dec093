// The random primitives beside the generator (rng.hpp): the block streams'
// first words, and the bounded integers, their values and the outputs they
// consume.
//
// Known answers: block_generator(1, 0) gives the words pinned below (the
// stream every seed-1 run starts from). The bounded values were computed
// from those words with exact integer arithmetic (Python), independently of
// the code: uniform_below(x, b) = ⌊x·b/2^64⌋ unless (x·b mod 2^64) <
// 2^64 mod b; the half-word draws likewise on the low, then the high 32 bits
// of each word. At b = 2^63 + 1, 2^64 mod b = 2^63 − 1, and the first two
// words' products fall below it: the first value comes from the third word.
// At b = 3·2^30 (2^32 mod b = 2^30) the high halves of words 3, 4 and 6
// (1-based) are rejected. Pcg64Pair is checked against the generator's own
// calls: the same words in turn, and the generator left where the calls
// leave it.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <iterator>
#include <vector>

#include "lbmc/engine/pcg64_pair.hpp"
#include "lbmc/engine/rng.hpp"

namespace rng_test {

using namespace lbmc;

namespace {

// The first words of block_generator(1, 0).
constexpr std::uint64_t kWords[] = {0xcaa2bde67011331f, 0x3dc777c3620a0af2, 0x52a1cc201de5a33d,
                                    0x1c89c5604836605f, 0x9fe6a31ee3f9f8b5, 0x8161b7f055cb7193,
                                    0x0ef8e997a0eec60f, 0x57eb45332819b2c3};

// A generator that returns the words it is given, in order, and counts them.
struct ScriptedWords {
  std::vector<std::uint64_t> words;
  std::size_t used = 0;
  std::uint64_t operator()() { return words.at(used++); }
};

// How many outputs `gen` has given since `start` (at most `most`).
int outputs_since(engine::Generator start, const engine::Generator& gen, int most) {
  for (int k = 0; k <= most; ++k) {
    if (start == gen) return k;
    start();
  }
  return -1;
}

}  // namespace

TEST_SUITE("fast") {
  TEST_CASE("rng: the first words of block 0 under seed 1") {
    engine::Generator gen = engine::block_generator(1, 0);
    for (const std::uint64_t word : kWords) CHECK(gen() == word);
  }

  TEST_CASE("rng: uniform_below - known answers from seed 1 - rejections where they must happen") {
    engine::Generator gen = engine::block_generator(1, 0);
    const engine::Generator start = gen;
    const std::uint64_t thousand[] = {791, 241, 322, 111, 624, 505, 58, 343};
    for (const std::uint64_t want : thousand) CHECK(engine::uniform_below(gen, 1000) == want);
    CHECK(outputs_since(start, gen, 8) == 8);  // no rejection: one output a draw
    // b = 2^63 + 1: words 1, 2, 5 and 6 are rejected.
    gen = start;
    const std::uint64_t big = (std::uint64_t{1} << 63) + 1;
    CHECK(engine::uniform_below(gen, big) == 2977132310336557470u);
    CHECK(outputs_since(start, gen, 8) == 3);
    CHECK(engine::uniform_below(gen, big) == 1028195861095198767u);
    CHECK(engine::uniform_below(gen, big) == 539434474102285063u);
    CHECK(outputs_since(start, gen, 8) == 7);
    // bound 1 (and every power of two) never rejects: one output, 0.
    gen = start;
    CHECK(engine::uniform_below(gen, 1) == 0);
    CHECK(outputs_since(start, gen, 8) == 1);
  }

  TEST_CASE("rng: uniform_below rejects exactly the products whose low word lies below 2^64 mod bound") {
    // bound 6: 2^64 mod 6 = 4. x·6 mod 2^64 = 2 is rejected, = 4 accepted
    // (the threshold itself), = 6 accepted without computing the modulo.
    ScriptedWords words{{3074457345618258603u, 6148914691236517206u, 1u, 0u, ~std::uint64_t{0}}};
    CHECK(engine::uniform_below(words, 6) == 2);  // the first word rejected
    CHECK(words.used == 2);
    CHECK(engine::uniform_below(words, 6) == 0);  // x = 1: 6 >= bound
    CHECK(words.used == 3);
    // x = 0 gives the low word 0 < 4, rejected; the largest word gives 5.
    CHECK(engine::uniform_below(words, 6) == 5);
    CHECK(words.used == 5);
  }

  TEST_CASE("rng: half-word draws - known answers from seed 1 - low half first - rejections") {
    engine::Generator gen = engine::block_generator(1, 0);
    const engine::Generator start = gen;
    {
      engine::HalfWordDraws halves(gen);
      const std::uint32_t thousand[] = {437, 791, 382, 241, 116, 322, 282, 111};
      for (const std::uint32_t want : thousand) CHECK(halves.below(1000) == want);
      CHECK(outputs_since(start, gen, 8) == 4);  // two draws an output
    }
    gen = start;
    engine::HalfWordDraws halves(gen);
    // b = 3·2^30: halves 6, 8 and 12 (the high halves of words 3, 4 and 6) rejected.
    const std::uint32_t bound = std::uint32_t{3} << 30;
    const std::uint32_t want[] = {1410131543, 2549747308, 1233618997, 777361874, 376191597,
                                  908642375,  2868607623, 2012019286, 1079547182, 2025002123};
    for (const std::uint32_t w : want) CHECK(halves.below(bound) == w);
    CHECK(outputs_since(start, gen, 8) == 7);
    // pair_below gives the same values: at a word boundary with a rejected
    // second half it takes the half-by-half way.
    gen = start;
    engine::HalfWordDraws paired(gen);
    for (std::size_t i = 0; i < 10; i += 2) {
      const auto [first, second] = paired.pair_below(bound);
      CHECK(first == want[i]);
      CHECK(second == want[i + 1]);
    }
  }

  TEST_CASE("rng: half-word draws reject exactly the halves whose product lies below 2^32 mod bound") {
    // bound 6: 2^32 mod 6 = 4. The low half gives the product's low word 2,
    // rejected; the high half 4, accepted with the value 2.
    ScriptedWords words{{(std::uint64_t{1431655766} << 32) | 715827883u, 0x0000'0001'0000'0000u}};
    engine::HalfWordDraws halves(words);
    CHECK(halves.below(6) == 2);
    CHECK(words.used == 1);
    CHECK(halves.below(6) == 0);  // the next word's low half, 0: rejected; its high half 1 gives 0
    CHECK(words.used == 2);
  }

  TEST_CASE("rng: uniform_below stays in range and is flat") {
    engine::Generator gen = engine::block_generator(2, 0);
    CHECK(engine::uniform_below(gen, 1) == 0);
    constexpr int kDraws = 60000;
    std::vector<int> counts(6, 0);
    for (int i = 0; i < kDraws; ++i) {
      const std::uint64_t v = engine::uniform_below(gen, 6);
      REQUIRE(v < 6);
      ++counts[v];
    }
    const double expected = kDraws / 6.0;
    const double sd = std::sqrt(kDraws * (1.0 / 6.0) * (5.0 / 6.0));
    for (const int c : counts) CHECK(std::abs(c - expected) <= 4 * sd);
    // A bound near 2^64, where rejection matters: values stay below it.
    const std::uint64_t big = (std::uint64_t{1} << 63) + 12345;
    for (int i = 0; i < 1000; ++i) CHECK(engine::uniform_below(gen, big) < big);
  }

  TEST_CASE("rng: half-word draws take the low then the high half - in range and flat") {
    engine::Generator gen = engine::block_generator(4, 0);
    engine::Generator copy = gen;
    engine::HalfWordDraws halves(gen);
    // bound 2^31: the product's low word is never below 2^32 mod 2^31 = 0,
    // so nothing is rejected and a draw is its half shifted right once.
    const std::uint64_t word = copy();
    CHECK(halves.below(std::uint32_t{1} << 31) == static_cast<std::uint32_t>(word) >> 1);
    CHECK(halves.below(std::uint32_t{1} << 31) == static_cast<std::uint32_t>(word >> 32) >> 1);
    CHECK(static_cast<bool>(gen == copy));
    CHECK(halves.below(1) == 0);
    // bound 3·2^30: 2^32 mod bound = 2^30, a quarter of the halves rejected;
    // thirds of the range stay equally likely.
    const std::uint32_t bound = std::uint32_t{3} << 30;
    constexpr int kDraws = 60000;
    std::vector<int> thirds(3, 0);
    for (int i = 0; i < kDraws; ++i) {
      const std::uint32_t v = halves.below(bound);
      REQUIRE(v < bound);
      ++thirds[v / (std::uint32_t{1} << 30)];
    }
    const double expected = kDraws / 3.0;
    const double sd = std::sqrt(kDraws * (1.0 / 3.0) * (2.0 / 3.0));
    for (const int c : thirds) CHECK(std::abs(c - expected) <= 4 * sd);
    // pair_below is below() twice, at a word boundary or not, rejections
    // included (one half in four rejected at this bound).
    for (const std::uint32_t b : {bound, std::uint32_t{1000}, std::uint32_t{1}}) {
      engine::Generator paired_gen = engine::block_generator(6, b);
      engine::Generator single_gen = paired_gen;
      engine::HalfWordDraws paired(paired_gen);
      engine::HalfWordDraws single(single_gen);
      for (int i = 0; i < 5000; ++i) {
        if (i % 7 == 3) REQUIRE(paired.below(b) == single.below(b));  // off the word boundary
        const auto [first, second] = paired.pair_below(b);
        REQUIRE(first == single.below(b));
        REQUIRE(second == single.below(b));
      }
      CHECK(static_cast<bool>(paired_gen == single_gen));
    }
  }

  TEST_CASE("rng: Pcg64Pair gives the generator's words two at a time - and leaves it after the first or both") {
    engine::Generator gen = engine::block_generator(1, 0);
    engine::Pcg64Pair pair(gen);
    for (std::size_t i = 0; i + 1 < std::size(kWords); i += 2) {
      CAPTURE(i);
      CHECK(pair.first() == kWords[i]);
      CHECK(pair.second() == kWords[i + 1]);
      pair.advance();
    }
    // On other blocks, at every step: leaving after the first is one call,
    // after both two, and a restart starts from where the generator is.
    for (std::uint64_t block = 1; block < 4; ++block) {
      engine::Generator calls = engine::block_generator(99, block);
      engine::Generator left = calls;
      engine::Pcg64Pair steps(left);
      for (int k = 0; k < 300; ++k) {
        CAPTURE(k);
        const engine::Generator before = calls;
        REQUIRE(steps.first() == calls());
        steps.leave_after_first(left);
        CHECK(static_cast<bool>(left == calls));
        REQUIRE(steps.second() == calls());
        steps.leave_after_second(left);
        CHECK(static_cast<bool>(left == calls));
        CHECK(outputs_since(before, left, 3) == 2);
        if (k % 3 == 0) {
          left();  // the generator draws on by itself
          calls();
          steps.restart(left);
        } else {
          steps.advance();
        }
      }
    }
  }
}

}  // namespace rng_test
