// Vectors for scratch space that is written before it is read: growing one
// leaves its new elements uninitialised (default-initialised) instead of
// zeroing them, a pass over memory that every use would overwrite.
//
// Large buffers (kHugePageBytes and more) are placed on 2 MiB boundaries
// and, on Linux, advised to be backed by transparent huge pages
// (madvise(MADV_HUGEPAGE)), where the system allows them on advice: a first
// write then takes one page fault per 2 MiB instead of one per 4 KiB. A
// sort of 4·10^6 stored values writes 64 MB of fresh buffers, and on a
// virtual machine each small fault cost about 2 µs, as much as the sort's
// own passes.
#pragma once

#include <cstddef>
#include <cstdlib>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace lbmc::engine {

namespace scratch_detail {
inline constexpr std::size_t kHugePageBytes = std::size_t{1} << 21;
//! kHugePageBytes-aligned memory of at least `bytes`, advised for huge
//! pages; throws std::bad_alloc.
void* allocate_huge(std::size_t bytes);
}  // namespace scratch_detail

template <class T>
struct DefaultInitAllocator : std::allocator<T> {
  using value_type = T;
  DefaultInitAllocator() noexcept = default;
  template <class U>
  explicit DefaultInitAllocator(const DefaultInitAllocator<U>& /*other*/) noexcept {}
  template <class U>
  struct rebind {
    using other = DefaultInitAllocator<U>;
  };
  T* allocate(std::size_t n) {
    if (!huge(n)) return std::allocator<T>::allocate(n);
    if (n > std::allocator_traits<std::allocator<T>>::max_size(*this)) throw std::bad_array_new_length();
    return static_cast<T*>(scratch_detail::allocate_huge(n * sizeof(T)));
  }
  void deallocate(T* p, std::size_t n) noexcept {
    if (huge(n)) {
      std::free(p);
    } else {
      std::allocator<T>::deallocate(p, n);
    }
  }
  //! Value-initialisation (resize, the sized constructor) default-initialises.
  template <class U>
  void construct(U* where) noexcept(std::is_nothrow_default_constructible_v<U>) {
    ::new (static_cast<void*>(where)) U;
  }
  template <class U, class... Args>
  void construct(U* where, Args&&... args) {
    ::new (static_cast<void*>(where)) U(std::forward<Args>(args)...);
  }

 private:
  static bool huge(std::size_t n) noexcept { return n >= scratch_detail::kHugePageBytes / sizeof(T); }
};

template <class T>
using ScratchVector = std::vector<T, DefaultInitAllocator<T>>;

}  // namespace lbmc::engine
