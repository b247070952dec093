// The data-movement schedules of Mehrotra–Ranka–Wang 1992 (Figures 2, 3, 4)
// and the BDM balancer of JaJa–Ryu, executed stage by stage on the packets
// of Figure 1, with their cost under the models of rebalance.hpp.
//
// `dir` is −1 for the left shift and +1 for the right shift; a packet goes
// in direction dir when (dest − source)·dir > 0, over |dest − source| links.
#include <algorithm>
#include <cstdlib>

#include "lbmc/exp/rebalance.hpp"

namespace lbmc::exp {

const char* to_string(Approach approach) {
  switch (approach) {
    case Approach::pipeline: return "1";
    case Approach::direct: return "2";
    case Approach::per_packet: return "3";
    case Approach::bdm: return "bdm";
  }
  return "?";
}

namespace {

Count distance(const Packet& p) { return std::abs(p.dest - p.source); }
bool goes(const Packet& p, int dir) { return (p.dest - p.source) * dir > 0; }
std::size_t at(Count k) { return static_cast<std::size_t>(k); }

}  // namespace

Movement& DataMover::run(Approach approach, const BalancePlan& plan) {
  reset(plan);
  switch (approach) {
    case Approach::pipeline:
      deliver_own(plan);
      pipeline(plan, -1);
      pipeline(plan, +1);
      break;
    case Approach::direct:
      deliver_own(plan);
      direct(plan);
      break;
    case Approach::per_packet:
      deliver_own(plan);
      per_packet(plan, -1);
      per_packet(plan, +1);
      break;
    case Approach::bdm: bdm(plan); break;
  }
  return movement_;
}

void DataMover::reset(const BalancePlan& plan) {
  const auto n = at(plan.n());
  movement_.cost = {};
  movement_.stages = 0;
  movement_.messages.assign(n, 0);
  movement_.words.assign(n, 0);
  movement_.received.resize(n);
  for (auto& r : movement_.received) r.clear();
}

void DataMover::deliver_own(const BalancePlan& plan) {
  for (const Packet& p : plan.packets) {
    if (p.dest == p.source) movement_.received[at(p.dest)].push_back({p.source, p.elements});
  }
}

// Figure 2 (Approach 1): P_k concatenates the packets it sends in direction
// dir (L_packets_k / R_packets_k); for Max_L_Shift (Max_R_Shift) stages every
// processor sends what it holds to its neighbour, which keeps the packets
// addressed to it and holds the rest for the next stage. A stage costs
// τ + φ·(largest message of the stage): a = stages, b = Σ_stages max words.
void DataMover::pipeline(const BalancePlan& plan, int dir) {
  const Count n = plan.n();
  hold_.resize(at(n));
  next_.resize(at(n));
  for (auto& h : hold_) h.clear();
  for (const Packet& p : plan.packets) {
    if (goes(p, dir)) hold_[at(p.source)].push_back(p);
  }
  const Count stages = dir < 0 ? plan.max_lshift : plan.max_rshift;
  for (Count s = 0; s < stages; ++s) {
    Count largest = 0;
    for (auto& h : next_) h.clear();
    for (Count k = 0; k < n; ++k) {
      const auto& message = hold_[at(k)];
      if (message.empty()) continue;
      Count size = 0;
      for (const Packet& p : message) size += p.elements.size;
      largest = std::max(largest, size);
      ++movement_.messages[at(k)];
      movement_.words[at(k)] += size;
      const Count to = k + dir;  // never outside: a packet stops at its destination
      for (const Packet& p : message) {
        if (p.dest == to) {
          movement_.received[at(to)].push_back({p.source, p.elements});
        } else {
          next_[at(to)].push_back(p);
        }
      }
    }
    std::swap(hold_, next_);
    movement_.cost.tau += 1.0;
    movement_.cost.phi += static_cast<double>(largest);
    ++movement_.stages;
  }
}

// Figure 3 (Approach 2): every processor sends each packet straight to its
// destination, over |dest − k| links store and forward (d(τ + φS)). The
// sends are taken in rounds, the j-th round sending every processor's j-th
// packet (nearest destinations first, left before right); a round costs its
// slowest message. Link contention is not modelled (the paper: "difficult
// to analyze"), nor the Parallel_Sum of the send vectors (step 3).
void DataMover::direct(const BalancePlan& plan) {
  const Count n = plan.n();
  hold_.resize(at(n));
  for (Count k = 0; k < n; ++k) {
    auto& out = hold_[at(k)];
    out.clear();
    for (std::size_t j = plan.first[at(k)]; j < plan.first[at(k) + 1]; ++j) {
      if (plan.packets[j].dest != k) out.push_back(plan.packets[j]);
    }
    std::stable_sort(out.begin(), out.end(), [](const Packet& a, const Packet& b) {
      return distance(a) != distance(b) ? distance(a) < distance(b) : a.dest < b.dest;
    });
  }
  for (std::size_t round = 0;; ++round) {
    bool any = false;
    double slowest = -1.0;
    analytic::CostCoefficients critical;
    for (Count k = 0; k < n; ++k) {
      const auto& out = hold_[at(k)];
      if (round >= out.size()) continue;
      any = true;
      const Packet& p = out[round];
      const auto d = static_cast<double>(distance(p));
      const analytic::CostCoefficients c{d, d * static_cast<double>(p.elements.size)};
      if (c.time(tau_, phi_) > slowest) {
        slowest = c.time(tau_, phi_);
        critical = c;
      }
      ++movement_.messages[at(k)];
      movement_.words[at(k)] += p.elements.size;
      movement_.received[at(p.dest)].push_back({p.source, p.elements});
    }
    if (!any) break;
    movement_.cost.tau += critical.tau;
    movement_.cost.phi += critical.phi;
    ++movement_.stages;
  }
}

// Figure 4 (Approach 3): P_k sends its packets in direction dir one at a
// time, the farthest first (i = maxl_k downto minl_k); the j-th iteration
// shifts every processor's j-th packet over Max_L_Shift (Max_R_Shift) links
// store and forward, each processor forwarding what is not addressed to it
// and sending a dummy when it has nothing. A hop costs τ + φ·(largest packet
// still moving); the iterations are as many as the most packets any
// processor sends that way.
void DataMover::per_packet(const BalancePlan& plan, int dir) {
  const Count n = plan.n();
  const Count shift = dir < 0 ? plan.max_lshift : plan.max_rshift;
  hold_.resize(at(n));
  std::size_t iterations = 0;
  for (Count k = 0; k < n; ++k) {
    auto& out = hold_[at(k)];
    out.clear();
    for (std::size_t j = plan.first[at(k)]; j < plan.first[at(k) + 1]; ++j) {
      if (goes(plan.packets[j], dir)) out.push_back(plan.packets[j]);
    }
    // Packets are stored by destination: reverse the right-going ones so
    // the farthest comes first either way.
    if (dir > 0) std::reverse(out.begin(), out.end());
    iterations = std::max(iterations, out.size());
  }
  for (std::size_t j = 0; j < iterations; ++j) {
    // suffix_[h] = largest packet of this iteration travelling >= h links.
    suffix_.assign(at(shift) + 2, 0);
    for (Count k = 0; k < n; ++k) {
      const auto& out = hold_[at(k)];
      if (j >= out.size()) continue;
      const Packet& p = out[j];
      const Count d = distance(p);
      suffix_[at(d)] = std::max(suffix_[at(d)], p.elements.size);
      // The packet crosses d links: sent by k, then forwarded d − 1 times.
      for (Count h = 0; h < d; ++h) {
        const Count holder = k + h * dir;
        ++movement_.messages[at(holder)];
        movement_.words[at(holder)] += p.elements.size;
      }
      movement_.received[at(p.dest)].push_back({p.source, p.elements});
    }
    for (Count h = shift; h >= 1; --h) suffix_[at(h)] = std::max(suffix_[at(h)], suffix_[at(h) + 1]);
    for (Count h = 1; h <= shift; ++h) {
      movement_.cost.tau += 1.0;
      movement_.cost.phi += static_cast<double>(suffix_[at(h)]);
    }
    movement_.stages += shift;
  }
}

// The BDM balancer (JaJa–Ryu): every processor reads all counts (step 1),
// computes the prefix sums and its target range (step 2), and reads that
// range from the processors holding it, one block per source (steps 3-4);
// the prefix sums each processor computes are those of the plan.
// Cost as stated in rebalance.hpp: τ + (n − 1)σ for the counts, then
// τ + σ·max_k max(read_k, served_k) when anything moves; σ = φ.
void DataMover::bdm(const BalancePlan& plan) {
  const Count n = plan.n();
  served_.assign(at(n), 0);
  Count moved = 0;
  for (Count i = 0; i < n; ++i) {
    const Count low = plan.layout.start(i);
    const Count high = low + plan.layout.count(i);
    if (high == low) continue;
    // First source holding id `low`: the last k with Y_k <= low and X_k > 0.
    auto s = static_cast<Count>(std::upper_bound(plan.prefix.begin(), plan.prefix.end(), low) - plan.prefix.begin()) - 1;
    for (; s < n && plan.prefix[at(s)] < high; ++s) {
      const Count a = std::max(low, plan.prefix[at(s)]);
      const Count b = std::min(high, plan.prefix[at(s) + 1]);
      if (b <= a) continue;
      movement_.received[at(i)].push_back({s, {a, b - a}});
      if (s == i) continue;
      ++movement_.messages[at(i)];
      movement_.words[at(i)] += b - a;
      served_[at(s)] += b - a;
      moved += b - a;
    }
  }
  Count busiest = 0;
  for (Count k = 0; k < n; ++k) busiest = std::max({busiest, movement_.words[at(k)], served_[at(k)]});
  movement_.cost.tau = 1.0 + (moved > 0 ? 1.0 : 0.0);
  movement_.cost.phi = static_cast<double>(n - 1 + busiest);
  movement_.stages = moved > 0 ? 2 : 1;
}

}  // namespace lbmc::exp
