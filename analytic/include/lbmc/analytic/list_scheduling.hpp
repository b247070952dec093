// Exact values of list scheduling (self-scheduling from a central queue with
// no dispatch cost; Graham 1966) for iid exponential task times
// (DESIGN §6, "Strategies compared").
#pragma once

#include <cstdint>

namespace lbmc::analytic {

//! E C of list scheduling (any task order, no dispatch cost) of N iid
//! exponential tasks of mean m on P processors: while tasks wait, all P
//! processors are busy and, by memorylessness, one finishes after an
//! Exp(mean m/P) time, so the queue empties after N − P such gaps; the P
//! tasks then running end at the maximum of P iid exponentials, m·H_P. Hence
//! E C = m·((N − P)/P + H_P) for N ≥ P and m·H_N for N < P. Throws
//! engine::InputError unless N, P >= 1.
double list_exponential_mean_makespan(std::int64_t tasks, std::int64_t procs, double mean);

}  // namespace lbmc::analytic
