// The processes of one run: a single process, or the ranks of an MPI job.
//
// Launched by an MPI launcher (mpirun, srun: the environment names a world
// size or rank), lbmc starts MPI and each rank runs the whole command; the
// driver gives every rank a contiguous range of each wave's blocks, the ranks
// send the partial accumulators of their ranges to rank 0, which merges them
// in block order, and rank 0 sends the total back (driver.hpp), so every rank
// takes the same decisions while rank 0 alone holds the blocks of other
// ranks, writes files and prints (the others' standard output and error go
// to /dev/null). Without a launcher, or with LBMC_SINGLE_PROCESS set in the
// environment, or in a build without MPI, there is one process and every
// function here is trivial.
//
// Every collective call begins with the ranks' headers (the size of what
// each contributes, and whether it failed), then moves bytes: to every rank
// (exchange), to rank 0 one message at a time (gather_at_root), or from rank
// 0 (from_root). Never a floating-point MPI reduction, whose result would
// depend on the rank count and the MPI library. A rank that fails (bad input
// it alone sees, an error while running, an interrupt) puts its failure in
// the header of its next collective call instead, once, and makes no further
// ones: since MPI matches collectives by their order and every call begins
// with the headers, the other ranks meet it in whichever call they are at,
// every rank receives the failed ranks' messages, stops, and exits with the
// failed rank's code while rank 0 prints its message. A run that succeeds
// ends with a last exchange (conclude), so a failure after a rank's last wave
// is met too.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "lbmc/engine/scratch_vector.hpp"

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

//! Sends every rank's messages to rank 0 (collective): rank r > 0 sends
//! `count` messages, message(i) returning the bytes of the i-th (read before
//! message(i + 1) is called); rank 0 calls receive(bytes) for each message of
//! rank 1, in order, then of rank 2, and so on, one message in memory at a
//! time (rank 0's own count and message are not used). Throws RemoteFailure
//! when a rank failed; an exception from message() or receive() is rethrown
//! on its rank once the other ranks' messages have been sent or received,
//! and met by the others in their next collective call.
void gather_at_root(std::size_t count, const std::function<std::span<const std::byte>(std::size_t)>& message,
                    const std::function<void(std::span<const std::byte>)>& receive);

//! Rank 0's bytes, the concatenation of `pieces`, on every other rank
//! (collective; rank 0 gets nothing back, and the others' argument is not
//! used). Throws RemoteFailure when a rank failed.
ScratchVector<std::byte> from_root(std::span<const std::span<const std::byte>> pieces);

//! Rank 0's value on every rank (collective).
std::uint64_t root_value(std::uint64_t value);

//! Ends a command on every rank (collective unless a failure was already
//! met): `failure` is the message of this rank's failure (empty when it
//! succeeded) and `code` its exit code. Returns the exit code of the job (the
//! first failed rank's, else rank 0's) and prints the failure's message on
//! rank 0's standard error.
int conclude(int code, const std::string& failure);

}  // namespace lbmc::engine::cluster
