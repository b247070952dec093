// Accumulators as lists of fields.
//
// An experiment's sample (the accumulator of one block, and of the whole run)
// names its members once, in a static `fields(self)` returning std::tie of
// them; merging walks that list, so a member added to the list is merged
// without another line, and the list is the one place that says what a
// sample holds. A field is merged by its own rule:
//  - an accumulator with merge(const T&) (Moments, QuantileStore, ...): merge;
//  - an integer count: addition;
//  - std::optional<T>: merged when the other holds one (created if needed);
//  - a fixed array: element by element;
//  - std::string (a first message, such as a failed check): the first
//    non-empty one is kept.
// Blocks are merged in block order (driver.hpp), so every rule here sees the
// same sequence for any thread count.
#pragma once

#include <array>
#include <concepts>
#include <cstddef>
#include <optional>
#include <string>
#include <tuple>

namespace lbmc::engine {

template <class T>
void merge_field(T& into, const T& from);

namespace detail {

template <class T>
concept HasMerge = requires(T& into, const T& from) { into.merge(from); };

inline void merge_one(std::string& into, const std::string& from) {
  if (into.empty()) into = from;
}

template <std::integral T>
void merge_one(T& into, const T& from) {
  into += from;
}

template <HasMerge T>
void merge_one(T& into, const T& from) {
  into.merge(from);
}

template <class T>
void merge_one(std::optional<T>& into, const std::optional<T>& from) {
  if (!from) return;
  if (!into) into.emplace();
  merge_field(*into, *from);
}

template <class T, std::size_t N>
void merge_one(T (&into)[N], const T (&from)[N]) {
  for (std::size_t i = 0; i < N; ++i) merge_field(into[i], from[i]);
}

}  // namespace detail

//! Merges one field by its rule (top of this file).
template <class T>
void merge_field(T& into, const T& from) {
  detail::merge_one(into, from);
}

//! Merges every field of `from` into `into`, in the order Sample::fields lists them.
template <class Sample>
void merge_fields(Sample& into, const Sample& from) {
  auto targets = Sample::fields(into);
  const auto sources = Sample::fields(from);
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    (merge_field(std::get<I>(targets), std::get<I>(sources)), ...);
  }(std::make_index_sequence<std::tuple_size_v<decltype(targets)>>{});
}

}  // namespace lbmc::engine
