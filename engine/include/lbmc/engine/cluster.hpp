// The processes of one run: a single process, or the ranks of an MPI job.
//
// Launched by an MPI launcher (mpirun, srun: the environment names a world
// size or rank), lbmc starts MPI and each rank runs the whole command; the
// driver gives every rank a contiguous range of each wave's blocks and
// exchanges their partial accumulators (driver.hpp), so every rank holds the
// same totals and takes the same decisions, and rank 0 alone writes files and
// prints (the others' standard output and error go to /dev/null). Without a
// launcher, or with LBMC_SINGLE_PROCESS set in the environment, or in a build
// without MPI, there is one process and every function here is trivial.
//
// Every collective call is an exchange: each rank contributes bytes and
// receives every rank's bytes in rank order (two MPI collectives: the sizes,
// then the bytes; never a floating-point MPI reduction, whose result would
// depend on the rank count and the MPI library). A rank that fails (bad
// input it alone sees, an error while running, an interrupt) contributes its
// failure to the next exchange instead, once, and makes no further ones:
// since MPI matches collectives by their order, the other ranks meet it in
// whichever exchange they are at, stop, and every rank exits with the failed
// rank's code while rank 0 prints its message. A run that succeeds ends with
// a last exchange (conclude), so a failure after a rank's last wave is met
// too.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace lbmc::engine::cluster {

//! Starts MPI when the process was launched by an MPI launcher, and stops it
//! at destruction; one per process, in main().
class Session {
 public:
  Session(int& argc, char**& argv);
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;
};

//! This process's rank and the number of ranks (0 and 1 without MPI).
int rank() noexcept;
int size() noexcept;
inline bool is_root() noexcept { return rank() == 0; }

//! Thrown by an exchange on every rank when a rank failed: its exit code and
//! one-line message.
class RemoteFailure : public std::runtime_error {
 public:
  RemoteFailure(int code, const std::string& message) : std::runtime_error(message), code_(code) {}
  int code() const noexcept { return code_; }

 private:
  int code_;
};

//! Every rank's `payload`, indexed by rank (collective). Throws RemoteFailure
//! when a rank failed.
std::vector<std::vector<std::byte>> exchange(std::span<const std::byte> payload);

//! Rank 0's value on every rank (collective).
std::uint64_t root_value(std::uint64_t value);

//! Ends a command on every rank (collective unless a failure was already
//! met): `failure` is the message of this rank's failure (empty when it
//! succeeded) and `code` its exit code. Returns the exit code of the job (the
//! first failed rank's, else rank 0's) and prints the failure's message on
//! rank 0's standard error.
int conclude(int code, const std::string& failure);

}  // namespace lbmc::engine::cluster
