// Reading measured task times (see empirical_sample.hpp for what is accepted).
//
// Design note
// - One pass of I/O: the file's size is checked against the memory budget
//   before reading, then the file is read whole with read(2) into one
//   buffer and parsed in place: memchr finds each line end, std::from_chars
//   (correctly rounded, no locale) reads each value. No iostreams, no copy
//   of a line. The newlines are counted first so that the vector of values
//   is allocated once, to its final size, and the budget's bound holds.
// - The hot path makes one test per value: from_chars consumed the whole
//   field and |v| <= 1e100 (false for NaN and infinities). Every refusal is
//   classified afterwards, on a cold path, which parses the text again.
// - Moments are computed after sorting, so they do not depend on the order of
//   the lines, with sums in double-double (Knuth's exact sum, Dekker's exact
//   product): only IEEE + - * /, so the same file gives the same bits on
//   every target, unlike long double (80 bits on x86, 128 on others). The
//   variance is the corrected two-pass formula
//   (1/m) sum d^2 - ((1/m) sum d)^2 with d = x - mean taken exactly.
#include "lbmc/dist/empirical_sample.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <string_view>
#include <system_error>

#include "lbmc/dist/double_double.hpp"
#include "lbmc/engine/errors.hpp"
#include "lbmc/engine/memory_limit.hpp"

// The exact sums and products below need every operation rounded on its own
// (GCC gets -ffp-contract=off from CMakeLists.txt).
#if defined(__clang__)
#pragma clang fp contract(off)
#endif

namespace lbmc::dist {
namespace {

using engine::InputError;

constexpr double kMaxMagnitude = 1e100;
constexpr std::size_t kShownChars = 40;  // of an offending text, in a message
constexpr std::size_t kShownColumns = 20;

// ---------------------------------------------------------------- messages

// `text` for a one-line message: control bytes as \xNN, at most kShownChars
// bytes (not cutting a UTF-8 sequence), then "...".
std::string shown(std::string_view text) {
  std::size_t n = std::min(text.size(), kShownChars);
  while (n > 0 && n < text.size() && (static_cast<unsigned char>(text[n]) & 0xC0U) == 0x80U) --n;
  std::string out;
  for (std::size_t i = 0; i < n; ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x20U || c == 0x7FU) {
      out += fmt::format("\\x{:02x}", static_cast<unsigned>(c));
    } else {
      out += static_cast<char>(c);
    }
  }
  if (n < text.size()) out += "...";
  return out;
}

[[noreturn]] void fail(const std::string& path, std::string_view what) {
  throw InputError(fmt::format("{}: {}", path, what));
}

[[noreturn]] void fail_at(const std::string& path, std::size_t line, std::string_view what) {
  throw InputError(fmt::format("{}: line {}: {}", path, line, what));
}

std::string system_message(int error) { return std::system_category().message(error); }

// ---------------------------------------------------------------- the file

struct FileText {
  std::unique_ptr<char[]> data;
  std::size_t size = 0;
};

// Opens `path`, refuses it when its size implies a need above the budget,
// then reads it whole.
FileText read_whole(const std::string& path, double memory_budget) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) fail(path, fmt::format("cannot open the file ({})", system_message(errno)));
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } const closer{fd};

  struct stat info {};
  if (::fstat(fd, &info) != 0) fail(path, fmt::format("cannot read the file ({})", system_message(errno)));
  if (S_ISDIR(info.st_mode)) fail(path, "is a directory, not a file of values");
  if (!S_ISREG(info.st_mode)) {
    fail(path, "is not a regular file (pipes and devices are refused: the size must be known before reading)");
  }
  if (info.st_size == 0) fail(path, "the file is empty");

  // At most one value per 2 bytes ("1\n"; the last line may lack its "\n").
  const auto size = static_cast<double>(info.st_size);
  const double max_values = std::floor((size + 1.0) / 2.0);
  const double need = size + 8.0 * max_values;
  if (!(need <= memory_budget)) {
    fail(path, fmt::format("the file ({}) may hold up to {:.0f} values, and reading it may need up to {} "
                           "(the file, plus 8 bytes a value), more than the {} available",
                           engine::format_memory_size(size), max_values, engine::format_memory_size(need),
                           engine::format_memory_size(memory_budget)));
  }

  FileText text;
  text.size = static_cast<std::size_t>(info.st_size);
  text.data = std::make_unique_for_overwrite<char[]>(text.size);
  std::size_t done = 0;
  while (done < text.size) {
    const ssize_t n = ::read(fd, text.data.get() + done, text.size - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) fail(path, fmt::format("cannot read the file ({})", system_message(errno)));
    if (n == 0) break;  // the file shrank since fstat
    done += static_cast<std::size_t>(n);
  }
  text.size = done;
  return text;
}

// ---------------------------------------------------------------- text

constexpr bool is_blank(char c) { return c == ' ' || c == '\t'; }

// Removes blanks around `s`, and a line end's '\r'.
std::string_view trim(std::string_view s) {
  while (!s.empty() && (is_blank(s.back()) || s.back() == '\r')) s.remove_suffix(1);
  while (!s.empty() && is_blank(s.front())) s.remove_prefix(1);
  return s;
}

// Where from_chars should start: past a '+' that begins a number.
const char* number_start(const char* b, const char* e) {
  if (e - b >= 2 && *b == '+' && b[1] != '+' && b[1] != '-') return b + 1;
  return b;
}

// The sign of the decimal exponent of the leading digit of a number that
// from_chars found out of range (too large or too small for a double):
// true when it is at least 1, i.e. the value is too large.
bool out_of_range_is_large(std::string_view t) {
  std::size_t i = 0;
  if (i < t.size() && (t[i] == '+' || t[i] == '-')) ++i;
  std::int64_t lead = 0;  // decimal exponent of the first nonzero digit, before the 'e'
  bool nonzero = false;
  std::int64_t integer_digits = 0;
  for (; i < t.size() && t[i] >= '0' && t[i] <= '9'; ++i) {
    if (nonzero || t[i] != '0') {
      nonzero = true;
      ++integer_digits;
    }
  }
  if (nonzero) {
    lead = integer_digits - 1;
  } else if (i < t.size() && t[i] == '.') {
    std::int64_t zeros = 0;
    for (++i; i < t.size() && t[i] == '0'; ++i) ++zeros;
    lead = -(zeros + 1);
  }
  while (i < t.size() && t[i] != 'e' && t[i] != 'E') ++i;
  std::int64_t exponent = 0;
  if (i < t.size()) {
    ++i;
    const bool negative = i < t.size() && t[i] == '-';
    if (i < t.size() && (t[i] == '+' || t[i] == '-')) ++i;
    for (; i < t.size() && t[i] >= '0' && t[i] <= '9'; ++i) {
      exponent = std::min<std::int64_t>(exponent * 10 + (t[i] - '0'), std::int64_t{1} << 40);
    }
    if (negative) exponent = -exponent;
  }
  return lead + exponent >= 0;
}

// Why `text` (trimmed, nonempty) was refused by the hot path.
[[noreturn]] void refuse_value(const std::string& path, std::size_t line, std::string_view text) {
  const char* b = number_start(text.data(), text.data() + text.size());
  const char* e = text.data() + text.size();
  double v = 0.0;
  const auto [ptr, ec] = std::from_chars(b, e, v);
  const std::string t = shown(text);
  if (ec == std::errc::invalid_argument || ptr != e) {
    const bool lone_cr = text.find('\r') != std::string_view::npos;
    fail_at(path, line,
            fmt::format("'{}' is not a number{}", t,
                        lone_cr ? " (the line ends in a lone CR: lines must end in LF or CRLF)" : ""));
  }
  if (ec == std::errc::result_out_of_range) {
    if (out_of_range_is_large({b, static_cast<std::size_t>(e - b)})) {
      fail_at(path, line, fmt::format("'{}' is larger than 1e100 in magnitude", t));
    }
    fail_at(path, line, fmt::format("'{}' is too small for a double (nonzero, below 4.9e-324 in magnitude)", t));
  }
  if (std::isnan(v)) fail_at(path, line, fmt::format("'{}' is NaN: the values must be finite numbers", t));
  if (std::isinf(v)) fail_at(path, line, fmt::format("'{}' is infinite: the values must be finite numbers", t));
  fail_at(path, line, fmt::format("'{}' is larger than 1e100 in magnitude", t));
}

// ---------------------------------------------------------------- CSV

// One field split off the front of `rest` (a line, its end removed): blanks
// and enclosing double quotes removed (a "" inside is left as is). `more`
// tells whether a comma followed. Returns false, with `error` set, for a
// malformed quote.
bool next_field(std::string_view& rest, std::string_view& field, bool& more, const char*& error) {
  std::size_t i = 0;
  while (i < rest.size() && is_blank(rest[i])) ++i;
  if (i < rest.size() && rest[i] == '"') {
    std::size_t j = i + 1;
    for (;;) {
      const std::size_t q = rest.find('"', j);
      if (q == std::string_view::npos) {
        error = "a quoted field has no closing quote (a field cannot span lines)";
        return false;
      }
      if (q + 1 < rest.size() && rest[q + 1] == '"') {
        j = q + 2;
        continue;
      }
      field = rest.substr(i + 1, q - i - 1);
      std::size_t k = q + 1;
      while (k < rest.size() && is_blank(rest[k])) ++k;
      if (k == rest.size()) {
        more = false;
        rest = {};
      } else if (rest[k] == ',') {
        more = true;
        rest.remove_prefix(k + 1);
      } else {
        error = "text follows a closing quote before the next comma";
        return false;
      }
      return true;
    }
  }
  const std::size_t comma = rest.find(',');
  field = trim(rest.substr(0, comma));
  more = comma != std::string_view::npos;
  rest.remove_prefix(more ? comma + 1 : rest.size());
  return true;
}

std::string unescaped(std::string_view quoted_field) {
  std::string out;
  out.reserve(quoted_field.size());
  for (std::size_t i = 0; i < quoted_field.size(); ++i) {
    out += quoted_field[i];
    if (quoted_field[i] == '"' && i + 1 < quoted_field.size() && quoted_field[i + 1] == '"') ++i;
  }
  return out;
}

// The header's fields, unescaped, passed one by one to `f(index, name)`.
template <class F>
void for_each_header_name(const std::string& path, std::string_view header, F f) {
  std::size_t index = 0;
  bool more = true;
  while (more) {
    std::string_view field;
    const char* error = nullptr;
    if (!next_field(header, field, more, error)) fail_at(path, 1, error);
    f(index++, unescaped(field));
  }
}

// The 0-based index of `column` in the header line.
std::size_t column_index(const std::string& path, std::string_view header, const std::string& column) {
  std::size_t found = 0;
  std::size_t count = 0;
  std::size_t second = 0;
  std::size_t columns = 0;
  for_each_header_name(path, header, [&](std::size_t index, const std::string& name) {
    columns = index + 1;
    if (name != column) return;
    if (count == 0) found = index;
    if (count == 1) second = index;
    ++count;
  });
  if (count > 1) {
    fail_at(path, 1, fmt::format("the column '{}' occurs {} times in the header (fields {} and {})", shown(column),
                                 count, found + 1, second + 1));
  }
  if (count == 1) return found;
  std::string names;
  for_each_header_name(path, header, [&](std::size_t index, const std::string& name) {
    if (index < kShownColumns) names += fmt::format("{}'{}'", index == 0 ? "" : ", ", shown(name));
  });
  if (columns > kShownColumns) names += fmt::format(" and {} more", columns - kShownColumns);
  fail(path, fmt::format("no column '{}' in the header line (the columns are {})", shown(column), names));
}

// The field `index` of a row, trimmed and unquoted.
std::string_view row_field(const std::string& path, std::size_t line, std::string_view row, std::size_t index,
                           const std::string& column) {
  std::string_view field;
  bool more = true;
  for (std::size_t i = 0; i <= index; ++i) {
    if (!more) {
      fail_at(path, line, fmt::format("{} field{}, but the column '{}' is field {}", i, i == 1 ? "" : "s",
                                      shown(column), index + 1));
    }
    const char* error = nullptr;
    if (!next_field(row, field, more, error)) fail_at(path, line, error);
  }
  field = trim(field);  // blanks inside quotes
  if (field.empty()) fail_at(path, line, fmt::format("the field of column '{}' is empty", shown(column)));
  return field;
}

// The lines of a file's text, each without its end and the blanks around
// it, counted from 1.
class LineReader {
 public:
  LineReader(const char* begin, const char* end) : p_(begin), end_(end) {}
  //! The next line; false at the end of the text.
  bool next(std::string_view& text) {
    if (p_ == end_) return false;
    const auto* nl = static_cast<const char*>(std::memchr(p_, '\n', static_cast<std::size_t>(end_ - p_)));
    const char* e = nl != nullptr ? nl : end_;
    text = trim({p_, static_cast<std::size_t>(e - p_)});
    p_ = nl != nullptr ? nl + 1 : end_;
    ++line_;
    return true;
  }
  //! The number of the line next() gave last.
  std::size_t line() const noexcept { return line_; }

 private:
  const char* p_;
  const char* end_;
  std::size_t line_ = 0;
};

// The number a value's text holds, refused (naming the line) unless the
// whole text is one number of magnitude at most 1e100.
double value_of(const std::string& path, std::size_t line, std::string_view field) {
  const char* b = field.data();
  const char* e = b + field.size();
  double v = 0.0;
  const auto [ptr, ec] = std::from_chars(number_start(b, e), e, v);
  if (ec != std::errc{} || ptr != e || !(std::abs(v) <= kMaxMagnitude)) refuse_value(path, line, field);
  return v;
}

// ---------------------------------------------------------------- moments

using dd::DD;
using dd::two_prod;  // Dekker; exact unless it underflows
using dd::two_sum;

// A running sum: hi carries the rounded sum, lo the sum of the rounding errors.
struct Sum {
  DD s;
  void add(double x) {
    const DD t = two_sum(s.hi, x);
    s.hi = t.hi;
    s.lo += t.lo;
  }
  // The sum divided by m, rounded once more than a correctly rounded result.
  double over(double m) const {
    const DD t = two_sum(s.hi, s.lo);
    const double q = t.hi / m;
    const DD back = two_prod(q, m);
    return q + (((t.hi - back.hi) - back.lo) + t.lo) / m;
  }
};

void set_moments(EmpiricalSample& sample) {
  const double m = static_cast<double>(sample.sorted.size());
  Sum sum;
  for (const double x : sample.sorted) sum.add(x);
  sample.mean = sum.over(m);
  Sum deviations;
  Sum squares;
  for (const double x : sample.sorted) {
    const DD d = two_sum(x, -sample.mean);  // x - mean, exactly
    const DD d2 = two_prod(d.hi, d.hi);
    deviations.add(d.hi);
    deviations.s.lo += d.lo;
    squares.add(d2.hi);
    squares.s.lo += d2.lo + 2.0 * d.hi * d.lo;
  }
  const double shift = deviations.over(m);  // (1/m) sum d, the rounding of the mean
  sample.variance = std::max(0.0, squares.over(m) - shift * shift);
}

bool is_integer(double v) {
  constexpr double kTwo52 = 4503599627370496.0;  // from here on every double is an integer
  return std::abs(v) >= kTwo52 || static_cast<double>(static_cast<std::int64_t>(v)) == v;
}

}  // namespace

std::pair<std::string, std::string> split_file_column(std::string_view spec) {
  if (const std::size_t colon = spec.rfind(':');
      colon != std::string_view::npos && colon > 0 && spec.substr(colon + 1).find('/') == std::string_view::npos) {
    return {std::string(spec.substr(0, colon)), std::string(spec.substr(colon + 1))};
  }
  return {std::string(spec), std::string()};
}

MeasuredValues read_measured_values(const std::string& path, const std::string& column, double memory_budget) {
  FileText file = read_whole(path, memory_budget);
  const char* p = file.data.get();
  const char* const end = p + file.size;
  if (file.size >= 3 && std::memcmp(p, "\xEF\xBB\xBF", 3) == 0) p += 3;  // a UTF-8 byte order mark

  MeasuredValues sample;
  sample.file = engine::fingerprint_of(path, std::as_bytes(std::span(file.data.get(), file.size)));
  sample.values.reserve(static_cast<std::size_t>(std::count(p, end, '\n')) + 1);

  LineReader lines(p, end);
  std::string_view text;
  const bool csv = !column.empty();
  std::size_t index = 0;
  if (csv) {
    if (!lines.next(text)) fail(path, "the file is empty");
    if (text.empty()) fail_at(path, 1, "the header line (the names of the columns) is blank");
    index = column_index(path, text, column);
  }

  std::size_t blank = 0;  // the first of the blank lines since the last value; 0 if none
  bool integers = true;
  while (lines.next(text)) {
    const std::size_t line = lines.line();
    if (text.empty()) {
      if (blank == 0) blank = line;
      continue;
    }
    if (blank != 0) {
      fail_at(path, blank, "a blank line among the values (blank lines are allowed only at the end of the file)");
    }
    const double v = value_of(path, line, csv ? row_field(path, line, text, index, column) : text);
    if (v < 0.0 && sample.first_negative_line == 0) {
      sample.first_negative_line = line;
      sample.first_negative = v;
    }
    integers = integers && is_integer(v);
    sample.values.push_back(v);
  }
  if (sample.values.empty()) {
    fail(path, csv ? fmt::format("no values under the column '{}' (only the header line)", shown(column))
                   : std::string("no values in the file (only blank lines)"));
  }
  sample.integer_valued = integers;
  return sample;
}

EmpiricalSample read_empirical_sample(const std::string& path, const std::string& column, double memory_budget) {
  MeasuredValues measured = read_measured_values(path, column, memory_budget);
  EmpiricalSample sample;
  sample.sorted = std::move(measured.values);
  std::sort(sample.sorted.begin(), sample.sorted.end());
  sample.integer_valued = measured.integer_valued;
  sample.first_negative_line = measured.first_negative_line;
  sample.first_negative = measured.first_negative;
  sample.file = std::move(measured.file);
  set_moments(sample);
  return sample;
}

}  // namespace lbmc::dist
