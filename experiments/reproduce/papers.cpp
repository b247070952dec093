// The papers `lbmc reproduce` knows and the claim parts of each.
#include "reproduce.hpp"

namespace lbmc::exp {

std::vector<Paper> papers() {
  return {
      {"mehrotra1992",
       "Mehrotra, Ranka, Wang 1992: a locality-maintaining load balancer",
       {mehrotra1992_max_load, mehrotra1992_shifts, mehrotra1992_cm5}},
      {"kimura1990",
       "Kimura, Ichiyoshi 1990: optimal efficiency of the multi-level dynamic load balancing scheme",
       {kimura1990_claims}},
      {"franklin1994",
       "Franklin, Narayanaswami, Kankanhalli, Akman 1994: efficiency of randomly assigning tasks",
       {franklin1994_claims}},
      {"salmon", "Salmon: load imbalance of the scattered decomposition", {salmon_claims}},
  };
}

}  // namespace lbmc::exp
