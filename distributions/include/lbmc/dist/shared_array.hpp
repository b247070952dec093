// An immutable array that the copies of a sampler share.
//
// Design note
// - The kernels copy their sampler into each block's loop (a local copy no
//   store can alias), so a sampler's tables must be cheap to copy: a table
//   of a wide law (NegBinomial(1000, 0.01): 1.5 MiB) copied for every block
//   of 2^16 variates took 9-11 % of `maxload --method brute --n 1024` in
//   memcpy. The array is built once and shared by reference count; the hot
//   path reads it through a plain pointer, as it read a vector's.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

namespace lbmc::dist {

//! A read-only array shared by its copies (a copy costs a reference count).
template <class T>
class SharedArray {
 public:
  //! An empty array.
  SharedArray() = default;
  //! Takes `values` over.
  explicit SharedArray(std::vector<T> values)
      : owner_(std::make_shared<const std::vector<T>>(std::move(values))), data_(owner_->data()),
        size_(owner_->size()) {}

  const T& operator[](std::size_t i) const noexcept { return data_[i]; }
  const T* data() const noexcept { return data_; }
  std::size_t size() const noexcept { return size_; }
  bool empty() const noexcept { return size_ == 0; }
  //! The values as a vector (empty when none were given).
  const std::vector<T>& vector() const noexcept {
    static const std::vector<T> kNone;
    return owner_ ? *owner_ : kNone;
  }

 private:
  std::shared_ptr<const std::vector<T>> owner_;
  const T* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace lbmc::dist
