#pragma once

#include "ir/Declaration.h"

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace ocelot::ir {

/// Anything at module scope, in source order: variables, functions, `.file`, debug sections,
/// `.alias`. Functions are ModuleItems too (see Function.h).
class ModuleItem {
public:
  enum class Kind : uint8_t { GlobalVariable, Function, File, DebugSection, Alias };

  virtual ~ModuleItem() = default;
  ModuleItem(const ModuleItem&) = delete;
  ModuleItem& operator=(const ModuleItem&) = delete;

  Kind kind() const { return kind_; }
  uint32_t line() const { return line_; }
  void setLine(uint32_t line) { line_ = line; }

protected:
  explicit ModuleItem(Kind kind) : kind_(kind) {}

private:
  Kind kind_;
  uint32_t line_ = 0;
};

/// A module-scope `.global`/`.const`/`.shared`/... declaration (one or more declarators).
class GlobalVariable final : public ModuleItem {
public:
  explicit GlobalVariable(DeclarationSpec spec)
      : ModuleItem(Kind::GlobalVariable), spec_(std::move(spec)) {}
  const DeclarationSpec& spec() const { return spec_; }
  DeclarationSpec& spec() { return spec_; }
  static bool classof(const ModuleItem* item) { return item->kind() == Kind::GlobalVariable; }

private:
  DeclarationSpec spec_;
};

/// `.file 1 "a.cu"` or `.file 1 "a.cu", 1700000000, 1234`.
class FileDirective final : public ModuleItem {
public:
  FileDirective(uint32_t index, std::string_view path, std::optional<uint64_t> timestamp,
                std::optional<uint64_t> size)
      : ModuleItem(Kind::File), index_(index), path_(path), timestamp_(timestamp), size_(size) {}
  uint32_t index() const { return index_; }
  /// As written between the quotes (escapes kept).
  std::string_view path() const { return path_; }
  std::optional<uint64_t> timestamp() const { return timestamp_; }
  std::optional<uint64_t> size() const { return size_; }
  static bool classof(const ModuleItem* item) { return item->kind() == Kind::File; }

private:
  uint32_t index_;
  std::string_view path_;
  std::optional<uint64_t> timestamp_;
  std::optional<uint64_t> size_;
};

/// One line of a debug section: a label (`$L__info_string3:`) or one value of a data directive
/// (`.b8 17`, `.b64 $L__tmp3`, `.b32 .debug_loc+1021`). Kept compact: -G modules are mostly these.
/// One item of a debug section. Debug sections of `-G` modules hold millions of items (one per
/// `.b8` byte), so an item is 24 bytes: names are indices into its section's name table.
struct SectionItem {
  enum class Kind : uint8_t { Label, Data };
  static constexpr uint32_t kNoName = UINT32_MAX;
  uint64_t value = 0;           ///< Data: the integer magnitude, or the offset added to `symbol`
  uint32_t directive = kNoName; ///< Data: ".b8", ".b32" ... (kNoName for continuations)
  uint32_t symbol = kNoName;    ///< Label: its name; Data: the referenced symbol, or kNoName
  /// Data: a label difference `symbol-subtrahend` when set. nvcc writes section lengths this
  /// way (`.b32 $L__pubNames_end0-$L__pubNames_start0` in sm_100a -G modules).
  uint32_t subtrahend = kNoName;
  Kind kind = Kind::Data;
  bool continuation = false; ///< another value of the previous directive (`.b8 1, 2`)
  bool negative = false;     ///< Data without symbol: the value was written with '-'
  bool hexadecimal = false;  ///< Data without symbol: the value was written in hex
};

/// `.section .debug_info { ... }`: kept item by item, byte-exact on emission.
class DebugSection final : public ModuleItem {
public:
  explicit DebugSection(std::string_view name) : ModuleItem(Kind::DebugSection), name_(name) {}
  std::string_view name() const { return name_; }
  const std::vector<SectionItem>& items() const { return items_; }
  std::vector<SectionItem>& items() { return items_; }
  /// The text of a name index of an item ("" for kNoName).
  std::string_view text(uint32_t name) const {
    return name == SectionItem::kNoName ? std::string_view() : names_[name];
  }
  /// Adds `text` (which must outlive the section: intern it in the module) to the name table.
  uint32_t addName(std::string_view text) {
    names_.push_back(text);
    return static_cast<uint32_t>(names_.size() - 1);
  }
  size_t nameCount() const { return names_.size(); }
  /// Drops the names added after the first `count` (no item may refer to them any more).
  void truncateNames(size_t count) { names_.resize(count); }
  /// Same name and the same items, compared by their texts (name indices may differ).
  bool sameContent(const DebugSection& other) const;
  static bool classof(const ModuleItem* item) { return item->kind() == Kind::DebugSection; }

private:
  std::string_view name_;
  std::vector<SectionItem> items_;
  std::vector<std::string_view> names_;
};

/// `.alias alias, aliasee;`
class AliasDirective final : public ModuleItem {
public:
  AliasDirective(std::string_view alias, std::string_view aliasee)
      : ModuleItem(Kind::Alias), alias_(alias), aliasee_(aliasee) {}
  std::string_view alias() const { return alias_; }
  std::string_view aliasee() const { return aliasee_; }
  static bool classof(const ModuleItem* item) { return item->kind() == Kind::Alias; }

private:
  std::string_view alias_;
  std::string_view aliasee_;
};

} // namespace ocelot::ir
