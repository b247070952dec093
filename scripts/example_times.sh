#!/usr/bin/env bash
# Writes the example measured-times file of `lbmc compare` to stdout: the
# cost of each pixel of a 64 x 64 ray-traced image, row by row (4096 tasks),
# from a cost model, not from hardware: a ray that misses costs 1; a ray
# that hits one of three diffuse spheres costs 3 to 7 (more near the centre,
# where the shadow and light rays are traced); a ray on the mirror sphere
# costs 25 to 40 (it spawns reflected rays); and every cost carries +-10%
# of deterministic noise (the Park-Miller sequence x <- 16807 x mod
# 2^31 - 1, exact in awk's doubles). Costs
# cluster where the spheres are, as in Salmon's ray-tracing example, so
# neighbouring tasks are alike. Usage: scripts/example_times.sh > FILE
set -euo pipefail
awk 'BEGIN {
  state = 12345
  # cx, cy, r, cost at the centre, cost at the rim (sphere 4 is the mirror)
  split("14 18 10 7 3", s1, " "); split("46 22 12 7 3", s2, " ")
  split("22 48 9 7 3", s3, " "); split("44 46 11 40 25", s4, " ")
  for (y = 0; y < 64; y++) {
    for (x = 0; x < 64; x++) {
      cost = 1
      for (k = 1; k <= 4; k++) {
        if (k == 1) { cx = s1[1]; cy = s1[2]; r = s1[3]; hi = s1[4]; lo = s1[5] }
        if (k == 2) { cx = s2[1]; cy = s2[2]; r = s2[3]; hi = s2[4]; lo = s2[5] }
        if (k == 3) { cx = s3[1]; cy = s3[2]; r = s3[3]; hi = s3[4]; lo = s3[5] }
        if (k == 4) { cx = s4[1]; cy = s4[2]; r = s4[3]; hi = s4[4]; lo = s4[5] }
        d2 = (x - cx) * (x - cx) + (y - cy) * (y - cy)
        if (d2 < r * r) { c = lo + (hi - lo) * (1 - d2 / (r * r)); if (c > cost) cost = c }
      }
      state = (state * 16807) % 2147483647
      noise = 0.9 + 0.2 * state / 2147483647
      printf "%.3f\n", cost * noise
    }
  }
}'
