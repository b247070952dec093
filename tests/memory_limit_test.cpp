// How memory sizes are read (--max-memory) and printed (the estimates a
// refused run names).
#include <doctest/doctest.h>

#include "lbmc/engine/memory_limit.hpp"

namespace memory_limit_test {

using namespace lbmc;

TEST_SUITE("fast") {
  TEST_CASE("memory sizes print in powers of 1024 - astronomically large ones with an exponent") {
    CHECK(engine::format_memory_size(512.0) == "512 B");
    CHECK(engine::format_memory_size(16.0 * 1024 * 1024) == "16.0 MiB");
    CHECK(engine::format_memory_size(1.5 * 0x1p50) == "1.5 PiB");
    CHECK(engine::format_memory_size(99999.0 * 0x1p50) == "99999.0 PiB");
    CHECK(engine::format_memory_size(7.65e87 * 0x1p50) == "7.65e+87 PiB");
  }
}

}  // namespace memory_limit_test
