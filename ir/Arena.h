#pragma once

#include <cstddef>
#include <cstdint>
#include <new>

namespace ocelot::ir {

namespace detail {
class ArenaBlocks;
} // namespace detail

/// Memory for the statements and instruction operand lists of a parsed module. A parse makes an
/// arena current on its thread; statements and operand lists created there take their memory
/// from large blocks (a pointer bump instead of a heap allocation each: tens of thousands per
/// megabyte of PTX). Objects are still created and destroyed one by one, and passes may delete,
/// move or add them: each remembers where its memory came from, and an arena's blocks go back to
/// the heap when its module and the last object taken from it are gone (memory given back by
/// single objects is not reused before). Outside a parse, the same objects come from the heap.
class Arena {
public:
  /// `size` bytes, aligned to 8: from the arena current on this thread, else from the heap.
  static void* allocate(std::size_t size);
  /// Memory from allocate(); may be called on any thread.
  static void deallocate(void* memory) noexcept;

  /// A counted reference to an arena's blocks (a module holds one).
  class Reference {
  public:
    Reference() = default;
    Reference(const Reference&) = delete;
    Reference& operator=(const Reference&) = delete;
    ~Reference();
    /// Creates the arena on first use.
    detail::ArenaBlocks& blocks();

  private:
    detail::ArenaBlocks* blocks_ = nullptr;
  };

  /// Makes `arena` current on this thread while it exists (only one parse at a time per thread).
  class Scope {
  public:
    explicit Scope(Reference& arena);
    ~Scope();
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

  private:
    detail::ArenaBlocks* blocks_;
    detail::ArenaBlocks* previous_;
  };
};

/// An allocator over Arena, for the operand lists of instructions.
template <class T> class ArenaAllocator {
public:
  using value_type = T;
  ArenaAllocator() noexcept = default;
  template <class U> ArenaAllocator(const ArenaAllocator<U>&) noexcept {}
  T* allocate(std::size_t count) {
    static_assert(alignof(T) <= 8, "Arena memory is aligned to 8 bytes");
    if (count > SIZE_MAX / sizeof(T))
      throw std::bad_array_new_length();
    return static_cast<T*>(Arena::allocate(count * sizeof(T)));
  }
  void deallocate(T* memory, std::size_t) noexcept { Arena::deallocate(memory); }
  friend bool operator==(const ArenaAllocator&, const ArenaAllocator&) { return true; }
};

} // namespace ocelot::ir
