// The asymptotic mean makespan of chunked self-scheduling (DESIGN §6,
// "Strategies compared"): Kruskal & Weiss (1985), "Allocating independent
// subtasks on parallel processors", IEEE Trans. Software Eng. SE-11(10),
// 1001–1016.
//
// Their model: N iid task times of mean μ and standard deviation σ
// (increasing failure rate in their proofs), handed out in chunks of K tasks
// to whichever of P processors is free, each chunk costing the processor
// that takes it an overhead h (independent of K). For N/(K·P) large (many
// chunks a processor) and K large against ln P, the expected makespan is
//   E C ≈ N·μ/P + h·N/(K·P) + σ·√(2·K·ln P):
// the work shared evenly, the overhead shared evenly, and the spread of the
// last chunks, a maximum over P processors of nearly normal chunk sums of
// sd σ√K (the first-order extreme of P normals, √(2 ln P)). It is a limit,
// not an exact value: at moderate P the true E max of P normals lies below
// √(2 ln P), and the term misses the lower-order corrections.
#pragma once

#include <cstdint>

namespace lbmc::analytic {

//! Kruskal–Weiss's asymptotic E C of chunked self-scheduling:
//! N·μ/P + h·N/(K·P) + σ·√(2·K·ln P), h the overhead a processor spends per
//! chunk it takes (see the note above for the regime). Throws
//! engine::InputError unless N, P, K >= 1, μ, σ, h >= 0 and finite.
double kruskal_weiss_mean_makespan(std::int64_t tasks, std::int64_t procs, std::int64_t chunk, double mean,
                                   double sd, double overhead);

}  // namespace lbmc::analytic
