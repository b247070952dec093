// Huge-page-advised allocations of large scratch buffers (scratch_vector.hpp).
#include "lbmc/engine/scratch_vector.hpp"

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace lbmc::engine::scratch_detail {

void* allocate_huge(std::size_t bytes) {
  const std::size_t rounded = (bytes + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes;
  if (rounded < bytes) throw std::bad_alloc();
  void* p = std::aligned_alloc(kHugePageBytes, rounded);
  if (p == nullptr) throw std::bad_alloc();
#if defined(__linux__)
  // Advice only: where huge pages are off, the buffer has small pages.
  (void)madvise(p, rounded, MADV_HUGEPAGE);
#endif
  return p;
}

}  // namespace lbmc::engine::scratch_detail
