// The replication driver.
//
// Replications are cut into blocks of `block_reps`; block b draws from
// block_generator(seed, b) into an accumulator of its own. Blocks run on
// OpenMP threads and are combined by a reduction whose shape is fixed by the
// block indices (reduction.hpp), so the total (and every byte printed from
// it) depends on the seed and the block layout only, never on --threads, on
// how blocks are split between processes, or on the order they finish.
//
// A run of fixed length schedules all its blocks at once. With a target
// relative standard error (--target-rse X), blocks run in waves, and after
// each wave the run stops once every mean the accumulator reports has
// se <= X·|mean| (DESIGN §5), or max_reps is reached. A wave is at least
// kWaveBlocks blocks and an eighth of the blocks done, so waves keep many
// threads busy and the rule is consulted a logarithmic number of times;
// wave boundaries depend on the block count only, never on the threads.
// The merges that follow the blocks (the fold of the nodes left, the nodes
// of other ranks) run on one thread inside a parallel region, whose other
// threads take the tasks a quantile store spawns to bin many values at once.
//
// Under MPI (cluster.hpp) each rank runs a contiguous range of every wave's
// blocks and sends the nodes of its range to rank 0 as bytes (fields.hpp),
// one node at a time, its quantile stores binned first where they will be
// past their cap in the total anyway (early_sketches.hpp). Rank 0 adds them
// to its reduction, so it holds the total a single process would hold, and
// at the end sends that total to the other ranks, so every rank goes on from
// the same state. Rank 0's stopping decision is the one every rank follows.
//
// A kernel provides
//   using Accumulator = ...;              // with merge(const Accumulator&)
//   Accumulator make_accumulator() const;
//   void run(Generator&, std::int64_t count, Accumulator&) const;
// and, to run under --rng philox, run(PhiloxStream&, ...) as well (each block
// then draws from its counter-based stream, philox.hpp), and to run on a GPU,
// on_device() and fold() (device.hpp); the accumulator
// lists its statistics (statistics.hpp), whose watched entries are what the
// stopping rule waits for (a bare Moments watches its mean).
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <exception>
#include <mutex>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <omp.h>

#include "lbmc/engine/cluster.hpp"
#include "lbmc/engine/device.hpp"
#include "lbmc/engine/early_sketches.hpp"
#include "lbmc/engine/fields.hpp"
#include "lbmc/engine/embedding.hpp"
#include "lbmc/engine/interrupt.hpp"
#include "lbmc/engine/moments.hpp"
#include "lbmc/engine/philox.hpp"
#include "lbmc/engine/progress.hpp"
#include "lbmc/engine/reduction.hpp"
#include "lbmc/engine/results.hpp"
#include "lbmc/engine/rng.hpp"
#include "lbmc/engine/run_journal.hpp"
#include "lbmc/engine/statistics.hpp"

namespace lbmc::engine {

inline constexpr std::int64_t kWaveBlocks = 32;
//! Waves of a fixed-length run that writes checkpoints: long enough that
//! their joins cost little (a block is about 2^16 variates, well under a
//! millisecond to tens of milliseconds), short beside --checkpoint-every.
inline constexpr std::int64_t kCheckpointWaveBlocks = 256;

struct RunPlan {
  std::uint64_t seed = 0;
  //! Replications to run; with target_rse, the minimum before checking it.
  std::int64_t reps = 0;
  std::optional<double> target_rse;
  //! Upper limit with target_rse.
  std::int64_t max_reps = 0;
  int threads = 1;
  //! Replications per block; set by the experiment from its work per
  //! replication (block_size_for), never from the thread count.
  std::int64_t block_reps = 1024;
  //! A slice of a fixed-length run: blocks [first_block, first_block +
  //! block_count) only (block_count < 0: every block from first_block).
  std::int64_t first_block = 0;
  std::int64_t block_count = -1;
  ProgressMode progress = ProgressMode::automatic;
  std::string label;
  //! The blocks' stream; Stream::philox only for kernels that run on it.
  Stream stream = Stream::pcg64;
  //! Where the replications run; Device::cuda only for kernels that run
  //! there (device.hpp), on the counter-based stream.
  Device device = Device::cpu;

  //! Exactly `reps` replications under `seed` on `threads` threads, no
  //! progress line.
  static RunPlan fixed(std::uint64_t seed, std::int64_t reps, int threads) {
    RunPlan plan;
    plan.seed = seed;
    plan.reps = reps;
    plan.max_reps = reps;
    plan.threads = threads;
    plan.progress = ProgressMode::never;
    return plan;
  }
};

//! --target-rse: true when every mean has se <= target·|mean| (a mean of 0
//! with se 0 counts as met; a mean of 0 with se > 0, or a NaN se, never does).
inline bool relative_se_met(const std::vector<MeanSummary>& means, double target) {
  return std::all_of(means.begin(), means.end(),
                     [target](const MeanSummary& m) { return m.se <= target * std::abs(m.mean); });
}

struct RunReport {
  std::int64_t reps = 0;
  std::int64_t blocks = 0;
  double wall_seconds = 0.0;
  //! Of wall_seconds, the time spent bringing the total's quantile stores
  //! to their readable form (gathering and sorting the stored values) after
  //! the replications.
  double store_seconds = 0.0;
  //! With target_rse: whether the stopping rule held when the run ended.
  bool target_reached = false;
};

//! A simulated sample and the report of the run that made it (the sample,
//! an accumulator, holds statistics only).
template <class Sample>
struct Simulated {
  Sample sample;
  RunReport run;
};

//! Whether `Kernel` runs its replications on the stream `Words`.
template <class Kernel, class Words>
concept RunsOn = requires(const Kernel& kernel, Words& words, std::int64_t count,
                          typename Kernel::Accumulator& acc) { kernel.run(words, count, acc); };

//! Runs `count` replications of block `block` on its counter-based stream.
//! Out of line: inlined beside the pcg64 path, it changed the register use
//! of that path's loops.
template <class Kernel>
[[gnu::noinline]] void run_block_on_philox(const Kernel& kernel, std::uint64_t seed, std::uint64_t block,
                                           std::int64_t count, typename Kernel::Accumulator& acc) {
  PhiloxStream gen = block_philox(seed, block);
  kernel.run(gen, count, acc);
}

//! Replications per block so that one block draws about 2^16 variates:
//! depends on the work per replication only, never on the thread count.
constexpr std::int64_t block_size_for(std::int64_t variates_per_rep) {
  const std::int64_t per = std::max<std::int64_t>(1, variates_per_rep);
  return std::clamp<std::int64_t>((std::int64_t{1} << 16) / per, 1, 4096);
}

//! The size of block b of a run of `reps` replications in blocks of
//! `block_reps` (the last one may be short).
constexpr std::int64_t block_size(std::int64_t b, std::int64_t block_reps, std::int64_t reps) {
  return std::min(block_reps, reps - b * block_reps);
}

//! A kernel that computes its replications' values on a device (device.hpp).
template <class Kernel>
concept RunsOnDevice = requires(const Kernel& kernel, const DeviceLaunchPlan& plan, std::span<const double> values,
                                typename Kernel::Accumulator& acc) {
  { kernel.on_device(plan) } -> std::same_as<std::unique_ptr<DeviceReplications>>;
  kernel.fold(values, acc);
};

//! run_blocks (below) on the device: ranges of blocks are launched into two
//! slots in turn, and while the device computes one range, the host's
//! threads fold the other's blocks into the reduction, each as kernel.run()
//! would have built it. A stop is looked for between ranges. A block's fold
//! is short, so each thread folds a contiguous share of the range, in
//! block order, into a reduction of its own (AscendingReduction) and hands
//! the shared one only the subtrees left at its share's edges: the same
//! merges (the tree is fixed by the block indices), without a lock taken
//! per block.
template <class Kernel>
void run_blocks_on_device(const RunPlan& plan, const Kernel& kernel, std::int64_t first, std::int64_t last,
                          std::int64_t reps_limit, BlockReduction<typename Kernel::Accumulator>& reduction,
                          const BlockReduction<typename Kernel::Accumulator>& held, std::atomic<std::int64_t>& done,
                          Progress& progress, std::int64_t planned) {
  if (first >= last) return;
  const std::unique_ptr<DeviceReplications> device =
      kernel.on_device({plan.seed, plan.block_reps, reps_limit, last - first});
  const std::int64_t per_launch = device->blocks_per_launch();
  const std::int64_t stride = device->values_per_replication();
  const auto range_end = [&](std::int64_t begin) { return std::min(last, begin + per_launch); };
  Embedding* const embedding = current_embedding();  // the fold threads' too
  device->launch(0, first, range_end(first));
  int slot = 0;
  for (std::int64_t begin = first; begin < last; begin = range_end(begin), slot ^= 1) {
    const std::int64_t end = range_end(begin);
    if (end < last && !interrupt_requested()) device->launch(slot ^ 1, end, range_end(end));
    const std::span<const double> values = device->collect(slot);
    if (interrupt_requested()) break;
    std::vector<char> is_held(static_cast<std::size_t>(end - begin), 0);
    held.for_each_node([&](NodeId id, const auto&) {
      for (std::int64_t b = std::max(id.first(), begin); b < std::min(id.end(), end); ++b) {
        is_held[static_cast<std::size_t>(b - begin)] = 1;
      }
    });
    std::mutex failure_mutex;
    std::exception_ptr failure;
    std::int64_t folded = 0;
#pragma omp parallel num_threads(plan.threads) reduction(+ : folded)
    {
      const EmbeddingScope scope(embedding);
      AscendingReduction<typename Kernel::Accumulator> share;
#pragma omp for schedule(static) nowait
      for (std::int64_t b = begin; b < end; ++b) {
        if (is_held[static_cast<std::size_t>(b - begin)] != 0) continue;
        try {
          const std::int64_t size = block_size(b, plan.block_reps, reps_limit);
          auto acc = kernel.make_accumulator();
          kernel.fold(values.subspan(static_cast<std::size_t>((b - begin) * plan.block_reps * stride),
                                     static_cast<std::size_t>(size * stride)),
                      acc);
          share.add(b, std::move(acc));
          folded += size;
        } catch (...) {
          const std::lock_guard lock(failure_mutex);
          if (!failure) failure = std::current_exception();
        }
      }
      try {
        reduction.add(share.take_nodes());
      } catch (...) {
        const std::lock_guard lock(failure_mutex);
        if (!failure) failure = std::current_exception();
      }
    }
    if (failure) std::rethrow_exception(failure);
    progress.update(done += folded, planned);
  }
  if (interrupt_requested()) {
    interrupt_reached_boundary();
    throw Interrupted();
  }
}

//! Runs blocks [first, last) of `plan` (`reps_limit` replications in all) on
//! plan.threads threads, but for those `held` holds (restored from a state
//! file), and adds each to `reduction`. Once a block fails no new block
//! starts; the exception of the lowest failed block is rethrown after every
//! thread stopped, unless SIGINT or SIGTERM came: then Interrupted is thrown.
//! `done` counts the replications finished.
template <class Kernel>
void run_blocks(const RunPlan& plan, const Kernel& kernel, std::int64_t first, std::int64_t last,
                std::int64_t reps_limit, BlockReduction<typename Kernel::Accumulator>& reduction,
                const BlockReduction<typename Kernel::Accumulator>& held, std::atomic<std::int64_t>& done,
                Progress& progress, std::int64_t planned) {
  if (plan.device == Device::cuda) {
    if constexpr (RunsOnDevice<Kernel>) {
      run_blocks_on_device(plan, kernel, first, last, reps_limit, reduction, held, done, progress, planned);
      return;
    } else {
      throw std::logic_error("a kernel without a device path was asked to run on a device");
    }
  }
  std::mutex failure_mutex;
  std::int64_t failed_block = -1;
  std::atomic<bool> failed{false};  // no new block starts once one failed
  std::exception_ptr failure;
  std::mutex progress_mutex;
  Embedding* const embedding = current_embedding();  // the block threads' too
#pragma omp parallel num_threads(plan.threads)
  {
    const EmbeddingScope scope(embedding);
#pragma omp for schedule(dynamic, 1)
    for (std::int64_t b = first; b < last; ++b) {
      if (interrupt_requested() || failed.load(std::memory_order_relaxed) || held.holds(b)) continue;
      try {
        const std::int64_t size = block_size(b, plan.block_reps, reps_limit);
        auto acc = kernel.make_accumulator();
        const auto block = static_cast<std::uint64_t>(b);
        if (plan.stream == Stream::philox) {
          if constexpr (RunsOn<Kernel, PhiloxStream>) {
            run_block_on_philox(kernel, plan.seed, block, size, acc);
          } else {
            throw std::logic_error("a kernel without the counter-based stream was asked to run on it");
          }
        } else {
          Generator gen = block_generator(plan.seed, block);
          kernel.run(gen, size, acc);
        }
        reduction.add({0, b}, std::move(acc));
        const std::int64_t now = done += size;
        if (progress_mutex.try_lock()) {
          progress.update(now, planned);
          progress_mutex.unlock();
        }
      } catch (...) {
        const std::lock_guard lock(failure_mutex);
        failed.store(true, std::memory_order_relaxed);
        if (failed_block < 0 || b < failed_block) {
          failed_block = b;
          failure = std::current_exception();
        }
      }
    }
  }
  // A block a stop abandoned (Interrupted from its kernel) is simply not in
  // the reduction: the stop is taken here, at the boundary, like any other.
  if (interrupt_requested()) {
    interrupt_reached_boundary();
    throw Interrupted();
  }
  if (failure) std::rethrow_exception(failure);
}

//! Runs f on this thread (the region's primary thread: f may call MPI)
//! inside a parallel region of `threads` threads, whose other threads run the
//! OpenMP tasks f creates (a quantile store binning many values at once);
//! rethrows f's exception.
template <class F>
void with_task_threads(int threads, F f) {
  std::exception_ptr failure;
#pragma omp parallel num_threads(threads)
#pragma omp masked
  {
    try {
      f();
    } catch (...) {
      failure = std::current_exception();
    }
  }
  if (failure) std::rethrow_exception(failure);
}

//! This rank's share of blocks [first, last): contiguous, in rank order.
inline std::pair<std::int64_t, std::int64_t> rank_share(std::int64_t first, std::int64_t last) {
  const std::int64_t count = last - first;
  const std::int64_t r = cluster::rank();
  const std::int64_t k = cluster::size();
  return {first + count * r / k, first + count * (r + 1) / k};
}

//! Runs blocks [first, last) on this process's threads, or under MPI this
//! rank's share of them, and adds every block of the range to `reduction`;
//! under MPI, rank 0 alone does: the other ranks send it the nodes of their
//! shares, one node at a time, and add nothing.
template <class Kernel>
void run_wave(const RunPlan& plan, const Kernel& kernel, std::int64_t first, std::int64_t last,
              std::int64_t reps_limit, BlockReduction<typename Kernel::Accumulator>& reduction,
              std::atomic<std::int64_t>& done, Progress& progress, bool show_planned) {
  using Accumulator = typename Kernel::Accumulator;
  const auto planned = [&](std::int64_t a, std::int64_t b) {
    return show_planned ? std::min(b * plan.block_reps, reps_limit) - a * plan.block_reps : 0;
  };
  if (cluster::size() == 1) {
    run_blocks(plan, kernel, first, last, reps_limit, reduction, reduction, done, progress, planned(first, last));
    return;
  }
  const auto [mine_first, mine_last] = rank_share(first, last);
  BlockReduction<Accumulator> mine;
  run_blocks(plan, kernel, mine_first, mine_last, reps_limit, mine, reduction, done, progress,
             planned(mine_first, mine_last));
  std::vector<typename BlockReduction<Accumulator>::Node> nodes = mine.take_nodes();
  if (!cluster::is_root()) {
    with_task_threads(plan.threads, [&] { sketch_stores_past_cap(nodes); });
    ByteWriter out;  // one node's bytes at a time
    cluster::gather_at_root(
        nodes.size(),
        [&](std::size_t i) {
          out.clear();
          out.i64(nodes[i].id.level);
          out.i64(nodes[i].id.index);
          save_field(out, nodes[i].acc);
          nodes[i].acc = kernel.make_accumulator();  // sent: its memory is no longer needed
          return std::span<const std::byte>(out.data());
        },
        {});
    return;
  }
  with_task_threads(plan.threads, [&] {
    reduction.add(std::move(nodes));
    cluster::gather_at_root(0, {}, [&](std::span<const std::byte> bytes) {
      ByteReader in(bytes);
      const auto level = static_cast<int>(in.i64());
      const std::int64_t index = in.i64();
      Accumulator acc = kernel.make_accumulator();
      load_field(in, acc);
      in.expect_end();
      reduction.add(NodeId{level, index}, std::move(acc));
    });
  });
}

//! Under MPI, rank 0's `total` on every rank (the others' is replaced).
template <class Accumulator>
void share_total(Accumulator& total) {
  if (cluster::size() == 1) return;
  if (cluster::is_root()) {
    ByteWriter out = ByteWriter::borrowing();  // the stores' values are sent from where they lie
    save_field(out, total);
    cluster::from_root(out.pieces());
  } else {
    from_bytes(cluster::from_root({}), total);
  }
}

//! The nodes of `reduction` as bytes, for a state file.
template <class Accumulator>
std::vector<NodeState> snapshot(const BlockReduction<Accumulator>& reduction) {
  std::vector<NodeState> nodes;
  reduction.for_each_node([&](NodeId id, const Accumulator& acc) { nodes.push_back({id.level, id.index, to_bytes(acc)}); });
  return nodes;
}

//! Opens the journal's call for `plan`: a restored call's nodes go into
//! `reduction`, and `state` takes its progress.
template <class Kernel>
void restore_call(const RunPlan& plan, const Kernel& kernel, BlockReduction<typename Kernel::Accumulator>& reduction,
                  CallState& state) {
  const CallState* before =
      RunJournal::get().begin_call({plan.seed, plan.reps, plan.max_reps, plan.block_reps, plan.target_rse});
  if (before == nullptr) return;
  for (const NodeState& node : before->nodes) {
    typename Kernel::Accumulator acc = kernel.make_accumulator();
    from_bytes(node.bytes, acc);
    reduction.add(NodeId{node.level, node.index}, std::move(acc));
  }
  state.finished = before->finished;
  state.next = before->next;
  state.decided = before->decided;
}

//! --target-rse: whether every watched mean of the blocks so far has met the
//! target. Rank 0 alone holds every block; its decision is every rank's.
template <class Kernel>
bool target_met(const RunPlan& plan, const Kernel& kernel,
                const BlockReduction<typename Kernel::Accumulator>& reduction) {
  bool met = false;
  if (cluster::is_root()) {
    typename Kernel::Accumulator preview = kernel.make_accumulator();
    with_task_threads(plan.threads, [&] { reduction.fold_into(preview); });
    met = relative_se_met(watched_means(preview), *plan.target_rse);
  }
  return cluster::root_value(met ? 1 : 0) == 1;
}

//! The end of the wave that starts at block `next` (of `blocks`): with
//! --target-rse at least to plan.reps, then waves of max(kWaveBlocks,
//! next/8) blocks; with a journal, waves short beside its checkpoints; else
//! every block at once.
inline std::int64_t wave_end(const RunPlan& plan, std::int64_t next, std::int64_t blocks, bool journaled) {
  if (plan.target_rse) {
    const std::int64_t minimum = (plan.reps + plan.block_reps - 1) / plan.block_reps;
    return std::min(blocks, std::max({minimum, next + kWaveBlocks, next + next / 8}));
  }
  if (journaled) {
    return std::min(blocks, next + std::max<std::int64_t>(kCheckpointWaveBlocks, 16 * plan.threads * cluster::size()));
  }
  return blocks;
}

//! Runs the plan and merges the total of every block into `total`. With a
//! journal (run_journal.hpp) the call starts from its restored nodes, runs
//! in waves of fixed size, and hands its nodes over at wave boundaries and
//! when interrupted.
template <class Kernel>
RunReport run_replications(const RunPlan& plan, const Kernel& kernel, typename Kernel::Accumulator& total) {
  using Accumulator = typename Kernel::Accumulator;
  const auto start = std::chrono::steady_clock::now();
  const bool open_ended = plan.target_rse.has_value();
  const std::int64_t limit = open_ended ? std::max(plan.max_reps, plan.reps) : plan.reps;
  const std::int64_t all_blocks = (limit + plan.block_reps - 1) / plan.block_reps;
  const std::int64_t first_block = std::min(plan.first_block, all_blocks);
  const std::int64_t blocks =
      plan.block_count < 0 ? all_blocks : std::min(all_blocks, first_block + plan.block_count);
  Progress progress(plan.progress, plan.label);
  BlockReduction<Accumulator> reduction;
  std::atomic<std::int64_t> done{0};
  RunJournal& journal = RunJournal::get();
  const bool journaled = journal.active();
  CallState state;  // progress, for the journal
  state.next = first_block;
  if (journaled) restore_call(plan, kernel, reduction, state);
  const auto hand_over = [&](bool force) { journal.update(state, force, [&] { return snapshot(reduction); }); };
  try {
    while (!state.finished && state.next < blocks) {
      const std::int64_t next = state.next;
      const bool reached_reps = std::min(next * plan.block_reps, limit) >= plan.reps;
      if (open_ended && !state.decided && reached_reps && target_met(plan, kernel, reduction)) break;
      const std::int64_t last = wave_end(plan, next, blocks, journaled);
      state.decided = true;
      run_wave(plan, kernel, next, last, limit, reduction, done, progress, !open_ended);
      state.next = last;
      state.decided = false;
      if (journaled) hand_over(false);
    }
  } catch (const Interrupted&) {
    if (journaled) hand_over(true);
    throw;
  }
  state.finished = true;
  if (journaled) hand_over(false);
  RunReport report;
  report.blocks = state.next - first_block;
  report.reps = std::min(state.next * plan.block_reps, limit) - std::min(first_block * plan.block_reps, limit);
  if (cluster::is_root()) with_task_threads(plan.threads, [&] { reduction.fold_into(total); });
  share_total(total);
  // The total's quantile stores in their canonical form, sorted for reads.
  const auto replicated = std::chrono::steady_clock::now();
  for_each_quantile_store(total, [](QuantileStore& store) { store.finalize(); });
  const auto stored = std::chrono::steady_clock::now();
  if (open_ended) report.target_reached = relative_se_met(watched_means(total), *plan.target_rse);
  progress.finish();
  report.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  report.store_seconds = std::chrono::duration<double>(stored - replicated).count();
  return report;
}

}  // namespace lbmc::engine
