// Commands run inside another process (engine/embedding.hpp): output handed
// over instead of printed, a stop that reaches the block threads, progress
// published, and two commands at once on two threads.
#include <doctest/doctest.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "lbmc/engine/embedding.hpp"
#include "lbmc/engine/interrupt.hpp"
#include "lbmc/exp/command.hpp"

namespace embedding_test {

namespace {

using lbmc::engine::Embedding;
using lbmc::engine::EmbeddingScope;
using lbmc::exp::CliOutcome;

CliOutcome run_in(Embedding& embedding, const std::vector<std::string>& arguments) {
  const EmbeddingScope scope(&embedding);
  return lbmc::exp::run_embedded(arguments);
}

// Seconds of work at two threads on any machine.
const std::vector<std::string> kLongRun = {"maxload", "--n",    "1024",  "--reps",    "2e7",    "--method",
                                           "brute",   "--seed", "1",     "--threads", "2",      "--quiet"};

}  // namespace

TEST_SUITE("fast") {
  TEST_CASE("embedding: the rows are handed over as CSV with the JSON meta") {
    Embedding embedding;
    const CliOutcome outcome = run_in(embedding, {"maxload", "--n", "16", "--reps", "1000", "--seed", "1", "--quiet"});
    CHECK(outcome.code == 0);
    CHECK(outcome.failure == CliOutcome::Failure::none);
    REQUIRE(embedding.output.tables.size() == 1);
    CHECK(embedding.output.tables[0].csv.rfind("experiment,dist,n,method,statistic,", 0) == 0);
    CHECK(embedding.output.tables[0].meta_json.find("\"seed\":1") != std::string::npos);
    CHECK(lbmc::engine::current_embedding() == nullptr);  // the scope ended
  }

  TEST_CASE("embedding: bad input is a failure of its class with the command line's message") {
    Embedding embedding;
    const CliOutcome outcome = run_in(embedding, {"maxload", "--n", "0"});
    CHECK(outcome.code == 2);
    CHECK(outcome.failure == CliOutcome::Failure::bad_input);
    CHECK(outcome.message.rfind("lbmc maxload: error: --n", 0) == 0);
    CHECK(embedding.output.tables.empty());
  }

  TEST_CASE("embedding: a stop asked for before the run stops it at once") {
    Embedding embedding;
    embedding.stop = true;
    const CliOutcome outcome = run_in(embedding, kLongRun);
    CHECK(outcome.code == 130);
    CHECK(outcome.failure == CliOutcome::Failure::interrupted);
    CHECK(outcome.message == "lbmc maxload: interrupted");
    CHECK(embedding.output.tables.empty());
    CHECK_FALSE(lbmc::engine::interrupt_requested());  // the flag belongs to that run alone
  }

  TEST_CASE("embedding: a stop from another thread ends a long run at a block - the other run goes on") {
    Embedding stopped;
    Embedding other;
    CliOutcome stopped_outcome;
    CliOutcome other_outcome;
    std::thread first([&] { stopped_outcome = run_in(stopped, kLongRun); });
    std::thread second([&] {
      other_outcome = run_in(other, {"maxload", "--n", "64", "--reps", "20000", "--seed", "2", "--threads", "1",
                                     "--quiet"});
    });
    // Once the long run has made progress, stop it.
    while (stopped.progress.read().done == 0) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    stopped.stop = true;
    first.join();
    second.join();
    CHECK(stopped_outcome.failure == CliOutcome::Failure::interrupted);
    const lbmc::engine::ProgressSnapshot seen = stopped.progress.read();
    CHECK(seen.run == 1);
    CHECK(seen.planned == 20'000'000);
    CHECK(seen.done < seen.planned);
    CHECK(seen.label.find("maxload") != std::string::npos);
    CHECK(other_outcome.code == 0);
    CHECK(other.output.tables.size() == 1);
  }
}

}  // namespace embedding_test
