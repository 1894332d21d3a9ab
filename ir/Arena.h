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
/// Blocks are made of 32 KB chunks that each start with the arena's address, so that an object
/// needs no header of its own to find its arena: only a flag that it came from one.
class Arena {
public:
  /// Objects larger than this come from the heap even during a parse (huge operand lists).
  static constexpr std::size_t kLargestArenaObject = (32 << 10) - 8;

  /// `size` bytes, aligned to 8: from the arena current on this thread, else from the heap. The
  /// memory starts with an 8-byte header that says which.
  static void* allocate(std::size_t size);
  /// Memory from allocate(); may be called on any thread.
  static void deallocate(void* memory) noexcept;

  /// The same without the header, for the objects a module has millions of (instructions,
  /// operand lists, operand boxes): `fromArena` says where the memory came from, and the owner
  /// keeps it (in a spare byte) for deallocateUntagged.
  static void* allocateUntagged(std::size_t size, bool& fromArena);
  static void deallocateUntagged(void* memory, bool fromArena) noexcept;

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

  /// What allocate() throws when the arena current on this thread would grow past its budget.
  class BudgetExceeded : public std::bad_alloc {
  public:
    const char* what() const noexcept override { return "the arena's memory budget is exhausted"; }
  };

  /// Makes `arena` current on this thread while it exists (only one parse at a time per thread);
  /// while it is current, its blocks may take at most `budget` bytes (BudgetExceeded).
  class Scope {
  public:
    explicit Scope(Reference& arena, std::size_t budget = SIZE_MAX);
    ~Scope();
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

  private:
    detail::ArenaBlocks* blocks_;
    detail::ArenaBlocks* previous_;
  };
};

} // namespace ocelot::ir
