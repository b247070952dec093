// What the fuzz targets share: a broken property ends the run as a finding.
#pragma once

#include <cstdlib>

//! Aborts (a finding for libFuzzer) unless `ok`.
inline void check(bool ok) {
  if (!ok) std::abort();
}
