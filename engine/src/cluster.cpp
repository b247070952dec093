// The processes of one run: MPI when built with it and launched by a launcher.
#include "lbmc/engine/cluster.hpp"

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <optional>

#include "lbmc/engine/errors.hpp"
#include "lbmc/engine/serial.hpp"

#ifdef LBMC_WITH_MPI
#include <mpi.h>
#endif

namespace lbmc::engine::cluster {
namespace {

int g_rank = 0;
int g_size = 1;
[[maybe_unused]] bool g_mpi = false;  // MPI_Init ran (read only in the MPI build)
// The failure met in a collective call; no collective call follows it.
std::optional<RemoteFailure> g_failure;

// A collective call's header from each rank: the size of what it
// contributes and, for a failed rank, its exit code (-1 for none).
struct Header {
  std::int64_t bytes = 0;
  std::int64_t code = -1;
};

#ifdef LBMC_WITH_MPI
bool launched_by_mpi() {
  if (std::getenv("LBMC_SINGLE_PROCESS") != nullptr) return false;
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_SIZE", "PMI_RANK"}) {
    if (std::getenv(name) != nullptr) return true;
  }
  return false;
}

// MPI counts are int: longer byte strings move in pieces.
constexpr std::int64_t kPiece = std::int64_t{1} << 30;
// The size a sender announces in place of a message it could not make.
constexpr std::uint64_t kNoMessage = ~std::uint64_t{0};
constexpr int kMessageTag = 17;

// Every rank's bytes, in rank order, in rounds of at most INT_MAX bytes in
// all; `counted[r]` false leaves rank r out (its bytes are not sent).
std::vector<std::vector<std::byte>> all_gather(std::span<const std::byte> mine, const std::vector<Header>& headers,
                                               const std::vector<bool>& counted) {
  std::vector<std::vector<std::byte>> all(headers.size());
  std::vector<std::int64_t> sizes(headers.size());
  for (std::size_t r = 0; r < headers.size(); ++r) {
    sizes[r] = counted[r] ? headers[r].bytes : 0;
    all[r].resize(static_cast<std::size_t>(sizes[r]));
  }
  const std::int64_t chunk = INT_MAX / g_size;
  const std::int64_t longest = *std::max_element(sizes.begin(), sizes.end());
  std::vector<int> counts(headers.size()), displacements(headers.size());
  std::vector<std::byte> round;
  for (std::int64_t offset = 0; offset == 0 || offset < longest; offset += chunk) {
    int total = 0;
    for (std::size_t r = 0; r < headers.size(); ++r) {
      counts[r] = static_cast<int>(std::clamp<std::int64_t>(sizes[r] - offset, 0, chunk));
      displacements[r] = total;
      total += counts[r];
    }
    round.resize(static_cast<std::size_t>(total));
    const int my_count = counts[static_cast<std::size_t>(g_rank)];
    MPI_Allgatherv(my_count > 0 ? mine.data() + offset : nullptr, my_count, MPI_BYTE, round.data(), counts.data(),
                   displacements.data(), MPI_BYTE, MPI_COMM_WORLD);
    for (std::size_t r = 0; r < headers.size(); ++r) {
      std::copy_n(round.begin() + displacements[r], counts[r], all[r].begin() + offset);
    }
  }
  return all;
}

// The start of every collective call: every rank's header. When a rank
// failed (code >= 0; `message` is then this rank's failure), every rank
// receives the failed ranks' messages and throws the first one's failure.
std::vector<Header> headers_of_all(Header mine, std::span<const std::byte> message = {}) {
  std::vector<Header> headers(static_cast<std::size_t>(g_size));
  MPI_Allgather(&mine, 2, MPI_INT64_T, headers.data(), 2, MPI_INT64_T, MPI_COMM_WORLD);
  std::vector<bool> failed(headers.size());
  for (std::size_t r = 0; r < headers.size(); ++r) failed[r] = headers[r].code >= 0;
  const auto first = std::find(failed.begin(), failed.end(), true);
  if (first == failed.end()) return headers;
  const std::vector<std::vector<std::byte>> messages = all_gather(message, headers, failed);
  const auto r = static_cast<std::size_t>(first - failed.begin());
  const std::string text(reinterpret_cast<const char*>(messages[r].data()), messages[r].size());
  g_failure.emplace(static_cast<int>(headers[r].code), text);
  throw *g_failure;
}

void send_piecewise(std::span<const std::byte> bytes, int to) {
  for (std::size_t offset = 0; offset < bytes.size(); offset += kPiece) {
    const auto n = static_cast<int>(std::min<std::size_t>(kPiece, bytes.size() - offset));
    MPI_Send(bytes.data() + offset, n, MPI_BYTE, to, kMessageTag, MPI_COMM_WORLD);
  }
}

void receive_piecewise(std::span<std::byte> bytes, int from) {
  for (std::size_t offset = 0; offset < bytes.size(); offset += kPiece) {
    const auto n = static_cast<int>(std::min<std::size_t>(kPiece, bytes.size() - offset));
    MPI_Recv(bytes.data() + offset, n, MPI_BYTE, from, kMessageTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
}
#endif

bool distributed() noexcept {
#ifdef LBMC_WITH_MPI
  return g_mpi && g_size > 1;
#else
  return false;
#endif
}

}  // namespace

Session::Session([[maybe_unused]] int& argc, [[maybe_unused]] char**& argv) {
#ifdef LBMC_WITH_MPI
  if (!launched_by_mpi()) return;
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  g_mpi = true;
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_size);
  if (g_rank != 0) {
    // Rank 0 alone prints (top of cluster.hpp).
    if (std::freopen("/dev/null", "w", stdout) == nullptr || std::freopen("/dev/null", "w", stderr) == nullptr) {
      std::abort();
    }
  }
#endif
}

Session::~Session() {
#ifdef LBMC_WITH_MPI
  if (g_mpi) MPI_Finalize();
#endif
}

int rank() noexcept { return g_rank; }
int size() noexcept { return g_size; }

std::vector<std::vector<std::byte>> exchange(std::span<const std::byte> payload) {
  if (g_failure) throw *g_failure;
#ifdef LBMC_WITH_MPI
  if (distributed()) {
    const std::vector<Header> headers = headers_of_all({static_cast<std::int64_t>(payload.size()), -1});
    return all_gather(payload, headers, std::vector<bool>(headers.size(), true));
  }
#endif
  return {std::vector<std::byte>(payload.begin(), payload.end())};
}

void gather_at_root([[maybe_unused]] std::size_t count,
                    [[maybe_unused]] const std::function<std::span<const std::byte>(std::size_t)>& message,
                    [[maybe_unused]] const std::function<void(std::span<const std::byte>)>& receive) {
  if (g_failure) throw *g_failure;
#ifdef LBMC_WITH_MPI
  if (!distributed()) return;
  const std::vector<Header> headers = headers_of_all({static_cast<std::int64_t>(count), -1});
  if (g_rank != 0) {
    for (std::size_t i = 0; i < count; ++i) {
      std::span<const std::byte> bytes;
      try {
        bytes = message(i);
      } catch (...) {
        // Rank 0 stops reading this rank; its next collective call meets
        // the failure this rank reports there.
        MPI_Send(&kNoMessage, 1, MPI_UINT64_T, 0, kMessageTag, MPI_COMM_WORLD);
        throw;
      }
      const std::uint64_t n = bytes.size();
      MPI_Send(&n, 1, MPI_UINT64_T, 0, kMessageTag, MPI_COMM_WORLD);
      send_piecewise(bytes, 0);
    }
    return;
  }
  ScratchVector<std::byte> buffer;  // one message at a time, its memory reused
  std::exception_ptr failure;       // from receive(): the messages are still read
  bool sender_failed = false;
  for (int r = 1; r < g_size; ++r) {
    for (std::int64_t i = 0; i < headers[static_cast<std::size_t>(r)].bytes; ++i) {
      std::uint64_t n = 0;
      MPI_Recv(&n, 1, MPI_UINT64_T, r, kMessageTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      if (n == kNoMessage) {
        sender_failed = true;
        break;
      }
      buffer.resize(static_cast<std::size_t>(n));
      receive_piecewise(buffer, r);
      if (failure) continue;
      try {
        receive(buffer);
      } catch (...) {
        failure = std::current_exception();
      }
    }
  }
  if (failure) std::rethrow_exception(failure);
  // A sender's failure comes in the header of its next call: meet it now,
  // before anything is made of the messages that did not come.
  if (sender_failed) headers_of_all({0, -1});
#endif
}

ScratchVector<std::byte> from_root([[maybe_unused]] std::span<const std::span<const std::byte>> pieces) {
  if (g_failure) throw *g_failure;
  ScratchVector<std::byte> received;
#ifdef LBMC_WITH_MPI
  if (!distributed()) return received;
  const bool root = g_rank == 0;
  std::vector<std::int64_t> sizes;
  if (root) {
    for (const auto& piece : pieces) sizes.push_back(static_cast<std::int64_t>(piece.size()));
  }
  std::int64_t total = 0;
  for (const std::int64_t size : sizes) total += size;
  const std::vector<Header> headers = headers_of_all({total, -1});
  // The pieces' sizes, then each piece into its place.
  std::int64_t count = static_cast<std::int64_t>(sizes.size());
  MPI_Bcast(&count, 1, MPI_INT64_T, 0, MPI_COMM_WORLD);
  sizes.resize(static_cast<std::size_t>(count));
  MPI_Bcast(sizes.data(), static_cast<int>(count), MPI_INT64_T, 0, MPI_COMM_WORLD);
  if (!root) received.resize(static_cast<std::size_t>(headers.front().bytes));
  std::int64_t at = 0;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    // MPI_Bcast only reads the root's buffer.
    std::byte* data = root ? const_cast<std::byte*>(pieces[i].data()) : received.data() + at;
    for (std::int64_t offset = 0; offset < sizes[i]; offset += kPiece) {
      MPI_Bcast(data + offset, static_cast<int>(std::min(kPiece, sizes[i] - offset)), MPI_BYTE, 0, MPI_COMM_WORLD);
    }
    at += sizes[i];
  }
#endif
  return received;
}

std::uint64_t root_value(std::uint64_t value) {
  if (g_size == 1) return value;
  ByteWriter out;
  out.u64(value);
  const auto all = exchange(out.data());
  ByteReader in(all.front());
  return in.u64();
}

int conclude(int code, const std::string& failure) {
  if (!distributed()) {
    if (!failure.empty()) std::fprintf(stderr, "%s\n", failure.c_str());
    return code;
  }
#ifdef LBMC_WITH_MPI
  if (!g_failure) {
    try {
      if (failure.empty()) {
        ByteWriter out;
        out.i64(code);
        const auto all = exchange(out.data());
        ByteReader in(all.front());
        return static_cast<int>(in.i64());
      }
      const auto* begin = reinterpret_cast<const std::byte*>(failure.data());
      headers_of_all({static_cast<std::int64_t>(failure.size()), code}, {begin, failure.size()});
    } catch (const RemoteFailure&) {
      // g_failure holds the first failed rank's code and message.
    }
  }
#endif
  if (is_root()) std::fprintf(stderr, "%s\n", g_failure->what());
  return g_failure->code();
}

}  // namespace lbmc::engine::cluster
