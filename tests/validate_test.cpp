// `lbmc validate`: reading verdicts from a tidy CSV, and the command's exit
// codes.
#include <doctest/doctest.h>

#include <cstdlib>
#include <string>

#include <sys/wait.h>

#include "validate/validate.hpp"

namespace validate_test {

using lbmc::exp::count_verdicts;

namespace {

int exit_code(const std::string& command) {
  const int status = std::system(command.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace

TEST_SUITE("fast") {
  TEST_CASE("validate: verdicts are counted by reference kind") {
    const std::string csv =
        "experiment,dist,n,statistic,estimate,se,ci_low,ci_high,reps,reference,reference_kind,reference_value,z,"
        "rel_diff,verdict\n"
        "maxload,\"normal:0,1\",16,mean,1,0.1,0.8,1.2,100,exact,exact,1,0,0,pass\n"
        "maxload,\"normal:0,1\",16,mean,1,0.1,0.8,1.2,100,gumbel-paper,asymptotic,2,-10,-0.5,info\n"
        "maxload,\"normal:0,1\",64,q0.95,3,0.1,2.8,3.2,100,exact,exact,2,10,0.5,fail\n"
        "maxshift,\"a \"\"quoted\"\" law\",64,D.p,0.1,0.01,0.08,0.12,100,paper,bound,0.01,9,9,fail\n"
        "maxshift,x,64,D.p,0.1,0.01,0.08,0.12,100,paper,bound,0.2,-9,-0.5,pass\n"
        "maxload,x,64,variance,1,,,,100,,,,,,\n";
    const auto counts = count_verdicts(csv);
    CHECK(counts.rows == 6);
    CHECK(counts.exact_pass == 1);
    CHECK(counts.exact_fail == 1);
    CHECK(counts.bound_pass == 1);
    CHECK(counts.bound_fail == 1);
    REQUIRE(counts.failed.size() == 1);
    CHECK(counts.failed[0] == "dist=normal:0,1 n=64 q0.95 (exact) z=10");
    REQUIRE(counts.missed.size() == 1);
    CHECK(counts.missed[0] == "dist=a \"quoted\" law n=64 D.p (paper) z=9");
  }

  TEST_CASE("validate: a CSV without the verdict columns is refused") {
    CHECK_THROWS(count_verdicts("experiment,statistic\nx,mean\n"));
    CHECK_THROWS(count_verdicts(""));
    CHECK_THROWS(count_verdicts("experiment,statistic,reference,reference_kind,z,verdict\nx,mean,exact,exact\n"));
  }

  TEST_CASE("validate: one experiment passes and an unknown one is bad input") {
    const std::string lbmc = LBMC_BINARY;
    CHECK(exit_code(lbmc + " validate --quick --only maxshift --quiet >/dev/null") == 0);
    CHECK(exit_code(lbmc + " validate --only nothing 2>/dev/null") == 2);
  }
}

}  // namespace validate_test
