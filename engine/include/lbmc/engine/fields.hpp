// Accumulators as lists of fields.
//
// An experiment's sample (the accumulator of one block, and of the whole run)
// names its members once, in a static `fields(self)` returning std::tie of
// them; merging walks that list (a sample needs no merge of its own), so a
// member added to the list is merged without another line, and the list is
// the one place that says what a sample holds. A field is merged by its own
// rule:
//  - an accumulator with merge(const T&) (Moments, QuantileStore, ...): merge;
//  - an integer count: addition;
//  - std::optional<T>: merged when the other holds one (created if needed);
//  - a fixed array: element by element;
//  - std::string (a first message, such as a failed check): the first
//    non-empty one is kept.
// Blocks are merged along a tree fixed by their indices (reduction.hpp), so
// every rule here sees the same sequence for any thread count.
//
// The same list writes and reads a sample's bytes (serial.hpp), field by
// field in list order: an accumulator by its save/load, an integer as 64
// bits, a double by its bits, a vector of doubles, a string, an optional as
// a flag and its value, an array element by element, and a nested sample by
// its own list.
#pragma once

#include <array>
#include <concepts>
#include <cstddef>
#include <optional>
#include <string>
#include <span>
#include <tuple>
#include <type_traits>
#include <vector>

#include "lbmc/engine/serial.hpp"

namespace lbmc::engine {

template <class T>
void merge_field(T& into, const T& from);

namespace detail {

template <class T>
concept HasMerge = requires(T& into, const T& from) { into.merge(from); };
template <class T>
concept HasFields = requires(T& t) { T::fields(t); };

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

// A sample without a merge of its own: field by field.
template <class T>
  requires(HasFields<T> && !HasMerge<T>)
void merge_one(T& into, const T& from);

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

template <class T>
  requires(detail::HasFields<T> && !detail::HasMerge<T>)
void detail::merge_one(T& into, const T& from) {
  merge_fields(into, from);
}

template <class T>
void save_field(ByteWriter& out, const T& field);
template <class T>
void load_field(ByteReader& in, T& field);

namespace detail {

template <class T>
concept HasSave = requires(const T& t, T& u, ByteWriter& w, ByteReader& r) {
  t.save(w);
  u.load(r);
};
template <class Sample, class Visit>
void for_each_field(Sample& sample, Visit&& visit) {
  auto members = std::remove_const_t<Sample>::fields(sample);
  std::apply([&](auto&... member) { (visit(member), ...); }, members);
}

inline void save_one(ByteWriter& out, const std::string& s) { out.text(s); }
inline void load_one(ByteReader& in, std::string& s) { s = in.text(); }
inline void save_one(ByteWriter& out, double v) { out.f64(v); }
inline void load_one(ByteReader& in, double& v) { v = in.f64(); }
inline void save_one(ByteWriter& out, const std::vector<double>& v) { out.f64s(v); }
inline void load_one(ByteReader& in, std::vector<double>& v) { v = in.f64s(); }

template <std::integral T>
void save_one(ByteWriter& out, const T& v) {
  out.i64(static_cast<std::int64_t>(v));
}
template <std::integral T>
void load_one(ByteReader& in, T& v) {
  v = static_cast<T>(in.i64());
}

template <HasSave T>
void save_one(ByteWriter& out, const T& t) {
  t.save(out);
}
template <HasSave T>
void load_one(ByteReader& in, T& t) {
  t.load(in);
}

template <class T>
  requires(HasFields<T> && !HasSave<T>)
void save_one(ByteWriter& out, const T& sample) {
  for_each_field(sample, [&](const auto& member) { save_field(out, member); });
}
template <class T>
  requires(HasFields<T> && !HasSave<T>)
void load_one(ByteReader& in, T& sample) {
  for_each_field(sample, [&](auto& member) { load_field(in, member); });
}

template <class T>
void save_one(ByteWriter& out, const std::optional<T>& v) {
  out.boolean(v.has_value());
  if (v) save_field(out, *v);
}
template <class T>
void load_one(ByteReader& in, std::optional<T>& v) {
  v.reset();
  if (in.boolean()) load_field(in, v.emplace());
}

template <class T, std::size_t N>
void save_one(ByteWriter& out, const T (&v)[N]) {
  for (const T& e : v) save_field(out, e);
}
template <class T, std::size_t N>
void load_one(ByteReader& in, T (&v)[N]) {
  for (T& e : v) load_field(in, e);
}

}  // namespace detail

//! Writes one field (or a whole sample) by its rule (top of this file).
template <class T>
void save_field(ByteWriter& out, const T& field) {
  detail::save_one(out, field);
}
//! Reads what save_field wrote into `field`.
template <class T>
void load_field(ByteReader& in, T& field) {
  detail::load_one(in, field);
}

//! The bytes of an accumulator.
template <class Accumulator>
std::vector<std::byte> to_bytes(const Accumulator& acc) {
  ByteWriter out;
  save_field(out, acc);
  return out.take();
}
//! Reads `bytes` (every one of them) into `acc`; throws RuntimeFailure on
//! bytes that are not an accumulator's.
template <class Accumulator>
void from_bytes(std::span<const std::byte> bytes, Accumulator& acc) {
  ByteReader in(bytes);
  load_field(in, acc);
  in.expect_end();
}

}  // namespace lbmc::engine
