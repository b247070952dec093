// The rebalance kernel: per replication, n integer loads, the plan of
// Figure 1, every chosen schedule executed and checked, and the statistics
// of RebalanceSample.
#include <algorithm>
#include <cmath>
#include <vector>

#include "lbmc/dist/samplers.hpp"
#include "lbmc/exp/maxshift.hpp"
#include "lbmc/exp/rebalance.hpp"

namespace lbmc::exp {

namespace {

// Packet counts and sizes of Figure 1 (own packets excluded).
void add_packet_stats(const BalancePlan& plan, RebalanceSample& acc) {
  Count most = 0;
  Count most_side = 0;
  Count largest = 0;
  Count sent = 0;
  Count words = 0;
  for (Count k = 0; k < plan.n(); ++k) {
    Count left = 0;
    Count right = 0;
    for (std::size_t j = plan.first[static_cast<std::size_t>(k)]; j < plan.first[static_cast<std::size_t>(k) + 1]; ++j) {
      const Packet& p = plan.packets[j];
      if (p.dest == k) continue;
      ++(p.dest < k ? left : right);
      largest = std::max(largest, p.elements.size);
      words += p.elements.size;
    }
    most = std::max(most, left + right);
    most_side = std::max({most_side, left, right});
    sent += left + right;
  }
  acc.packets_max.add(static_cast<double>(most));
  acc.packets_side_max.add(static_cast<double>(most_side));
  acc.one_per_side.add(most_side <= 1);
  if (sent > 0) {
    const double mean = plan.mean();
    acc.packet_max_rel.add(static_cast<double>(largest) / mean);
    acc.packet_mean_rel.add(static_cast<double>(words) / static_cast<double>(sent) / mean);
  }
}

void add_movement(const Movement& m, double tau, double phi, ApproachStats& stats) {
  stats.time.add(m.cost.time(tau, phi));
  stats.tau_coef.add(m.cost.tau);
  stats.phi_coef.add(m.cost.phi);
  const auto n = static_cast<double>(m.messages.size());
  Count messages = 0;
  Count words = 0;
  for (const Count c : m.messages) messages += c;
  for (const Count c : m.words) words += c;
  stats.messages_max.add(static_cast<double>(*std::max_element(m.messages.begin(), m.messages.end())));
  stats.words_max.add(static_cast<double>(*std::max_element(m.words.begin(), m.words.end())));
  stats.messages_mean.add(static_cast<double>(messages) / n);
  stats.words_mean.add(static_cast<double>(words) / n);
}

template <class Sampler>
struct RebalanceKernel {
  using Accumulator = RebalanceSample;

  Sampler sampler;
  const RebalanceSpec* spec;

  Accumulator make_accumulator() const { return {}; }

  void run(engine::Generator& gen, std::int64_t count, Accumulator& acc) const {
    const Count n = spec->n;
    std::vector<Count> loads(static_cast<std::size_t>(n));
    std::vector<Count> prefix(static_cast<std::size_t>(n));
    BalancePlan plan;
    DataMover mover(spec->tau, spec->phi);
    acc.d_values.reserve(static_cast<std::size_t>(count));
    for (std::int64_t r = 0; r < count; ++r) {
      Count total = 0;
      for (std::size_t k = 0; k < loads.size(); ++k) {
        loads[k] = static_cast<Count>(sampler(gen));
        prefix[k] = total += loads[k];
      }
      plan_balance(loads, plan, spec->remainder);
      if (plan.layout.total > 0) {
        // D = max|V_k|/X̄ = max|u_k|/T on the exact integers u = n·V.
        const IntegerBridge u = integer_bridge(prefix);
        const double d = static_cast<double>(u.max_abs()) / static_cast<double>(u.total);
        acc.d.add(d);
        acc.d_sq.add(d * d);
        acc.d_values.add(d);
      }
      acc.max_lshift.add(static_cast<double>(plan.max_lshift));
      acc.max_rshift.add(static_cast<double>(plan.max_rshift));
      add_packet_stats(plan, acc);
      for (const Approach a : spec->approaches) {
        Movement& checked = mover.run(a, plan);
        ApproachStats& stats = acc.approach[static_cast<int>(a)];
        add_movement(checked, spec->tau, spec->phi, stats);
        if (std::string why = check_movement(plan, checked); !why.empty()) {
          ++stats.violations;
          if (acc.first_violation.empty()) acc.first_violation = std::string(to_string(a)) + ": " + why;
        }
      }
    }
  }
};

}  // namespace

engine::Simulated<RebalanceSample> simulate_rebalance(const RebalanceSpec& spec, engine::RunPlan plan) {
  plan.block_reps = engine::block_size_for(8 * spec.n);
  engine::Simulated<RebalanceSample> result;
  dist::visit_sampler(spec.law, [&](const auto& sampler) {
    using Kernel = RebalanceKernel<std::decay_t<decltype(sampler)>>;
    const Kernel kernel{sampler, &spec};
    result.run = engine::run_replications(plan, kernel, result.sample);
  });
  return result;
}

}  // namespace lbmc::exp
