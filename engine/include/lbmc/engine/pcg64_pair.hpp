// Two outputs of a block's pcg64 at a time, from two interleaved chains of
// its state: the same outputs, in the same order, as two calls.
//
// Design note
// - pcg64 (pcg-cpp's setseq_xsl_rr_128_64) steps its 128-bit state
//   s' = a·s + c and outputs xsl_rr(s'). One call waits on the previous
//   call's multiply and add: that chain, about 6 cycles, is what a loop of
//   calls (bench/rng_floor.cpp) runs at, with the core's other ports idle.
// - Two steps at once are one step of (a², c·(a + 1)):
//   s_{j+2} = a²·s_j + c·(a + 1). Two chains of that step, started at
//   s_{j+1} and s_{j+2}, hold every state in turn, and the two multiplies
//   run side by side: a loop over pairs has half the dependent steps. Where
//   a loop is bound by the chain (table samplers, whose per-draw work is
//   loads and compares), that is its speed.
// - The state is read and written through pcg-cpp's own members (pointers
//   to protected members named through a derived class, which is allowed),
//   and the output through its own output function: nothing of pcg64's is
//   restated here but the step algebra.
#pragma once

#include <cstdint>
#include <type_traits>

#include <pcg_random.hpp>

#include "lbmc/engine/rng.hpp"

namespace lbmc::engine {

static_assert(std::is_same_v<Generator, pcg_engines::setseq_xsl_rr_128_64>,
              "Pcg64Pair restates the step of pcg64 (setseq_xsl_rr_128_64)");

namespace detail {
// Names the generator's protected state and increment for Pcg64Pair.
struct GeneratorState : Generator {
  static constexpr auto state = &GeneratorState::state_;
  static constexpr auto increment = &GeneratorState::inc_;
};
}  // namespace detail

//! The next two outputs of a pcg64 and the step past both; the generator
//! itself is untouched until one of the leave_after calls writes its state.
class Pcg64Pair {
 public:
  using State = pcg_extras::pcg128_t;

  //! The pair of the next two draws of `gen`.
  explicit Pcg64Pair(const Generator& gen) noexcept
      : increment_(gen.*detail::GeneratorState::increment), pair_increment_(increment_ * (kMultiplier + 1)) {
    restart(gen);
  }
  //! The next two draws of `gen` again, after it has drawn on (the same
  //! generator's: the increments are kept). The two steps from its state are
  //! independent, so a restart waits on one step.
  void restart(const Generator& gen) noexcept {
    const State state = gen.*detail::GeneratorState::state;
    first_ = state * kMultiplier + increment_;
    second_ = state * kPairMultiplier + pair_increment_;
  }
  //! The output of the first of the two draws: what gen() would return next.
  std::uint64_t first() const noexcept { return output(first_); }
  //! The output of the second.
  std::uint64_t second() const noexcept { return output(second_); }
  //! On to the next two draws.
  void advance() noexcept {
    first_ = first_ * kPairMultiplier + pair_increment_;
    second_ = second_ * kPairMultiplier + pair_increment_;
  }
  //! Sets `gen` (the generator the pair was made from) just past the first draw.
  void leave_after_first(Generator& gen) const noexcept { gen.*detail::GeneratorState::state = first_; }
  //! Sets `gen` just past both draws.
  void leave_after_second(Generator& gen) const noexcept { gen.*detail::GeneratorState::state = second_; }

 private:
  static constexpr State kMultiplier = pcg_detail::default_multiplier<State>::multiplier();
  static constexpr State kPairMultiplier = kMultiplier * kMultiplier;
  static std::uint64_t output(State state) noexcept {
    return pcg_detail::xsl_rr_mixin<std::uint64_t, State>::output(state);
  }

  State increment_;       // c
  State pair_increment_;  // c·(a + 1)
  State first_;   // the state after the first draw
  State second_;  // after the second
};

}  // namespace lbmc::engine
