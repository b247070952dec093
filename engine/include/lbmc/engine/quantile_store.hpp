// Bounded, mergeable storage of one variable's replications for quantiles.
//
// Up to `cap` values are kept exactly; quantiles are then empirical order
// statistics X_(⌈αR⌉) with the distribution-free interval [X_(l), X_(u)],
// l and u the binomial(R, α) quantiles at (1∓level)/2 (DESIGN §5). An
// interval end whose order statistic would lie beyond the sample is open
// (∓inf).
//
// Past the cap the store is a sketch whose content is a fixed function of
// the multiset of values, never of the order in which blocks were merged, so
// any split of the blocks over threads, ranks or files gives the same bytes:
//  - The values are grouped in pages. For integer values (every value an
//    integer below 2^53 in magnitude) a page is 2^20 consecutive integers; as
//    soon as one value is not an integer, pages are binades: the doubles of
//    one sign and exponent, split into 2^20 buckets by the top 20 bits of the
//    significand (relative width 2^-20 ≈ 9.5e-7 of the binade).
//  - A page holds its values exactly until it has more than `exact_per_page`
//    of them (4096), then 32-bit counts per bucket (4 MiB), widened to 64-bit
//    counts (8 MiB) before any could wrap.
// Integer data therefore stays exact at any count, and sparse regions (the
// tails, where the extreme quantiles lie) keep their exact values; elsewhere
// a quantile is read by linear interpolation inside its bucket (resolution(x)
// gives the bucket's width). Memory: at most 8·cap bytes while exact; past
// it 32 KiB per sparse page and 4 (or 8) MiB per dense page; a variable
// spread over b binades (or b·2^20 integers) holds at most 8·b MiB.
//
// The store is an accumulator (add, append, merge, save, load); its
// quantiles are read from the QuantileResult that finalize() returns (as
// ALPSCore alea's accumulators give results), once every value is in:
// finalize() brings the store to its canonical form (a sketch past the cap,
// every block binned) and sorts what the reads look up. The driver finalizes
// a run's total (driver.hpp), so the reads of a finished run need no
// mutation; result() gives the reads of a finalized store and refuses one
// that changed since.
//
// Merging exact stores shares their blocks of values instead of copying
// them: blocks are written once by the kernel that fills them and gathered
// into one array only by finalize(), then sorted on the OpenMP threads
// (radix_sort.hpp), 8 more bytes a value while the sort runs; every read
// after it is a look-up (saving the store as bytes, for a checkpoint, reads
// the blocks where they are).
//
// append() carves its blocks from chunks of 2 MiB, one chunk per thread and
// lane at a time, each on a huge-page boundary and advised for huge pages
// (scratch_vector.hpp): the first writes of 10^7 direct maxima in blocks
// of 4096 then take one page fault per 2 MiB instead of one per 4 KiB, and
// on a virtual machine the small faults cost twice the draws themselves. A
// chunk lives while any block in it does; a thread keeps its last chunk of
// each lane. Blocks are carved back to back, so the blocks one thread
// appends in turn to one lane (a GPU run's one-replication blocks, folded
// in block order) lie end to end, and a store that appends or merges a
// block following its last one in the same chunk extends that one: merging
// a thread's run of blocks up the reduction's tree stays one entry a chunk
// instead of one a block. A kernel with two stores (maxshift's W' and D')
// appends them in two lanes: in one, their blocks would alternate and none
// would follow another of its store.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <vector>

#include "lbmc/engine/scratch_vector.hpp"

namespace lbmc::engine {

class ByteWriter;
class ByteReader;

//! An empirical quantile with its distribution-free interval. An end the
//! sample cannot bound (the interval's order statistic would lie beyond the
//! sample's extremes) is ∓inf.
struct QuantileEstimate {
  double value = 0.0;
  double low = 0.0;
  double high = 0.0;
  //! (high − low)/(2·z_{(1+level)/2}): the standard error implied by the
  //! interval, used for z-scores; +inf when an end is open.
  double se = 0.0;
};

//! The distribution-free interval [X_(l), X_(u)] of a quantile.
struct QuantileInterval {
  double low = 0.0;
  double high = 0.0;
};

class QuantileStore;

//! The quantiles of a finalized store (QuantileStore::finalize): read-only,
//! valid while the store lives unchanged.
class QuantileResult {
 public:
  std::int64_t count() const noexcept;
  bool exact() const noexcept;
  //! 0 where the value x is known exactly (exact store, integer pages, pages
  //! holding their values), else the width of x's bucket.
  double resolution(double x) const;
  //! The α-quantile, inf{x : F_R(x) ≥ α}, with its interval at `level`.
  QuantileEstimate quantile(double alpha, double level) const;
  //! The order-statistic interval of the α-quantile at `level` alone.
  QuantileInterval interval(double alpha, double level) const;
  //! The empirical P(X <= x) (a bucket counts when its upper end is <= x)
  //! and P(X == x) (NaN where x lies in a counted float bucket).
  double fraction_at_most(double x) const;
  double fraction_equal(double x) const;
  //! Sorted values (exact stores only; empty for a sketch).
  std::span<const double> sorted_values() const;

 private:
  friend class QuantileStore;
  explicit QuantileResult(const QuantileStore& store) : store_(&store) {}
  // The value of the r-th smallest observation, 1-based.
  double order_statistic(std::int64_t rank) const;
  const QuantileStore* store_;
};

class QuantileStore {
 public:
  static constexpr std::size_t kDefaultCap = std::size_t{1} << 24;
  static constexpr std::size_t kExactPerPage = 4096;
  static constexpr unsigned kBucketBits = 20;
  //! Values binned by one task when many become a sketch at once.
  static constexpr std::size_t kParallelBinValues = std::size_t{1} << 21;

  QuantileStore() = default;
  //! `exact_per_page`: values a sketch page keeps exactly before it counts
  //! buckets; `count32_limit`: the page count past which bucket counts are
  //! 64-bit (the defaults keep 32-bit counts from wrapping; tests use small
  //! values).
  explicit QuantileStore(std::size_t cap, std::size_t exact_per_page = kExactPerPage,
                         std::uint64_t count32_limit = 0xffffffffULL)
      : cap_(cap), exact_per_page_(exact_per_page), count32_limit_(count32_limit) {}

  //! Adds one value.
  void add(double x);
  //! Room for `count` values added one by one (at most the cap).
  void reserve(std::size_t count);
  //! Room for `count` more values, to be written through the span returned
  //! (a block of values of its own, not initialised: the caller writes
  //! every value before the store is read, saved or merged). A kernel that
  //! appends to several stores a block gives each its own `lane` (below
  //! kAppendLanes), so that each store's blocks lie end to end (design note).
  std::span<double> append(std::size_t count, unsigned lane = 0);
  //! Chunks a thread carves from at a time, one a lane.
  static constexpr unsigned kAppendLanes = 2;
  //! Adds every value of `other`.
  void merge(const QuantileStore& other);

  std::int64_t count() const noexcept { return count_; }
  //! Values kept exactly at most.
  std::size_t cap() const noexcept { return cap_; }
  bool exact() const noexcept { return !sketch_ && static_cast<std::size_t>(count_) <= cap_; }
  //! Bins every value into the sketch now, below the cap too: for a part of
  //! a total that will be past the cap, whose sketch, a function of the
  //! multiset of values, is then the same (and a few MiB travel instead of
  //! 8 bytes a value). Binning runs in OpenMP tasks as a merge's does.
  void to_sketch_early();
  //! Brings the store to its canonical form and sorts what reads look up;
  //! returns its reads. Adding or merging afterwards is allowed (the store
  //! is finalized again before the next read).
  QuantileResult finalize();
  //! The reads of a store finalized since its last change; throws
  //! std::logic_error for one that was not.
  QuantileResult result() const;

  //! The store's content as bytes (serial.hpp): its limits, then the values
  //! while exact, else every page of the sketch (a dense page by its nonzero
  //! buckets). A loaded store gives the same quantiles, bit for bit, and
  //! merges as the saved one would.
  void save(ByteWriter& out) const;
  void load(ByteReader& in);

 private:
  // A page of the sketch: exact values until it has more than
  // exact_per_page_, then bucket counts (32-bit, or 64-bit past the limit).
  struct Page {
    std::int64_t count = 0;
    std::vector<double> values;
    std::vector<std::uint32_t> counts32;
    std::vector<std::uint64_t> counts64;
    bool dense() const noexcept { return !counts32.empty() || !counts64.empty(); }
  };
  struct Sketch {
    bool integer_keys = true;
    std::map<std::int64_t, Page> pages;  // by page key, ascending in value
  };

  friend class QuantileResult;
  // Brings the store to its canonical form: a sketch past the cap, with
  // every appended block binned.
  void settle();
  // True when settle() would change the store.
  bool unsettled() const noexcept;
  // The bytes of a settled store.
  void save_settled(ByteWriter& out) const;
  void gather();
  // The last block, if add() may extend it, else a new growable one.
  ScratchVector<double>& grow_block();
  void to_sketch();
  // The exact values not in the sketch yet, in order.
  std::vector<std::span<const double>> unbinned() const;
  // Bins the spans into the sketch: past kParallelBinValues values in all,
  // groups of about that many are binned by OpenMP tasks into sketches of
  // their own (run by the idle threads of an enclosing parallel region, or by
  // this one), merged in group order. The sketch is a function of the
  // multiset of values, and group order keeps the exact values of sparse
  // pages in span order, so the result is that of binning one by one.
  void sketch_add_all(const std::vector<std::span<const double>>& spans);
  void sketch_add(std::span<const double> xs);
  void sketch_merge(const Sketch& other);
  void add_to_page(std::int64_t key, Page& page, std::span<const double> xs);
  void add_counts(Page& page, std::size_t bucket, std::uint64_t n);
  template <class BucketOf>
  static void count_buckets(Page& page, std::span<const double> xs, BucketOf bucket_of);
  // 64-bit counts before `more` values could wrap a 32-bit count.
  void widen_for(Page& page, std::uint64_t more) const;
  void make_dense(Page& page);
  void to_float_keys();

  std::size_t cap_ = kDefaultCap;
  std::size_t exact_per_page_ = kExactPerPage;
  std::uint64_t count32_limit_ = 0xffffffffULL;
  std::int64_t count_ = 0;
  // Exact values, in blocks shared between stores (never changed once
  // merged into another store). A block's values lie in `storage`: a chunk
  // that append() carves into many blocks, or a vector of the block's own
  // (`growable`: add() extends it while no other store shares it).
  struct Block {
    std::shared_ptr<ScratchVector<double>> storage;
    std::span<double> values;
    bool growable = false;
    // `next`'s values follow these in the same chunk (neither growable).
    bool precedes(const Block& next) const noexcept;
  };
  std::vector<Block> blocks_;
  // Adds a block after the last, into it where it follows it in its chunk.
  void push_block(Block block);
  // Exact values gathered into one array and sorted (radix_sort.hpp, on the
  // OpenMP threads) by finalize(): every read is a look-up.
  ScratchVector<double> values_;
  bool gathered_ = true;
  bool sorted_ = true;
  std::unique_ptr<Sketch> sketch_;
  // finalize() ran and nothing changed since: reads may look up.
  bool finalized_ = false;

 public:
  QuantileStore(const QuantileStore& other);
  QuantileStore& operator=(const QuantileStore& other);
  QuantileStore(QuantileStore&&) noexcept = default;
  QuantileStore& operator=(QuantileStore&&) noexcept = default;
  ~QuantileStore() = default;
};

}  // namespace lbmc::engine
