// The runs `lbmc validate` makes: for every experiment, parameter points that
// exercise each of its validators (DESIGN §6) — every exact reference and
// every bound — at replication counts that finish in seconds. A case is the
// experiment's own command line, so validate checks exactly what a user runs.
#include "validate.hpp"

namespace lbmc::exp {

std::vector<ValidationCase> validation_cases() {
  return {
      // Max of n iid loads: F^n exactly, by brute force and by direct inversion.
      {"maxload", "normal brute force",
       {"maxload", "--dist", "normal:0,1", "--n", "16,1024", "--alpha", "0.5,0.95", "--method", "brute"}, 1.0},
      {"maxload", "normal direct", {"maxload", "--dist", "normal:0,1", "--n", "16,65536", "--method", "direct"}, 1.0},
      {"maxload", "integer laws",
       {"maxload", "--dist", "binomial:4096,0.5", "--dist", "poisson:10", "--n", "100,256", "--alpha", "0.5,0.95"},
       1.0},
      {"maxload", "exponential and uniform",
       {"maxload", "--dist", "exponential:1", "--dist", "uniform:0,1", "--n", "64,1000", "--method", "brute"}, 0.2},
      {"maxload", "task-time laws",
       {"maxload", "--dist", "gamma:2.5,2", "--dist", "lognormal:0,0.5", "--dist", "weibull:1.5,2", "--dist",
        "pareto:4.5,1", "--dist", "geometric:0.3", "--dist", "negbinomial:3,0.4", "--n", "10,1000", "--alpha",
        "0.5,0.95"},
       0.5},
      {"maxload", "finite mixtures",
       {"maxload", "--dist", "mix:0.9*exponential:1+0.1*exponential:20", "--dist", "mix:0.7*poisson:3+0.3*poisson:30",
        "--n", "10,1000", "--alpha", "0.5,0.95"},
       0.5},
      // Prefix shifts: 1/n, Spitzer, the paper's bound on integer loads.
      {"maxshift", "normal", {"maxshift", "--dist", "normal:0,1", "--n", "16,256"}, 0.2},
      {"maxshift", "integer laws", {"maxshift", "--dist", "binomial:4096,0.5", "--dist", "poisson:10", "--n", "64"},
       0.2},
      // Random assignment: both models exactly, grouping.
      {"assign", "multinomial", {"assign", "--model", "multinomial", "--N", "1000", "--P", "10,100,1000"}, 0.5},
      {"assign", "poisson", {"assign", "--model", "poisson", "--N", "1000", "--P", "10,100,1000"}, 0.5},
      {"assign", "grouped", {"assign", "--N", "1000", "--P", "100", "--group", "2,5"}, 0.5},
      // Scattered decomposition: normal, Gamma and constant sums.
      {"scatter", "normal exponential constant",
       {"scatter", "--dist", "normal:1,0.5", "--dist", "exponential:1", "--dist", "constant:2", "--tasks", "10,100",
        "--procs", "100"},
       0.2},
      {"scatter", "gamma, geometric and negative binomial sums",
       {"scatter", "--dist", "gamma:2,1", "--dist", "geometric:0.3", "--dist", "negbinomial:3,0.4", "--tasks", "10,100",
        "--procs", "100"},
       0.2},
      // The balancer and its schedules: every element delivered once, in
      // order, balanced (exact: 0 violations); approach 1 against the bounds.
      {"rebalance", "binomial", {"rebalance", "--dist", "binomial:4096,0.5", "--n", "16,64"}, 0.1},
      {"rebalance", "poisson non-integer mean",
       {"rebalance", "--dist", "poisson:3", "--n", "7,100", "--remainder", "spread"}, 0.1},
      // Dynamic load balancing: the deterministic closed form, the exact
      // exponential E T_p, Lemma 1's H_p, Theorem 2 and Corollary 1 bounds.
      {"dynamic", "deterministic", {"dynamic", "--model", "deterministic", "--p", "4,16", "--kappa", "4", "--nu", "8,64"},
       0.01},
      {"dynamic", "exponential", {"dynamic", "--model", "exponential", "--p", "4,16", "--kappa", "4", "--nu", "20,100"},
       0.05},
      {"dynamic", "uniform", {"dynamic", "--model", "uniform", "--p", "8", "--kappa", "4", "--nu", "32,128"}, 0.05},
      {"dynamic", "optimal granularity",
       {"dynamic", "--model", "exponential", "--p", "8", "--kappa", "4", "--optimize-nu"}, 0.05},
      {"dynamic", "lemma 1", {"dynamic", "--lemma1", "--p", "1:1e6:*10"}, 0.2},
      // Strategies on common task times: list scheduling's exact E C with
      // exponential tasks, the exact maximum (N <= P) and processor sums
      // (P | N), the lower bound and Graham's list-scheduling bound.
      {"compare", "exponential and gamma tasks",
       {"compare", "--dist", "exponential:1", "--dist", "gamma:2,1", "--N", "4,64", "--P", "8"}, 0.2},
      // Random assignment of constant tasks: the multinomial maximum of `assign`.
      {"compare", "constant and geometric tasks",
       {"compare", "--dist", "constant:1", "--dist", "geometric:0.3", "--N", "6,48", "--P", "8", "--strategy",
        "block,cyclic,random,choice:1,choice:2"},
       0.2},
      // Chunked self-scheduling: chunk:1 is self (list-exponential), guided
      // with N <= P gives each task a processor (max-of-iid), one chunk of
      // every task (one-chunk, chunk:40 at N = 4), Graham's bound on the chunks.
      {"compare", "chunked and guided self-scheduling",
       {"compare", "--dist", "exponential:1", "--dist", "uniform:0,2", "--N", "4,64", "--P", "8", "--strategy",
        "self,chunk:1,chunk:4,chunk:40,guided"},
       0.2},
      // Unequal processor sums (P does not divide N), the exact power of two
      // choices with unit tasks, balanced blocks within twice the lower bound.
      {"compare", "unequal blocks and two choices",
       {"compare", "--dist", "constant:1", "--dist", "poisson:3", "--N", "8,70", "--P", "8", "--strategy",
        "block,cyclic,choice:2,balanced-block", "--tau", "0", "--phi", "0"},
       0.2},
  };
}

}  // namespace lbmc::exp
