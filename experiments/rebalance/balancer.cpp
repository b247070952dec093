// Figure 1 of Mehrotra–Ranka–Wang 1992 (prefix sums, X̄, global indices,
// packets, shifts) and the check of a finished data movement.
#include <algorithm>

#include <fmt/format.h>

#include "lbmc/exp/rebalance.hpp"

namespace lbmc::exp {

const char* to_string(Remainder remainder) { return remainder == Remainder::first ? "first" : "spread"; }

void plan_balance(std::span<const Count> loads, BalancePlan& plan, Remainder remainder) {
  const auto n = static_cast<Count>(loads.size());
  const auto size = static_cast<std::size_t>(n);
  plan.loads.assign(loads.begin(), loads.end());
  plan.prefix.resize(size + 1);
  plan.prefix[0] = 0;
  for (std::size_t k = 0; k < size; ++k) plan.prefix[k + 1] = plan.prefix[k] + loads[k];  // step 1: Y_k
  plan.layout = BalancedLayout(n, plan.prefix[size], remainder);                         // step 2: X̄
  const BalancedLayout& layout = plan.layout;
  plan.packets.clear();
  plan.first.resize(size + 1);
  plan.lshift.assign(size, 0);
  plan.rshift.assign(size, 0);
  plan.max_lshift = 0;
  plan.max_rshift = 0;
  bool any = false;
  for (Count k = 0; k < n; ++k) {
    const auto ks = static_cast<std::size_t>(k);
    plan.first[ks] = plan.packets.size();
    const Count y = plan.prefix[ks];
    const Count end = plan.prefix[ks + 1];  // G_k(X_k − 1) + 1
    if (end == y) continue;
    // Step 3: the shifts, from the owners of the first and last elements.
    const Count low = layout.owner(y);
    const Count high = layout.owner(end - 1);
    plan.lshift[ks] = k - low;
    plan.rshift[ks] = high - k;
    plan.max_lshift = any ? std::max(plan.max_lshift, plan.lshift[ks]) : plan.lshift[ks];  // step 4
    plan.max_rshift = any ? std::max(plan.max_rshift, plan.rshift[ks]) : plan.rshift[ks];
    any = true;
    // packet_i^k = ids in [max(start(i), Y_k), min(start(i+1), Y_k + X_k)),
    // empty outside low <= i <= high (and inside it for processors that
    // receive nothing, which the spread policy has when T < n).
    for (Count i = low; i <= high; ++i) {
      const Count lb = std::max(layout.start(i), y);
      const Count ub = std::min(layout.start(i + 1), end);
      if (ub > lb) plan.packets.push_back({k, i, {lb, ub - lb}});
    }
  }
  plan.first[size] = plan.packets.size();
}

BalancePlan plan_balance(std::span<const Count> loads, Remainder remainder) {
  BalancePlan plan;
  plan_balance(loads, plan, remainder);
  return plan;
}

std::string check_movement(const BalancePlan& plan, Movement& movement) {
  const Count n = plan.n();
  if (static_cast<Count>(movement.received.size()) != n) return "wrong number of processors";
  for (Count i = 0; i < n; ++i) {
    auto& got = movement.received[static_cast<std::size_t>(i)];
    // The receiver assembles its array in the order of the senders.
    std::stable_sort(got.begin(), got.end(), [](const Delivery& a, const Delivery& b) { return a.source < b.source; });
    Count next = plan.layout.start(i);
    for (const Delivery& d : got) {
      if (d.source < 0 || d.source >= n) return fmt::format("P{} received from a processor {} that does not exist", i, d.source);
      const auto s = static_cast<std::size_t>(d.source);
      if (d.elements.first < plan.prefix[s] || d.elements.first + d.elements.size > plan.prefix[s + 1]) {
        return fmt::format("P{} received ids {}..{} that P{} never held", i, d.elements.first,
                           d.elements.first + d.elements.size - 1, d.source);
      }
      if (d.elements.first != next) {
        return fmt::format("P{} expected id {} next and received {} (from P{})", i, next, d.elements.first, d.source);
      }
      next += d.elements.size;
    }
    if (next != plan.layout.start(i) + plan.layout.count(i)) {
      return fmt::format("P{} ends with {} elements instead of {}", i, next - plan.layout.start(i), plan.layout.count(i));
    }
  }
  return {};
}

}  // namespace lbmc::exp
