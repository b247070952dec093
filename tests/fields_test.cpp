// Accumulators as field lists: every rule of merge_fields.
#include <doctest/doctest.h>

#include <cstdint>
#include <optional>
#include <string>

#include "lbmc/engine/fields.hpp"
#include "lbmc/engine/moments.hpp"

namespace fields_test {

namespace {

using lbmc::engine::Moments;

struct Inner {
  Moments m;
  std::int64_t count = 0;
  template <class Self>
  static auto fields(Self& s) {
    return std::tie(s.m, s.count);
  }
  void merge(const Inner& other) { lbmc::engine::merge_fields(*this, other); }
};

struct Sample {
  Moments m;
  std::int64_t hits = 0;
  std::optional<Inner> extra;
  Inner per_kind[2];
  std::string first_message;
  double not_a_field = 0.0;
  template <class Self>
  static auto fields(Self& s) {
    return std::tie(s.m, s.hits, s.extra, s.per_kind, s.first_message);
  }
};

}  // namespace

TEST_SUITE("fast") {
  TEST_CASE("fields: each kind of field merges by its rule") {
    Sample a, b;
    a.m.add(1.0);
    b.m.add(3.0);
    a.hits = 2;
    b.hits = 5;
    b.extra.emplace();
    b.extra->count = 7;
    a.per_kind[1].count = 1;
    b.per_kind[1].count = 10;
    b.per_kind[0].m.add(4.0);
    b.first_message = "second";
    b.not_a_field = 9.0;
    lbmc::engine::merge_fields(a, b);
    CHECK(a.m.count() == 2);
    CHECK(a.m.mean() == 2.0);
    CHECK(a.hits == 7);
    REQUIRE(a.extra.has_value());
    CHECK(a.extra->count == 7);
    CHECK(a.per_kind[0].m.count() == 1);
    CHECK(a.per_kind[1].count == 11);
    CHECK(a.first_message == "second");
    CHECK(a.not_a_field == 0.0);  // not listed: untouched

    Sample c;
    c.first_message = "third";
    lbmc::engine::merge_fields(a, c);
    CHECK(a.first_message == "second");  // the first non-empty message stays
    CHECK(a.extra->count == 7);          // an empty optional merges nothing
  }
}

}  // namespace fields_test
