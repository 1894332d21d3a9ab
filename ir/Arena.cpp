#include "ir/Arena.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <new>

namespace ocelot::ir {

namespace {

/// Blocks are made of chunks of this size, aligned to it, and each chunk starts with the address
/// of the arena that owns it: memory handed out without a header finds its arena by rounding its
/// address down. Nothing handed out crosses a chunk boundary.
constexpr std::size_t kChunk = 32 << 10;
constexpr std::size_t kOwnerWord = 8;

std::uintptr_t address(const void* p) {
  return reinterpret_cast<std::uintptr_t>(p);
}

} // namespace

namespace detail {

/// The blocks of one arena. Counted references: one per Arena::Reference, one per object that
/// holds memory from the blocks. While the arena is current, its objects are counted in a plain
/// counter of the owning thread (no other thread can hold them yet) and moved to the shared count
/// when the Scope ends.
class ArenaBlocks {
public:
  /// `size` (a multiple of 8, at most Arena::kLargestArenaObject) bytes, aligned to 8.
  void* allocate(std::size_t size) {
    std::uintptr_t at = address(cursor_);
    if (cursor_ != nullptr) {
      std::size_t offset = at & (kChunk - 1);
      if (offset == 0) // at a chunk's start: its first word names the owner
        offset = kOwnerWord, at += kOwnerWord;
      if (offset + size > kChunk)
        at += kChunk - offset + kOwnerWord; // the next chunk
    }
    if (cursor_ == nullptr || at + size > address(limit_)) {
      grow();
      at = address(cursor_);
    }
    cursor_ = reinterpret_cast<char*>(at + size);
    ++pending_;
    return reinterpret_cast<void*>(at);
  }
  /// The reference of an Arena::Reference (never while the arena is current).
  void releaseReference() {
    if (references_.fetch_sub(1, std::memory_order_acq_rel) == 1)
      delete this;
  }
  /// An object's memory.
  void release() {
    if (current_) { // the owning thread, during the parse
      --pending_;
      return;
    }
    if (references_.fetch_sub(1, std::memory_order_acq_rel) == 1)
      delete this;
  }
  void enter(std::size_t budget) {
    current_ = true;
    budget_ = budget;
  }
  void leave() {
    references_.fetch_add(pending_, std::memory_order_relaxed);
    pending_ = 0;
    current_ = false;
    budget_ = SIZE_MAX;
  }
  ~ArenaBlocks() {
    while (last_ != nullptr) {
      Block* previous = last_->previous;
      ::operator delete(last_, std::align_val_t(kChunk));
      last_ = previous;
    }
  }

private:
  /// The first chunk of a block: its owner word, then the link to the previous block.
  struct Block {
    ArenaBlocks* owner;
    Block* previous;
  };
  void grow() {
    // Blocks double from 32 KB to 1 MB: small modules stay small, large ones allocate rarely.
    std::size_t bytes = nextBlockSize_;
    if (bytes > budget_ || reserved_ > budget_ - bytes)
      throw Arena::BudgetExceeded();
    auto* block = static_cast<Block*>(::operator new(bytes, std::align_val_t(kChunk)));
    reserved_ += bytes;
    nextBlockSize_ = std::min<std::size_t>(nextBlockSize_ * 2, 1 << 20);
    for (std::size_t chunk = 0; chunk < bytes; chunk += kChunk)
      *reinterpret_cast<ArenaBlocks**>(reinterpret_cast<char*>(block) + chunk) = this;
    block->previous = last_;
    last_ = block;
    cursor_ = reinterpret_cast<char*>(block) + sizeof(Block);
    limit_ = reinterpret_cast<char*>(block) + bytes;
  }

  std::atomic<std::size_t> references_{1};
  std::size_t pending_ = 0;
  bool current_ = false;
  char* cursor_ = nullptr;
  char* limit_ = nullptr;
  Block* last_ = nullptr;
  std::size_t nextBlockSize_ = kChunk;
  std::size_t reserved_ = 0;      ///< bytes of all blocks
  std::size_t budget_ = SIZE_MAX; ///< while current
};

} // namespace detail

namespace {

thread_local detail::ArenaBlocks* currentArena = nullptr;

/// Every allocation through allocate() starts with the arena it came from (nullptr: the heap).
constexpr std::size_t kHeader = 8;
static_assert(sizeof(detail::ArenaBlocks*) <= kHeader);

std::size_t roundUp(std::size_t size) {
  return (size + 7) & ~std::size_t{7};
}

} // namespace

void* Arena::allocate(std::size_t size) {
  std::size_t total = roundUp(size + kHeader);
  detail::ArenaBlocks* arena = total <= kLargestArenaObject ? currentArena : nullptr;
  void* block = arena != nullptr ? arena->allocate(total) : ::operator new(total);
  *static_cast<detail::ArenaBlocks**>(block) = arena;
  return static_cast<char*>(block) + kHeader;
}

void Arena::deallocate(void* memory) noexcept {
  if (memory == nullptr)
    return;
  void* block = static_cast<char*>(memory) - kHeader;
  detail::ArenaBlocks* arena = *static_cast<detail::ArenaBlocks**>(block);
  if (arena == nullptr)
    ::operator delete(block);
  else
    arena->release();
}

void* Arena::allocateUntagged(std::size_t size, bool& fromArena) {
  std::size_t total = roundUp(size == 0 ? 1 : size);
  detail::ArenaBlocks* arena = total <= kLargestArenaObject ? currentArena : nullptr;
  fromArena = arena != nullptr;
  return arena != nullptr ? arena->allocate(total) : ::operator new(total);
}

void Arena::deallocateUntagged(void* memory, bool fromArena) noexcept {
  if (memory == nullptr)
    return;
  if (!fromArena) {
    ::operator delete(memory);
    return;
  }
  auto* owner = *reinterpret_cast<detail::ArenaBlocks**>(address(memory) & ~(kChunk - 1));
  owner->release();
}

Arena::Reference::~Reference() {
  if (blocks_ != nullptr)
    blocks_->releaseReference();
}

detail::ArenaBlocks& Arena::Reference::blocks() {
  if (blocks_ == nullptr)
    blocks_ = new detail::ArenaBlocks;
  return *blocks_;
}

Arena::Scope::Scope(Reference& arena, std::size_t budget)
    : blocks_(&arena.blocks()), previous_(currentArena) {
  blocks_->enter(budget);
  currentArena = blocks_;
}

Arena::Scope::~Scope() {
  blocks_->leave();
  currentArena = previous_;
}

} // namespace ocelot::ir
