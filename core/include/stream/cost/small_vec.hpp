// A vector with a fixed capacity and in-object storage.
//
// The cost evaluation works on arrays bounded by the core (at most three operands, a handful of
// memory levels, a few dozen loop dims). Keeping them in-object avoids heap traffic, which
// otherwise dominates the cost of small cases. Exceeding the capacity throws std::length_error.
#pragma once

#include <array>
#include <cstddef>
#include <stdexcept>
#include <string>

namespace stream::cost {

template <class T, std::size_t N>
class SmallVec {
 public:
  using value_type = T;
  SmallVec() {}  // user-provided: no zero-fill of the storage
  SmallVec(const SmallVec& o) : size_(o.size_) {
    for (std::size_t i = 0; i < size_; ++i) data_[i] = o.data_[i];
  }
  SmallVec& operator=(const SmallVec& o) {
    if (this != &o) {
      for (std::size_t i = 0; i < o.size_; ++i) data_[i] = o.data_[i];
      size_ = o.size_;
    }
    return *this;
  }
  [[nodiscard]] std::size_t size() const { return size_; }
  [[nodiscard]] bool empty() const { return size_ == 0; }
  static constexpr std::size_t capacity() { return N; }
  void clear() { size_ = 0; }
  void resize(std::size_t n) {
    check(n);
    for (std::size_t i = size_; i < n; ++i) {
      if constexpr (requires(T& t) { t.clear(); })
        data_[i].clear();
      else
        data_[i] = T{};
    }
    size_ = n;
  }
  void assign(std::size_t n, const T& v) {
    check(n);
    for (std::size_t i = 0; i < n; ++i) data_[i] = v;
    size_ = n;
  }
  void push_back(const T& v) {
    check(size_ + 1);
    data_[size_++] = v;
  }
  T& operator[](std::size_t i) { return data_[i]; }
  const T& operator[](std::size_t i) const { return data_[i]; }
  T& back() { return data_[size_ - 1]; }
  const T& back() const { return data_[size_ - 1]; }
  T* data() { return data_.data(); }
  const T* data() const { return data_.data(); }
  T* begin() { return data_.data(); }
  T* end() { return data_.data() + size_; }
  const T* begin() const { return data_.data(); }
  const T* end() const { return data_.data() + size_; }

 private:
  static void check(std::size_t n) {
    if (n > N) throw std::length_error("cost model: more than " + std::to_string(N) + " entries in a fixed-size table");
  }
  std::array<T, N> data_;  // not value-initialised: only [0, size) is ever read
  std::size_t size_ = 0;
};

}  // namespace stream::cost
