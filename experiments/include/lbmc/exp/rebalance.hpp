// The locality-maintaining balancer (Mehrotra–Ranka–Wang 1992, §2, Figures
// 1-4) and the BDM balancer (JaJa–Ryu), run on n simulated processors, with
// the cost of their data movement. Shared by `lbmc rebalance`, the
// reproductions and the tests.
//
// Elements are identified by their global index in locality order:
// processor k holds the ids Y_k .. Y_k + X_k − 1, Y_k = X_0 + … + X_{k−1}.
// Runs of consecutive ids (Span) stand for the elements themselves, so that
// moving a packet costs O(1) whatever its size; nothing is lost, since a
// packet of Figure 1 is always such a run.
//
// Balanced layout. With T elements and X̄ = T/n not an integer, r = T mod n
// processors receive ⌈X̄⌉ elements and the others ⌊X̄⌋. Two policies:
//  - first (the default): the first r processors get ⌈X̄⌉; processor i
//    receives the ids [i·q + min(i, r), (i+1)·q + min(i+1, r)), q = ⌊X̄⌋;
//  - spread: element g goes to ⌊g/X̄⌋ = ⌊g·n/T⌋, so processor i receives
//    [⌈iT/n⌉, ⌈(i+1)T/n⌉) and the larger shares are spread evenly (the
//    destination of the `maxshift` statistics).
// With X̄ an integer both are the paper's [iX̄, (i+1)X̄ − 1]. The first
// policy moves every target right of iX̄ by min(i, r) − i·r/n, up to n/4
// elements at i = r, which lengthens left shifts once n is comparable with
// X̄; the spread policy stays within one element of iX̄.
//
// Cost model (Mehrotra §2): a message of S words to a neighbour costs
// τ + φS, store and forward, so a message over d links costs d(τ + φS).
// Every schedule is executed stage by stage; the time of a stage is that of
// its slowest message, and a schedule's time is the sum over its stages. The
// time is kept as a·τ + b·φ (a: set-ups on the critical path, b: words on it),
// each schedule's conventions in its function's comment. The parallel prefix
// of Figure 1 (steps 1, 2, 4) is not counted, as in §4.
//
// BDM cost model (JaJa–Ryu, Block Distributed Memory; the formulas of the
// text we have were lost, so the model is stated here): a processor can
// prefetch several remote blocks, paying the latency τ once per batch and σ
// per word; a processor's memory serves one word every σ. Step 1 (every
// processor reads the n − 1 other counts) costs τ + (n − 1)σ; the data step
// (each processor reads its target range from the processors that hold it)
// costs τ + σ·max_k max(words read by k, words served by k), the latency
// only when some element moves. We take σ = φ, the same machine as the shift
// approaches. The number of block reads per processor is reported beside it.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "lbmc/analytic/rebalance_cost.hpp"
#include "lbmc/dist/laws.hpp"
#include "lbmc/engine/driver.hpp"
#include "lbmc/engine/fields.hpp"
#include "lbmc/engine/moments.hpp"
#include "lbmc/engine/proportion.hpp"
#include "lbmc/engine/quantile_store.hpp"
#include "lbmc/engine/statistics.hpp"

namespace lbmc::exp {

using Count = std::int64_t;

//! Where the r = T mod n larger shares go when X̄ is not an integer.
enum class Remainder { first, spread };
//! "first", "spread".
const char* to_string(Remainder remainder);

//! Who ends with which elements: ⌊X̄⌋ or ⌈X̄⌉ each, the r = T mod n larger
//! shares on the first processors or spread evenly.
struct BalancedLayout {
  Count n = 1;
  Count total = 0;
  Count base = 0;   // ⌊X̄⌋
  Count extra = 0;  // r = T mod n
  Remainder remainder = Remainder::first;

  BalancedLayout() = default;
  BalancedLayout(Count processors, Count elements, Remainder policy = Remainder::first)
      : n(processors), total(elements), base(elements / processors), extra(elements % processors), remainder(policy) {}
  //! Global index of processor i's first element after balancing (0 <= i <= n).
  Count start(Count i) const {
    if (remainder == Remainder::spread) return ceil_div(Wide{i} * total, n);  // ⌈iT/n⌉
    return i * base + (i < extra ? i : extra);
  }
  //! Elements processor i holds after balancing.
  Count count(Count i) const { return start(i + 1) - start(i); }
  //! The processor holding global element g after balancing (0 <= g < T).
  Count owner(Count g) const {
    if (remainder == Remainder::spread) return static_cast<Count>(Wide{g} * n / total);  // ⌊g/X̄⌋
    const Count split = extra * (base + 1);
    return g < split ? g / (base + 1) : extra + (g - split) / base;
  }

 private:
  __extension__ using Wide = __int128;  // i·T may pass 2^63
  static Count ceil_div(Wide a, Count b) { return static_cast<Count>((a + b - 1) / b); }
};

//! A run of consecutive global element ids [first, first + size).
struct Span {
  Count first = 0;
  Count size = 0;
};

//! packet_i^k of Figure 1: the elements processor `source` sends to `dest`.
struct Packet {
  Count source = 0;
  Count dest = 0;
  Span elements;
};

//! Figure 1 for one load vector: prefix sums, X̄, the non-empty packets
//! packet_i^k (own packet_k^k included), Lshift_k, Rshift_k and their maxima.
struct BalancePlan {
  std::vector<Count> loads;   // X_k
  std::vector<Count> prefix;  // Y_0 .. Y_n (Y_n = T)
  BalancedLayout layout;
  std::vector<Packet> packets;      // by source, then destination
  std::vector<std::size_t> first;   // packets of source k: [first[k], first[k+1])
  std::vector<Count> lshift;        // Lshift_k (0 when X_k = 0)
  std::vector<Count> rshift;        // Rshift_k (0 when X_k = 0)
  Count max_lshift = 0;
  Count max_rshift = 0;

  Count n() const { return static_cast<Count>(loads.size()); }
  double mean() const { return static_cast<double>(layout.total) / static_cast<double>(n()); }
};

//! Fills `plan` for `loads` (each >= 0, at least one processor), reusing its
//! storage: Y_k, X̄, G_k(i) = Y_k + i, lb_i^k = max(start(i), Y_k),
//! ub_i^k = min(start(i+1), Y_k + X_k) − 1, Rshift_k = owner(G_k(X_k − 1)) − k
//! and Lshift_k = k − owner(G_k(0)) (Figure 1, steps 1-4). Max_L_Shift and
//! Max_R_Shift run over the processors that hold elements (0 when none).
void plan_balance(std::span<const Count> loads, BalancePlan& plan, Remainder remainder = Remainder::first);
BalancePlan plan_balance(std::span<const Count> loads, Remainder remainder = Remainder::first);

//! The data-movement schedules: Figures 2, 3, 4 and the BDM balancer.
enum class Approach { pipeline = 0, direct = 1, per_packet = 2, bdm = 3 };
inline constexpr int kApproaches = 4;
//! "1", "2", "3", "bdm".
const char* to_string(Approach approach);

//! What a processor received: a span and the processor it came from.
struct Delivery {
  Count source = 0;
  Span elements;
};

//! One executed schedule: its cost, per-processor traffic and deliveries.
struct Movement {
  analytic::CostCoefficients cost;  // the critical path, a·τ + b·φ
  Count stages = 0;
  std::vector<Count> messages;  // per processor: messages sent carrying data (BDM: block reads)
  std::vector<Count> words;     // per processor: words sent, forwarding included (BDM: words read)
  std::vector<std::vector<Delivery>> received;  // per processor, in arrival order (own packet included)
};

//! Executes schedules on plans, reusing its storage between calls. τ and φ
//! decide which message is the slowest of a stage (Approach 2 compares
//! d(τ + φS) across messages); every other cost is linear in them.
class DataMover {
 public:
  explicit DataMover(double tau = 1.0, double phi = 1.0) : tau_(tau), phi_(phi) {}

  //! Runs `approach` on `plan`; the result is valid until the next call
  //! (check_movement may sort it in place).
  Movement& run(Approach approach, const BalancePlan& plan);

 private:
  void reset(const BalancePlan& plan);
  void deliver_own(const BalancePlan& plan);
  void pipeline(const BalancePlan& plan, int dir);
  void direct(const BalancePlan& plan);
  void per_packet(const BalancePlan& plan, int dir);
  void bdm(const BalancePlan& plan);

  double tau_;
  double phi_;
  Movement movement_;
  std::vector<std::vector<Packet>> hold_, next_;
  std::vector<Count> served_;
  std::vector<Count> suffix_;
};

//! Checks a movement: every processor i ends with exactly the ids
//! [start(i), start(i) + count(i)) when it assembles what it received in the
//! order of the source processors, and every span came from the processor
//! named as its source. Together: every element arrives exactly once,
//! counts are ⌊X̄⌋ or ⌈X̄⌉ (the first r with ⌈X̄⌉), and the global (locality)
//! order is kept. Returns an empty string when all hold, else what failed.
//! Sorts each processor's deliveries by source.
std::string check_movement(const BalancePlan& plan, Movement& movement);

//! Per-replication statistics of one schedule.
struct ApproachStats {
  engine::Moments time, tau_coef, phi_coef;
  engine::Moments messages_max, words_max, messages_mean, words_mean;
  Count violations = 0;

  template <class Self>
  static auto fields(Self& s) {
    return std::tie(s.time, s.tau_coef, s.phi_coef, s.messages_max, s.words_max, s.messages_mean, s.words_mean,
                    s.violations);
  }
  static constexpr auto statistics() {
    using namespace engine::stat;
    using S = ApproachStats;
    return std::array{
        mean("time.mean", &S::time, "E of the modelled time a*tau + b*phi").watched(),
        mean("tau_coef.mean", &S::tau_coef, "E a, the message set-ups on the critical path").watched(),
        mean("phi_coef.mean", &S::phi_coef, "E b, the words on the critical path").watched(),
        mean("messages.max.mean", &S::messages_max, "E of the most messages a processor sends").watched(),
        mean("words.max.mean", &S::words_max, "E of the most words a processor sends").watched(),
        mean("messages.per_proc.mean", &S::messages_mean, "E of the messages per processor").watched(),
        mean("words.per_proc.mean", &S::words_mean, "E of the words per processor").watched(),
        derived<S>("violations", "the fraction of replications whose delivery check failed (must be 0)"),
    };
  }
};

struct RebalanceSample {
  engine::Moments d, d_sq;     // D = max_k |V_k|/X̄ and D²
  engine::QuantileStore d_values;
  engine::Moments max_lshift, max_rshift;
  engine::Moments packets_max;        // most packets any processor sends (own excluded)
  engine::Moments packets_side_max;   // most packets any processor sends to one side
  engine::Proportion one_per_side;    // at most one packet each side, every processor
  engine::Moments packet_max_rel;     // largest sent packet / X̄ (reps with movement)
  engine::Moments packet_mean_rel;    // mean sent packet / X̄ (reps with movement)
  ApproachStats approach[kApproaches];
  std::string first_violation;

  template <class Self>
  static auto fields(Self& s) {
    return std::tie(s.d, s.d_sq, s.d_values, s.max_lshift, s.max_rshift, s.packets_max, s.packets_side_max,
                    s.one_per_side, s.packet_max_rel, s.packet_mean_rel, s.approach, s.first_violation);
  }
  //! The rows of approach fig1 (each schedule's are ApproachStats').
  static constexpr auto statistics() {
    using namespace engine::stat;
    using S = RebalanceSample;
    return std::array{
        mean("D.mean", &S::d, "E D, D = max_k |V_k|/mean(X) (replications with mean(X) > 0)").watched().when_observed(),
        mean("D.second_moment", &S::d_sq, "E D^2").when_observed(),
        quantiles("D", &S::d_values, "the alpha-quantile of D, one row per --alpha level").when_observed(),
        mean("Max_L_Shift.mean", &S::max_lshift, "E of the largest left shift of Figure 1").watched(),
        mean("Max_R_Shift.mean", &S::max_rshift, "E of the largest right shift of Figure 1").watched(),
        mean("packets.max.mean", &S::packets_max, "E of the most packets a processor sends (own excluded)").watched(),
        mean("packets.max_per_side.mean", &S::packets_side_max, "E of the most packets a processor sends one side")
            .watched(),
        proportion("packets.p_le1_per_side", &S::one_per_side,
                   "P(every processor sends at most one packet each side)"),
        mean("packet_size.max_rel.mean", &S::packet_max_rel, "E of the largest packet over mean(X)").watched(),
        mean("packet_size.mean_rel.mean", &S::packet_mean_rel, "E of the mean packet over mean(X)").watched(),
    };
  }
};

struct RebalanceSpec {
  dist::LoadLaw law;
  Count n = 2;
  double tau = 1.0;
  double phi = 1.0;
  std::vector<Approach> approaches;
  Remainder remainder = Remainder::first;
};

//! Simulates the balancer and the chosen schedules on n iid integer loads
//! of `law`. Stops on the relative se of every reported mean time when
//! plan.target_rse is set.
engine::Simulated<RebalanceSample> simulate_rebalance(const RebalanceSpec& spec, engine::RunPlan plan);

}  // namespace lbmc::exp
