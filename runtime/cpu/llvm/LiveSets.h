#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ocelot::runtime::cpu::native::translation {

/// A set over rows or predicates.
class BitSet {
public:
  explicit BitSet(size_t size = 0) : words_((size + 63) / 64, 0) {}
  bool test(size_t i) const { return (words_[i / 64] >> (i % 64)) & 1; }
  void set(size_t i) { words_[i / 64] |= uint64_t{1} << (i % 64); }
  void reset(size_t i) { words_[i / 64] &= ~(uint64_t{1} << (i % 64)); }
  /// this |= other; true when this changed.
  bool merge(const BitSet& other) {
    bool changed = false;
    for (size_t i = 0; i < words_.size(); ++i) {
      const uint64_t value = words_[i] | other.words_[i];
      changed = changed || value != words_[i];
      words_[i] = value;
    }
    return changed;
  }
  void intersect(const BitSet& other) {
    for (size_t i = 0; i < words_.size(); ++i)
      words_[i] &= other.words_[i];
  }
  void subtract(const BitSet& other) {
    for (size_t i = 0; i < words_.size(); ++i)
      words_[i] &= ~other.words_[i];
  }
  bool operator==(const BitSet& other) const { return words_ == other.words_; }
  template <class Fn> void forEach(Fn&& fn) const {
    for (size_t w = 0; w < words_.size(); ++w) {
      uint64_t word = words_[w];
      while (word != 0) {
        const unsigned bit = static_cast<unsigned>(__builtin_ctzll(word));
        fn(w * 64 + bit);
        word &= word - 1;
      }
    }
  }

private:
  std::vector<uint64_t> words_;
};

/// Rows and predicates together (liveness works on both).
struct VarSet {
  BitSet rows, predicates;
  VarSet() = default;
  VarSet(size_t rowCount, size_t predicateCount) : rows(rowCount), predicates(predicateCount) {}
  bool merge(const VarSet& other) {
    const bool a = rows.merge(other.rows);
    const bool b = predicates.merge(other.predicates);
    return a || b;
  }
  void intersect(const VarSet& other) {
    rows.intersect(other.rows);
    predicates.intersect(other.predicates);
  }
  void subtract(const VarSet& other) {
    rows.subtract(other.rows);
    predicates.subtract(other.predicates);
  }
};

} // namespace ocelot::runtime::cpu::native::translation
