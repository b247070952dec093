// Fuzz target: the text lbmc reads back from files and tables: the tidy
// result CSV that `lbmc validate` reads from each case (count_verdicts) and
// the printed numbers of the papers' claims (parse_printed, classify).
//
// Design note
// - Input: a first byte 'p' picks the printed number, any other the CSV;
//   the rest is the text.
// - count_verdicts either counts the rows or throws std::runtime_error (its
//   documented refusal of a CSV without the needed columns or with a ragged
//   row); the counts then add up to at most the number of rows.
// - parse_printed and classify either read the number or throw
//   engine::InputError (not a finite number); the unit in the last place is
//   then a positive power of ten.
// - Anything else escaping, and the sanitizers' reports, are findings.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "check.hpp"
#include "lbmc/engine/errors.hpp"
#include "lbmc/exp/claims.hpp"
#include "validate/validate.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
  if (data[0] != 'p') {
    try {
      const lbmc::exp::VerdictCounts counts = lbmc::exp::count_verdicts(text);
      check(counts.exact_pass + counts.exact_fail + counts.bound_pass + counts.bound_fail <= counts.rows);
      check(static_cast<std::int64_t>(counts.failed.size()) == counts.exact_fail);
    } catch (const std::runtime_error&) {
    }
    return 0;
  }
  try {
    const lbmc::exp::PrintedNumber p = lbmc::exp::parse_printed(text);
    check(std::isfinite(p.value) && p.unit >= 0.0);
    (void)lbmc::exp::classify(text, p.value, p.value);
  } catch (const lbmc::engine::InputError&) {
  }
  return 0;
}
