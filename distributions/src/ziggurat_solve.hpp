// The parts of a ziggurat table's solve that every shape shares, private to
// ziggurat.cpp (normal, exponential) and gamma_ziggurat.cpp (the gamma's
// X^K shape): the layers built upwards from the tail's start r, and the fast
// path's acceptance counts on the rounded table (ziggurat.hpp).
//
// A shape is an object with inverse(y) = f^-1(y) for the number type T of
// the pass (double for a coarse pass, double-double for the final one, or
// double throughout); its base (r, f(r) and the layers' common area
// v = r f(r) + int_r^inf f) comes with it.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "lbmc/dist/double_double.hpp"
#include "lbmc/dist/ziggurat.hpp"

namespace lbmc::dist::detail {

//! The highest layer a climb reached below the top: its index, x and f(x).
template <class T>
struct ZigguratSummit {
  std::size_t layer;
  T x;
  T y;
};

//! Builds layers 1..L-1 upwards from the base: x_1 = r, f(x_1) = f_r and
//! the common area v, then f(x_{i+1}) = f(x_i) + v/x_i and
//! x_{i+1} = f^-1(f(x_{i+1})), up to layer L-1 or to the last layer before
//! f would reach 1 (r too small). With xs and fs, also writes the table's
//! x_0 = v/f_r (the base strip's width), f_0 = 0, and the layers built.
template <std::size_t kLayers, class Shape, class T>
ZigguratSummit<T> climb_ziggurat(const Shape& shape, T r, T f_r, T v, std::array<T, kLayers + 1>* xs = nullptr,
                                 std::array<T, kLayers + 1>* fs = nullptr) {
  using dd::to_double;
  T x = r;
  T y = f_r;
  if (xs) {
    (*xs)[0] = v / y;
    (*fs)[0] = dd::number<T>(0.0);
    (*xs)[1] = x;
    (*fs)[1] = y;
  }
  for (std::size_t i = 2; i < kLayers; ++i) {
    const T next = y + v / x;
    if (!(to_double(next) < 1.0)) return {i - 1, x, y};
    y = next;
    x = shape.inverse(y);
    if (xs) {
      (*xs)[i] = x;
      (*fs)[i] = y;
    }
  }
  return {kLayers - 1, x, y};
}

//! The closure defect of the layers on that base, f(x_{L-1}) + v/x_{L-1} - 1
//! (0 for the right r), or +1 when the layers reach the top too early (r too
//! small); with xs and fs, the table as climb_ziggurat writes it.
template <std::size_t kLayers, class Shape, class T>
double ziggurat_closure(const Shape& shape, T r, T f_r, T v, std::array<T, kLayers + 1>* xs = nullptr,
                        std::array<T, kLayers + 1>* fs = nullptr) {
  const ZigguratSummit<T> top = climb_ziggurat<kLayers>(shape, r, f_r, v, xs, fs);
  if (top.layer < kLayers - 1) return 1.0;
  return dd::to_double(top.y + v / top.x - dd::number<T>(1.0));
}

//! Fills a table's fast path from its rounded x: for each layer i the
//! largest count a with (2m+1)·scale <= x_{i+1} for every m < a, and
//! scale = x_i·2^-53; a signed table's negative entries follow the positive
//! ones. Integer search on the products the samplers compute, so exact.
template <class Table>
void set_fast_path(Table& t) {
  constexpr std::size_t kLayers = Table::kLayers;
  constexpr std::uint64_t kM = std::uint64_t{1} << 52;
  for (std::size_t i = 0; i < kLayers; ++i) {
    const double scale = std::ldexp(t.x[i], -53);
    const double inner = t.x[i + 1];
    auto abscissa = [scale](std::uint64_t m) { return odd_to_double(m) * scale; };
    const double guess = std::floor((inner / t.x[i]) * 0x1.0p52);
    std::uint64_t a = static_cast<std::uint64_t>(std::clamp(guess, 0.0, 0x1.0p52));
    while (a < kM && abscissa(a) <= inner) ++a;
    while (a > 0 && abscissa(a - 1) > inner) --a;
    t.accept[i] = a;
    t.scale[i] = scale;
    if constexpr (Table::kEntries > kLayers) {
      t.accept[i + kLayers] = a;
      t.scale[i + kLayers] = -scale;
    }
  }
}

}  // namespace lbmc::dist::detail
