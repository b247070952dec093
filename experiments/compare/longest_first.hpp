// lpt's order of the tasks for `lbmc compare`: the tasks in decreasing
// order of time, equal times by increasing index, as 64-bit words of a
// time's key above the task's index, sorted exactly and in linear time on
// laws with a density (longest_first.cpp has the method).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "lbmc/engine/scratch_vector.hpp"

namespace lbmc::exp {

//! Fills `words` with one word per task of `times` (at least one, N < 2^32,
//! each >= 0) in lpt's order, and returns the mask of the words' low bits
//! that hold the task's index. `scratch` and `counts` are the sort's
//! buffers, kept by the caller so that replications do not allocate.
std::uint64_t sort_longest_first(std::span<const double> times, engine::ScratchVector<std::uint64_t>& words,
                                 engine::ScratchVector<std::uint64_t>& scratch, std::vector<std::uint32_t>& counts);

}  // namespace lbmc::exp
