// Vectors for scratch space that is written before it is read: growing one
// leaves its new elements uninitialised (default-initialised) instead of
// zeroing them, a pass over memory that every use would overwrite.
#pragma once

#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace lbmc::engine {

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
  //! Value-initialisation (resize, the sized constructor) default-initialises.
  template <class U>
  void construct(U* where) noexcept(std::is_nothrow_default_constructible_v<U>) {
    ::new (static_cast<void*>(where)) U;
  }
  template <class U, class... Args>
  void construct(U* where, Args&&... args) {
    ::new (static_cast<void*>(where)) U(std::forward<Args>(args)...);
  }
};

template <class T>
using ScratchVector = std::vector<T, DefaultInitAllocator<T>>;

}  // namespace lbmc::engine
