// The processes of one run: MPI when built with it and launched by a launcher.
#include "lbmc/engine/cluster.hpp"

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstdlib>
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
// The failure met in an exchange; no exchange follows it.
std::optional<RemoteFailure> g_failure;

// An exchange's header from each rank: its payload's size and, for a failed
// rank, its exit code (-1 for none).
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

// Every rank's bytes, in rank order, in rounds of at most INT_MAX bytes in
// all (MPI counts and displacements are int).
std::vector<std::vector<std::byte>> all_gather(std::span<const std::byte> mine, const std::vector<Header>& headers) {
  std::vector<std::vector<std::byte>> all(headers.size());
  for (std::size_t r = 0; r < headers.size(); ++r) all[r].resize(static_cast<std::size_t>(headers[r].bytes));
  const std::int64_t chunk = INT_MAX / g_size;
  std::int64_t longest = 0;
  for (const Header& h : headers) longest = std::max(longest, h.bytes);
  std::vector<int> counts(headers.size()), displacements(headers.size());
  std::vector<std::byte> round;
  for (std::int64_t offset = 0; offset == 0 || offset < longest; offset += chunk) {
    int total = 0;
    for (std::size_t r = 0; r < headers.size(); ++r) {
      counts[r] = static_cast<int>(std::clamp<std::int64_t>(headers[r].bytes - offset, 0, chunk));
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
#endif

// One exchange: this rank's payload, or its failure (code >= 0, the payload
// being the message). Returns every payload and sets g_failure when a rank
// failed.
std::vector<std::vector<std::byte>> exchange_raw(std::span<const std::byte> payload, int failure_code) {
#ifdef LBMC_WITH_MPI
  if (g_mpi && g_size > 1) {
    const Header mine{static_cast<std::int64_t>(payload.size()), failure_code};
    std::vector<Header> headers(static_cast<std::size_t>(g_size));
    MPI_Allgather(&mine, 2, MPI_INT64_T, headers.data(), 2, MPI_INT64_T, MPI_COMM_WORLD);
    std::vector<std::vector<std::byte>> all = all_gather(payload, headers);
    for (std::size_t r = 0; r < headers.size(); ++r) {
      if (headers[r].code < 0) continue;
      const std::string message(reinterpret_cast<const char*>(all[r].data()), all[r].size());
      g_failure.emplace(static_cast<int>(headers[r].code), message);
      break;
    }
    return all;
  }
#endif
  (void)failure_code;
  return {std::vector<std::byte>(payload.begin(), payload.end())};
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
  auto all = exchange_raw(payload, -1);
  if (g_failure) throw *g_failure;
  return all;
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
  if (g_size == 1) {
    if (!failure.empty()) std::fprintf(stderr, "%s\n", failure.c_str());
    return code;
  }
  if (!g_failure) {
    const bool failed = !failure.empty();
    std::vector<std::byte> payload;
    if (failed) {
      const auto* begin = reinterpret_cast<const std::byte*>(failure.data());
      payload.assign(begin, begin + failure.size());
    } else {
      ByteWriter out;
      out.i64(code);
      payload = out.take();
    }
    const auto all = exchange_raw(payload, failed ? code : -1);
    if (!g_failure) {
      ByteReader in(all.front());
      return static_cast<int>(in.i64());
    }
  }
  if (is_root()) std::fprintf(stderr, "%s\n", g_failure->what());
  return g_failure->code();
}

}  // namespace lbmc::engine::cluster
