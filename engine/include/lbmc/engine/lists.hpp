// Parsing of numbers and list-valued options (DESIGN §3).
//
// A list is comma-separated items; an item is a number or a range
// `FIRST:LAST:*FACTOR` (geometric) or `FIRST:LAST:+STEP` (arithmetic),
// inclusive of LAST when it is reached. Counts accept scientific notation
// when the value is an integer ("1e6"). A list holds at most 1,000,000
// values, its ranges expanded. Errors are engine::InputError whose
// message names the offending text; callers prefix the option name.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace lbmc::engine {

//! The parts of `text` between separators `sep` (one empty part for "";
//! "a,,b" has an empty middle part).
std::vector<std::string_view> split(std::string_view text, char sep);
//! A finite double; the whole text must be consumed.
double parse_real(std::string_view text);
//! An integer, written plainly or in scientific notation ("1e6").
std::int64_t parse_integer(std::string_view text);
//! A list of integers with ranges; every element must be >= `minimum`.
std::vector<std::int64_t> parse_integer_list(std::string_view text, std::int64_t minimum);
//! A list of reals with ranges.
std::vector<double> parse_real_list(std::string_view text);
//! A list of names, each one of `allowed`, in the order given, repeats
//! dropped ("multinomial,poisson").
std::vector<std::string> parse_name_list(std::string_view text, const std::vector<std::string>& allowed);

}  // namespace lbmc::engine
