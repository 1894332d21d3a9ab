#pragma once

#include "ir/Arena.h"
#include "ir/Operand.h"

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <stdexcept>
#include <utility>

namespace ocelot::ir {

/// The operands of an instruction: a vector of Operand with the usual interface (iterators are
/// pointers), 16 bytes where std::vector takes 24, whose memory comes from Arena::allocate (the
/// module's arena while it is parsed, else the heap). Instructions are most of a parsed module,
/// so every byte here counts ten million times in a large one.
class OperandList {
public:
  using value_type = Operand;
  using size_type = size_t;
  using difference_type = std::ptrdiff_t;
  using reference = Operand&;
  using const_reference = const Operand&;
  using pointer = Operand*;
  using const_pointer = const Operand*;
  using iterator = Operand*;
  using const_iterator = const Operand*;

  OperandList() = default;
  OperandList(std::initializer_list<Operand> operands)
      : OperandList(operands.begin(), operands.end()) {}
  template <class It>
  requires(!std::is_integral_v<It>) OperandList(It first, It last) {
    if constexpr (std::is_base_of_v<std::forward_iterator_tag,
                                    typename std::iterator_traits<It>::iterator_category>)
      reserve(static_cast<size_t>(std::distance(first, last)));
    for (; first != last; ++first)
      emplace_back(*first);
  }
  OperandList(const OperandList& other) : OperandList(other.begin(), other.end()) {}
  OperandList(OperandList&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)),
        capacity_(std::exchange(other.capacity_, 0)) {}
  OperandList& operator=(const OperandList& other) {
    if (this != &other) {
      OperandList copy(other);
      swap(copy);
    }
    return *this;
  }
  OperandList& operator=(OperandList&& other) noexcept {
    OperandList taken(std::move(other));
    swap(taken);
    return *this;
  }
  ~OperandList() {
    clear();
    Arena::deallocateUntagged(data_, fromArena());
  }
  void swap(OperandList& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(size_, other.size_);
    std::swap(capacity_, other.capacity_);
  }

  iterator begin() { return data_; }
  iterator end() { return data_ + size_; }
  const_iterator begin() const { return data_; }
  const_iterator end() const { return data_ + size_; }
  const_iterator cbegin() const { return data_; }
  const_iterator cend() const { return data_ + size_; }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  size_t capacity() const { return capacity_ & kCapacityMask; }
  Operand* data() { return data_; }
  const Operand* data() const { return data_; }
  Operand& operator[](size_t i) { return data_[i]; }
  const Operand& operator[](size_t i) const { return data_[i]; }
  Operand& at(size_t i) {
    if (i >= size_)
      throw std::out_of_range("OperandList::at");
    return data_[i];
  }
  const Operand& at(size_t i) const { return const_cast<OperandList&>(*this).at(i); }
  Operand& front() { return data_[0]; }
  const Operand& front() const { return data_[0]; }
  Operand& back() { return data_[size_ - 1]; }
  const Operand& back() const { return data_[size_ - 1]; }

  void reserve(size_t count) {
    if (count <= capacity())
      return;
    if (count > kCapacityMask)
      throw std::length_error("an instruction has at most 2^31-1 operands");
    bool inArena = false;
    auto* fresh = static_cast<Operand*>(Arena::allocateUntagged(count * sizeof(Operand), inArena));
    for (uint32_t i = 0; i < size_; ++i) {
      new (fresh + i) Operand(std::move(data_[i]));
      data_[i].~Operand();
    }
    Arena::deallocateUntagged(data_, fromArena());
    data_ = fresh;
    capacity_ = static_cast<uint32_t>(count) | (inArena ? kFromArena : 0);
  }
  template <class... Args> Operand& emplace_back(Args&&... args) {
    if (size_ == capacity()) {
      // Build the element first: an argument may refer to an element that moves.
      Operand value(std::forward<Args>(args)...);
      reserve(capacity() == 0 ? 2 : capacity() * 2);
      return *new (data_ + size_++) Operand(std::move(value));
    }
    return *new (data_ + size_++) Operand(std::forward<Args>(args)...);
  }
  void push_back(const Operand& value) { emplace_back(value); }
  void push_back(Operand&& value) { emplace_back(std::move(value)); }
  void pop_back() { data_[--size_].~Operand(); }

  iterator insert(const_iterator position, Operand value) {
    const size_t index = static_cast<size_t>(position - data_);
    emplace_back(std::move(value));
    std::rotate(data_ + index, data_ + size_ - 1, data_ + size_);
    return data_ + index;
  }
  template <class It>
  requires(!std::is_integral_v<It>) iterator insert(const_iterator position, It first, It last) {
    const size_t index = static_cast<size_t>(position - data_);
    const size_t before = size_;
    for (; first != last; ++first)
      emplace_back(*first);
    std::rotate(data_ + index, data_ + before, data_ + size_);
    return data_ + index;
  }
  iterator erase(const_iterator position) { return erase(position, position + 1); }
  iterator erase(const_iterator first, const_iterator last) {
    const size_t from = static_cast<size_t>(first - data_);
    const size_t to = static_cast<size_t>(last - data_);
    const size_t remaining = size_ - (to - from);
    std::move(data_ + to, data_ + size_, data_ + from);
    while (size_ > remaining)
      pop_back();
    return data_ + from;
  }
  void clear() {
    while (size_ > 0)
      pop_back();
  }
  void resize(size_t count) {
    while (size_ > count)
      pop_back();
    reserve(count);
    while (size_ < count)
      emplace_back();
  }

  friend bool operator==(const OperandList& a, const OperandList& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
  }

private:
  /// The top bit of capacity_: the memory came from an arena (Arena::allocateUntagged).
  static constexpr uint32_t kFromArena = 0x80000000u;
  static constexpr uint32_t kCapacityMask = 0x7fffffffu;
  bool fromArena() const { return (capacity_ & kFromArena) != 0; }

  Operand* data_ = nullptr;
  uint32_t size_ = 0;
  uint32_t capacity_ = 0;
};

} // namespace ocelot::ir
