// Measured task times read from a file: the sample behind the laws
// `empirical:FILE` and `empirical:FILE:COLUMN` (laws.hpp).
//
// Design note
// - The reader is self-contained (POSIX open/read, std::from_chars, fmt) and
//   knows nothing of laws: it returns the values sorted, with the facts the
//   laws need (integer or not, mean, variance), and leaves the policy on
//   signs to the caller (negative values are kept; the first one in file
//   order is recorded so that a refusal can name its line).
// - Accepted text: see read_empirical_sample. Every refusal is an
//   engine::InputError of one line, "FILE: ...", naming the line (1-based,
//   counting a CSV header and blank lines) and the offending text where
//   there is one; the caller puts in front what the file is for (the law
//   `empirical:`, compare's `times:`).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lbmc/engine/input_file.hpp"

namespace lbmc::dist {

//! A measured sample and the moments of its law: each of the m values taken
//! with probability 1/m.
struct EmpiricalSample {
  std::vector<double> sorted;   // every value, ascending (m >= 1 of them)
  bool integer_valued = false;  // true when every value is an integer
  double mean = 0.0;            // (1/m) sum x, from a double-double sum (about 1 ulp)
  double variance = 0.0;        // (1/m) sum (x - mean)^2, two passes in double-double
  std::size_t first_negative_line = 0;  // the line of the first value < 0 in file order; 0 if none
  double first_negative = 0.0;          // that value (0 if none)
  engine::InputFile file;               // the file's name, length and CRC-32
};

//! Measured values in the order of the file.
struct MeasuredValues {
  std::vector<double> values;           // every value, in file order (at least one)
  bool integer_valued = false;          // true when every value is an integer
  std::size_t first_negative_line = 0;  // the line of the first value < 0; 0 if none
  double first_negative = 0.0;          // that value (0 if none)
  engine::InputFile file;               // the file's name, length and CRC-32
};

//! FILE or FILE:COLUMN: the part after the last colon is a column name when
//! it is not empty of a path's tail (holds no '/') and the colon is not the
//! first character. Returns {path, column}, column empty for FILE.
std::pair<std::string, std::string> split_file_column(std::string_view spec);

//! Reads the values in `path`, in file order, by the rules of
//! read_empirical_sample (the same text accepted and refused, the same
//! memory bound).
MeasuredValues read_measured_values(const std::string& path, const std::string& column, double memory_budget);

//! Reads the sample in `path`: read_measured_values, sorted, with its
//! moments.
//!
//! - `column` empty: one number per line. `column` not empty: a CSV file whose
//!   first line names the columns; the values are that column's fields.
//!   Fields are separated by commas; a field may be enclosed in double quotes
//!   (`"a,b"`, with `""` for a quote inside), but no field may span lines.
//!   Names match exactly (case-sensitive) after blanks and quotes are
//!   removed; the name must occur once in the header. Rows may have more
//!   fields than the header, not fewer than the column needs.
//! - A number is what std::from_chars reads in general format (`1`, `-2.5`,
//!   `1e-3`, `.5`, `1.`), with an optional leading '+'; no hexadecimal, no
//!   digit separators. Blanks (spaces, tabs) around a value or field, CRLF
//!   line ends and a UTF-8 byte order mark are accepted. Blank lines are
//!   accepted only at the end of the file (a blank line followed by a value
//!   is refused, naming the blank line).
//! - Refused, with engine::InputError: a file that cannot be opened or read,
//!   or is not a regular file (a pipe's size is not known up front); an empty
//!   file, or one with no values; text that is not a number; NaN or an
//!   infinity; a magnitude above 1e100, or one too small for a double
//!   (nonzero, below 4.9e-324); in a CSV, a missing or repeated column name,
//!   a row with too few fields, an empty field or a malformed quote.
//! - Memory: before anything is read, the file is refused when its size
//!   implies that reading it could need more than `memory_budget` bytes:
//!   a value needs at least 2 bytes of the file ("1\n"), so a file of S
//!   bytes holds at most (S + 1) / 2 values, and the need is bounded by
//!   S (the file, read whole) + 8 (S + 1) / 2 (the values). The vector is
//!   reserved once to the number of lines, and the sort works in place, so
//!   this bound is never passed. A NaN budget refuses every file.
EmpiricalSample read_empirical_sample(const std::string& path, const std::string& column, double memory_budget);

}  // namespace lbmc::dist
