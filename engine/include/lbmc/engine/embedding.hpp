// Commands run inside another process (the Python module) rather than as the
// lbmc executable.
//
// The host runs each command on a thread of its own with an Embedding in
// scope there (EmbeddingScope). The engine then
//  - stops the command at the next block boundary once `stop` is set, as
//    after SIGINT (interrupt.hpp), without touching the process's signal
//    handlers: the driver hands the embedding to the threads that run its
//    blocks, so kernels polling for a stop see it as well;
//  - publishes each run's progress in `progress`, which the host reads from
//    its own thread, beside the stderr line or instead of it;
//  - hands result tables and claims to `output`, as the CSV and JSON
//    metadata they are written as, and prints no readable table;
//  - runs validate's cases with `executable` (the lbmc executable), since
//    the process itself is not lbmc.
// Without an embedding in scope (the executable) none of this happens. Two
// commands on two threads have two embeddings and share nothing else of a
// command's state (the run journal is per thread, run_journal.hpp).
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace lbmc::engine {

//! One run's progress (a driver call: one parameter point of a sweep).
struct ProgressSnapshot {
  std::string label;
  std::int64_t done = 0;
  std::int64_t planned = 0;  // 0 when open-ended (--target-rse)
  std::int64_t run = 0;      // 1 for the command's first run, 2 for the next, ...
};

//! Written by the engine's threads, read by the host's.
class ProgressFeed {
 public:
  //! A run starts (Progress's constructor).
  void start(const std::string& label);
  //! `done` of `planned` replications (from any of the run's threads).
  void update(std::int64_t done, std::int64_t planned) noexcept;
  ProgressSnapshot read() const;

 private:
  mutable std::mutex mutex_;
  std::string label_;
  std::int64_t run_ = 0;
  std::atomic<std::int64_t> done_{0};
  std::atomic<std::int64_t> planned_{0};
};

//! What a command hands over instead of printing it.
struct CapturedOutput {
  struct Table {
    std::string csv;        // as --csv writes it
    std::string meta_json;  // the "meta" object --json writes
  };
  std::vector<Table> tables;
  std::string claims_csv;  // reproduce's claims, every paper's (claims.csv's columns)
};

struct Embedding {
  std::atomic<bool> stop{false};
  ProgressFeed progress;
  //! The caller draws the progress it is fed: no progress line on stderr,
  //! whatever --progress says (it is kept for the run's state file).
  bool caller_draws_progress = false;
  CapturedOutput output;
  std::string executable;  // the lbmc executable that validate runs
};

//! The embedding of the command running on this thread, or nullptr.
Embedding* current_embedding() noexcept;

//! Puts `embedding` in scope on this thread until destroyed (nullptr: none).
class EmbeddingScope {
 public:
  explicit EmbeddingScope(Embedding* embedding) noexcept;
  ~EmbeddingScope();
  EmbeddingScope(const EmbeddingScope&) = delete;
  EmbeddingScope& operator=(const EmbeddingScope&) = delete;

 private:
  Embedding* previous_;
};

}  // namespace lbmc::engine
