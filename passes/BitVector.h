#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace ocelot::passes {

/// A fixed-size set of small integers, 64 per word: the representation of the dataflow sets
/// (live registers, dominator sets in tests). Set operations work a word at a time.
class BitVector {
public:
  BitVector() = default;
  explicit BitVector(size_t size) : size_(size), words_((size + 63) / 64, 0) {}

  size_t size() const { return size_; }
  void resize(size_t size) {
    size_ = size;
    words_.assign((size + 63) / 64, 0);
  }

  bool test(size_t i) const { return (words_[i / 64] >> (i % 64)) & 1u; }
  void set(size_t i) { words_[i / 64] |= uint64_t{1} << (i % 64); }
  void reset(size_t i) { words_[i / 64] &= ~(uint64_t{1} << (i % 64)); }
  void clear() { std::fill(words_.begin(), words_.end(), 0); }
  void setAll() {
    std::fill(words_.begin(), words_.end(), ~uint64_t{0});
    if (size_ % 64 != 0 && !words_.empty())
      words_.back() &= (uint64_t{1} << (size_ % 64)) - 1;
  }

  size_t count() const {
    size_t n = 0;
    for (uint64_t w : words_)
      n += static_cast<size_t>(std::popcount(w));
    return n;
  }
  bool none() const {
    for (uint64_t w : words_)
      if (w != 0)
        return false;
    return true;
  }

  /// this |= other; returns true when this changed. Sizes must match.
  bool unite(const BitVector& other) {
    bool changed = false;
    for (size_t i = 0; i < words_.size(); ++i) {
      uint64_t merged = words_[i] | other.words_[i];
      changed |= merged != words_[i];
      words_[i] = merged;
    }
    return changed;
  }
  /// this &= other; returns true when this changed.
  bool intersect(const BitVector& other) {
    bool changed = false;
    for (size_t i = 0; i < words_.size(); ++i) {
      uint64_t merged = words_[i] & other.words_[i];
      changed |= merged != words_[i];
      words_[i] = merged;
    }
    return changed;
  }
  /// this = a | (b & ~c); returns true when this changed.
  bool assignUnionMinus(const BitVector& a, const BitVector& b, const BitVector& c) {
    bool changed = false;
    for (size_t i = 0; i < words_.size(); ++i) {
      uint64_t value = a.words_[i] | (b.words_[i] & ~c.words_[i]);
      changed |= value != words_[i];
      words_[i] = value;
    }
    return changed;
  }

  /// Calls fn(index) for every member in increasing order.
  template <class Fn> void forEach(Fn&& fn) const {
    for (size_t w = 0; w < words_.size(); ++w) {
      uint64_t word = words_[w];
      while (word != 0) {
        fn(w * 64 + static_cast<size_t>(std::countr_zero(word)));
        word &= word - 1;
      }
    }
  }

  friend bool operator==(const BitVector&, const BitVector&) = default;

private:
  size_t size_ = 0;
  std::vector<uint64_t> words_;
};

} // namespace ocelot::passes
