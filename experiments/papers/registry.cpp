// The papers `lbmc reproduce` knows and the claim parts of each.
#include "lbmc/exp/reproduce.hpp"

namespace lbmc::exp {

std::vector<Paper> papers() {
  return {
      {"mehrotra1992",
       "Mehrotra, Ranka, Wang 1992: a locality-maintaining load balancer",
       {mehrotra1992_max_load, mehrotra1992_shifts}},
  };
}

}  // namespace lbmc::exp
