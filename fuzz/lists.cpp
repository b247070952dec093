// Fuzz target: numbers, lists and ranges of the command line
// (engine/lists.hpp).
//
// Design note
// - Input: the first byte modulo 5 picks the parser ('A' parse_real, 'B'
//   parse_integer, 'C' parse_integer_list with a minimum of 1, 'D'
//   parse_real_list, 'E' parse_name_list with the names of `assign
//   --model`), the rest is its text.
// - Each parser returns or throws engine::InputError; anything else escapes
//   to libFuzzer and is a finding. Results are checked against the
//   contract: finite reals, integers at least the minimum, names from the
//   allowed list without repeats.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "check.hpp"
#include "lbmc/engine/errors.hpp"
#include "lbmc/engine/lists.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  try {
    switch (data[0] % 5) {
      case 0:
        check(std::isfinite(lbmc::engine::parse_real(text)));
        break;
      case 1:
        (void)lbmc::engine::parse_integer(text);
        break;
      case 2:
        for (const std::int64_t v : lbmc::engine::parse_integer_list(text, 1)) check(v >= 1);
        break;
      case 3:
        for (const double v : lbmc::engine::parse_real_list(text)) check(std::isfinite(v));
        break;
      default: {
        const std::vector<std::string> allowed{"multinomial", "poisson"};
        const auto names = lbmc::engine::parse_name_list(text, allowed);
        check(names.size() <= allowed.size());
        for (const auto& name : names) check(std::count(names.begin(), names.end(), name) == 1);
        break;
      }
    }
  } catch (const lbmc::engine::InputError&) {
  }
  return 0;
}
