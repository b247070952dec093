// Reading measured task times (distributions/src/empirical_sample.cpp): the
// values, the integer flag and the moments against hand-computed ones, CSV
// columns, line ends and blanks, every refusal (its message must name the
// file and, where there is one, the line), the memory bound, and a file too
// large to be read in one read(2) call's worth of careless buffering.
//
// Design note: each case writes its own file under the system's temporary
// directory, with a name unique to the process and the case, and removes it
// when done (TempFile below).
#include <doctest/doctest.h>
#include <unistd.h>

#include <cmath>
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "lbmc/dist/empirical_sample.hpp"
#include "lbmc/dist/laws.hpp"
#include "lbmc/engine/errors.hpp"

namespace empirical_sample_test {

namespace {

using lbmc::dist::EmpiricalSample;
using lbmc::dist::read_empirical_sample;

constexpr double kNoLimit = 1e18;

// A file with the given bytes, removed on destruction.
class TempFile {
 public:
  explicit TempFile(const std::string& content) {
    static int counter = 0;
    path_ = (std::filesystem::temp_directory_path() /
             ("lbmc_empirical_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter++) + ".txt"))
                .string();
    std::ofstream out(path_, std::ios::binary);
    out << content;
  }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  ~TempFile() {
    std::error_code ignored;
    std::filesystem::remove(path_, ignored);
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

EmpiricalSample read(const std::string& content, const std::string& column = "") {
  const TempFile file(content);
  return read_empirical_sample(file.path(), column, kNoLimit);
}

// The message of the InputError that reading `path` throws ("" if none).
std::string error_of(const std::string& path, const std::string& column = "", double budget = kNoLimit) {
  try {
    read_empirical_sample(path, column, budget);
  } catch (const lbmc::engine::InputError& e) {
    return e.what();
  }
  return "";
}

// Checks that reading `content` is refused with a one-line message naming
// the file, `line` (when > 0) and containing `part`.
void check_refused(const std::string& content, std::size_t line, const std::string& part,
                   const std::string& column = "") {
  const TempFile file(content);
  const std::string message = error_of(file.path(), column);
  INFO("message: ", message);
  CHECK(message.find(file.path() + ": ") == 0);
  if (line > 0) CHECK(message.find(": line " + std::to_string(line) + ": ") != std::string::npos);
  CHECK(message.find(part) != std::string::npos);
  CHECK(message.find('\n') == std::string::npos);
}

}  // namespace

TEST_SUITE("fast") {
  TEST_CASE("empirical sample: one integer per line round trip") {
    const EmpiricalSample s = read("3\n1\n2\n10\n");
    CHECK(s.sorted == std::vector<double>{1.0, 2.0, 3.0, 10.0});
    CHECK(s.integer_valued);
    CHECK(s.mean == 4.0);
    CHECK(s.variance == 12.5);  // (9 + 4 + 1 + 36) / 4
    CHECK(s.first_negative_line == 0);
  }

  TEST_CASE("empirical sample: decimal values and signs round trip") {
    const EmpiricalSample s = read("0.5\n-1.25\n+2\n1e-3\n");
    CHECK(s.sorted == std::vector<double>{-1.25, 0.001, 0.5, 2.0});
    CHECK_FALSE(s.integer_valued);
    CHECK(s.mean == 0.31275);  // 1251/4000, correctly rounded
    // 21685003/16000000 from exact fractions.
    CHECK(std::abs(s.variance - 1.3553126875) <= 2e-16 * 1.3553126875);
    CHECK(s.first_negative_line == 2);
    CHECK(s.first_negative == -1.25);
  }

  TEST_CASE("empirical sample: moments are compensated and two-pass") {
    // A plain double sum of -1e16 + 1 + 1e16 gives 0 or 2, not 1.
    const EmpiricalSample a = read("1e16\n1\n-1e16\n");
    CHECK(a.mean == 1.0 / 3.0);
    CHECK(std::abs(a.variance - 6.666666666666667e31) <= 1e-15 * 6.666666666666667e31);
    // A large offset: the one-pass formula would lose every digit.
    const EmpiricalSample b = read("1000000001\n1000000002\n1000000003\n1000000004\n");
    CHECK(b.mean == 1000000002.5);
    CHECK(b.variance == 1.25);
    const EmpiricalSample c = read("0.1\n0.1\n0.1\n");
    CHECK(c.mean == 0.1);
    CHECK(c.variance == 0.0);
  }

  TEST_CASE("empirical sample: the integer flag") {
    CHECK(read("-3\n0\n1e20\n4.0\n").integer_valued);
    CHECK_FALSE(read("1\n2\n2.5\n").integer_valued);
    CHECK_FALSE(read("1\n4503599627370495.5\n").integer_valued);
  }

  TEST_CASE("empirical sample: blanks and line ends and a byte order mark") {
    CHECK(read(" \t1.5  \n2\t\n").sorted == std::vector<double>{1.5, 2.0});
    CHECK(read("1\r\n2\r\n\r\n").sorted == std::vector<double>{1.0, 2.0});
    CHECK(read("1\n2").sorted == std::vector<double>{1.0, 2.0});
    CHECK(read("\xEF\xBB\xBF" "5\n").sorted == std::vector<double>{5.0});
    CHECK(read("1\n2\n\n  \n\t\r\n").sorted == std::vector<double>{1.0, 2.0});
    CHECK(read(".5\n1.\n").sorted == std::vector<double>{0.5, 1.0});
  }

  TEST_CASE("empirical sample: a CSV column by name") {
    const std::string csv = "id,time,name\n1,2.5,a\n2,3.5,\"x, y\"\n3, 4.5 ,c\n";
    const EmpiricalSample time = read(csv, "time");
    CHECK(time.sorted == std::vector<double>{2.5, 3.5, 4.5});
    CHECK_FALSE(time.integer_valued);
    CHECK(time.mean == 3.5);
    const EmpiricalSample id = read(csv, "id");
    CHECK(id.sorted == std::vector<double>{1.0, 2.0, 3.0});
    CHECK(id.integer_valued);
    CHECK(id.first_negative_line == 0);
    // Quoted names and values, CRLF, extra fields and a trailing blank line.
    const EmpiricalSample q = read("\"a\",\"b \"\"c\"\"\"\r\n\"x,1\",\" 7 \",extra\r\n-1,8\r\n\r\n", "b \"c\"");
    CHECK(q.sorted == std::vector<double>{7.0, 8.0});
    const EmpiricalSample n = read("a,b\n1,-2\n3,4\n", "b");
    CHECK(n.first_negative_line == 2);
    CHECK(n.first_negative == -2.0);
  }

  TEST_CASE("empirical sample: every line of a large file is read") {
    std::string content;
    double expected_sum = 0.0;
    for (int i = 0; i < 200000; ++i) {
      const int v = (i * 7919) % 200000;
      content += std::to_string(v) + ".25\n";
      expected_sum += v + 0.25;
    }
    const EmpiricalSample s = read(content);
    REQUIRE(s.sorted.size() == 200000);
    CHECK(s.sorted.front() == 0.25);
    CHECK(s.sorted.back() == 199999.25);
    CHECK(s.mean == expected_sum / 200000.0);
    CHECK_FALSE(s.integer_valued);
  }

  TEST_CASE("empirical sample: missing and unreadable files") {
    const std::string missing =
        (std::filesystem::temp_directory_path() / "lbmc_empirical_test_no_such_file.txt").string();
    const std::string message = error_of(missing);
    CHECK(message.find(missing + ": cannot open the file") == 0);
    const std::string dir = std::filesystem::temp_directory_path().string();
    CHECK(error_of(dir).find("is a directory") != std::string::npos);
    CHECK(error_of("/dev/null").find("not a regular file") != std::string::npos);
  }

  TEST_CASE("empirical sample: refusals name the file - the line and the rule") {
    struct Refusal {
      std::string content;
      std::size_t line;  // 0: the message names no line
      std::string part;
      std::string column = "";
    };
    const Refusal refusals[] = {
        // Empty files and files without values.
        {"", 0, "the file is empty"},
        {"\n\n  \n", 0, "no values in the file"},
        {"time\n", 0, "no values under the column 'time'", "time"},
        {"time\n\n", 0, "no values under the column 'time'", "time"},
        // Text that is not a number.
        {"1\n2\nabc\n", 3, "'abc' is not a number"},
        {"1\n2 3\n", 2, "'2 3' is not a number"},
        {"1,5\n", 1, "'1,5' is not a number"},
        {"++1\n", 1, "'++1' is not a number"},
        {"+-1\n", 1, "'+-1' is not a number"},
        {"+\n", 1, "'+' is not a number"},
        {"1e\n", 1, "'1e' is not a number"},
        {"0x10\n", 1, "'0x10' is not a number"},
        {"1\r2\r3\r", 1, "lone CR"},
        {"a\x01" "b\n", 1, "'a\\x01b' is not a number"},
        {std::string(100, '7') + "x\n", 1, "'" + std::string(40, '7') + "...' is not a number"},
        // NaN, infinities, huge or tiny magnitudes.
        {"1\nnan\n", 2, "'nan' is NaN"},
        {"1\n2\n-inf\n", 3, "'-inf' is infinite"},
        {"Infinity\n", 1, "'Infinity' is infinite"},
        {"1\n1.0000001e100\n", 2, "'1.0000001e100' is larger than 1e100 in magnitude"},
        {"-2e100\n", 1, "larger than 1e100"},
        {"1e400\n", 1, "'1e400' is larger than 1e100"},
        {"0.0001e99999999999999999999\n", 1, "larger than 1e100"},
        {"1e-400\n", 1, "'1e-400' is too small for a double"},
        {"1000e-330\n", 1, "too small"},
        // Blank lines only at the end.
        {"1\n2\n\n3\n", 3, "a blank line among the values"},
        {"1\n \n\t\n4\n", 2, "a blank line among the values"},
        {"\n1\n", 1, "a blank line among the values"},
        // CSV files.
        {"id,time\n1,2\n", 0, "no column 'duration' in the header line (the columns are 'id', 'time')", "duration"},
        {"a,b,a\n1,2,3\n", 1, "the column 'a' occurs 2 times in the header (fields 1 and 3)", "a"},
        {"id,time\n1,2\n3\n", 3, "1 field, but the column 'time' is field 2", "time"},
        {"id,time\n1,2\n3,\n", 3, "the field of column 'time' is empty", "time"},
        {"id,time\n1,2\n3,x\n", 3, "'x' is not a number", "time"},
        {"id,time\n\"1,2\n", 2, "no closing quote", "time"},
        {"id,time\n\"1\"x,2\n", 2, "text follows a closing quote", "time"},
        {"\n1,2\n", 1, "the header line", "time"},
        {"id,time\n1,2\n\n3,4\n", 3, "a blank line among the values", "time"},
    };
    for (const Refusal& r : refusals) {
      CAPTURE(r.content);
      check_refused(r.content, r.line, r.part, r.column);
    }
  }

  TEST_CASE("empirical sample: the extreme magnitudes are read") {
    CHECK(read("1e100\n-1e100\n5e-324\n").sorted == std::vector<double>{-1e100, 5e-324, 1e100});
  }

  TEST_CASE("empirical sample: the law names the file as empirical:FILE in a refusal") {
    const TempFile file("1\nx\n");
    CHECK_THROWS_WITH_AS(lbmc::dist::parse_load_law("empirical:" + file.path()),
                         ("empirical:" + file.path() + ": line 2: 'x' is not a number").c_str(),
                         lbmc::engine::InputError);
  }

  TEST_CASE("empirical sample: the memory budget refuses before reading") {
    // "1\n2\n": 4 bytes, at most 2 values: 4 + 8 * 2 = 20 bytes.
    const TempFile small("1\n2\n");
    CHECK(read_empirical_sample(small.path(), "", 20.0).sorted.size() == 2);
    const std::string tight = error_of(small.path(), "", 19.0);
    CHECK(tight.find(small.path() + ": the file (4 B) may hold up to 2 values") == 0);
    CHECK(tight.find("up to 20 B") != std::string::npos);
    CHECK(tight.find("more than the 19 B available") != std::string::npos);
    // 1 MiB of "1\n": 1 MiB + 8 * 512 Ki = 5 MiB.
    std::string content;
    for (int i = 0; i < 512 * 1024; ++i) content += "1\n";
    const TempFile big(content);
    const std::string refused = error_of(big.path(), "", 1024.0 * 1024.0);
    INFO("message: ", refused);
    CHECK(refused.find("the file (1.0 MiB) may hold up to 524288 values") != std::string::npos);
    CHECK(refused.find("up to 5.0 MiB") != std::string::npos);
    CHECK(refused.find("more than the 1.0 MiB available") != std::string::npos);
    CHECK(error_of(big.path(), "", 3.0 * 1024 * 1024 * 1024).empty());
    CHECK(error_of(big.path(), "", std::nan("")).find("more than the nan") != std::string::npos);
  }
}

}  // namespace empirical_sample_test
