#include "ir/Arena.h"

#include <algorithm>
#include <atomic>

namespace ocelot::ir {

namespace detail {

/// The blocks of one arena. Counted references: one per Arena::Reference, one per object that
/// holds memory from the blocks. While the arena is current, its objects are counted in a plain
/// counter of the owning thread (no other thread can hold them yet) and moved to the shared count
/// when the Scope ends.
class ArenaBlocks {
public:
  void* allocate(std::size_t size) {
    if (static_cast<std::size_t>(limit_ - cursor_) < size)
      grow(size);
    char* memory = cursor_;
    cursor_ += size;
    ++pending_;
    return memory;
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
  void enter() { current_ = true; }
  void leave() {
    references_.fetch_add(pending_, std::memory_order_relaxed);
    pending_ = 0;
    current_ = false;
  }
  ~ArenaBlocks() {
    while (last_ != nullptr) {
      Block* previous = last_->previous;
      ::operator delete(last_);
      last_ = previous;
    }
  }

private:
  struct Block {
    Block* previous;
  };
  void grow(std::size_t size) {
    // Blocks double from 32 KB to 1 MB: small modules stay small, large ones allocate rarely.
    std::size_t bytes = std::max(nextBlockSize_, size + sizeof(Block));
    nextBlockSize_ = std::min<std::size_t>(nextBlockSize_ * 2, 1 << 20);
    auto* block = static_cast<Block*>(::operator new(bytes));
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
  std::size_t nextBlockSize_ = 32 << 10;
};

} // namespace detail

namespace {

thread_local detail::ArenaBlocks* currentArena = nullptr;

/// Every allocation starts with the arena it came from (nullptr: the heap).
constexpr std::size_t kHeader = 8;
static_assert(sizeof(detail::ArenaBlocks*) <= kHeader);

/// Allocations this large come from the heap even during a parse (rare: huge argument lists).
constexpr std::size_t kLargest = 64 << 10;

} // namespace

void* Arena::allocate(std::size_t size) {
  std::size_t total = (size + kHeader + 7) & ~std::size_t{7};
  detail::ArenaBlocks* arena = total <= kLargest ? currentArena : nullptr;
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

Arena::Reference::~Reference() {
  if (blocks_ != nullptr)
    blocks_->releaseReference();
}

detail::ArenaBlocks& Arena::Reference::blocks() {
  if (blocks_ == nullptr)
    blocks_ = new detail::ArenaBlocks;
  return *blocks_;
}

Arena::Scope::Scope(Reference& arena) : blocks_(&arena.blocks()), previous_(currentArena) {
  blocks_->enter();
  currentArena = blocks_;
}

Arena::Scope::~Scope() {
  blocks_->leave();
  currentArena = previous_;
}

} // namespace ocelot::ir
