#pragma once

#include "ir/Arena.h"
#include "ir/Function.h"
#include "ir/InstructionForm.h"
#include "ir/ModuleItem.h"
#include "ir/StringPool.h"

#include <memory>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace ocelot::ir {

/// A PTX module: header (`.version`, `.target`, `.address_size`) and the module-scope items in
/// source order. Owns the strings and instruction forms its items refer to.
class Module {
public:
  Module() = default;
  Module(const Module&) = delete;
  Module& operator=(const Module&) = delete;

  // --- Header -------------------------------------------------------------------------------
  std::string_view version() const { return version_; } ///< "9.0" as written
  void setVersion(std::string_view version) { version_ = strings_.intern(version); }
  /// {"sm_90a"}, {"sm_90", "debug"}: as written, never interpreted by the grammar.
  const std::vector<std::string_view>& targets() const { return targets_; }
  void setTargets(std::vector<std::string_view> targets);
  /// The first target that names an architecture (`sm_90a`), or empty.
  std::string_view architecture() const;
  bool hasDebugTarget() const;
  std::optional<uint32_t> addressSize() const { return addressSize_; }
  void setAddressSize(std::optional<uint32_t> size) { addressSize_ = size; }

  /// Source lines of the three header directives (0 when synthesized).
  struct HeaderLines {
    uint32_t version = 0, target = 0, addressSize = 0;
  };
  HeaderLines& headerLines() { return headerLines_; }
  const HeaderLines& headerLines() const { return headerLines_; }

  // --- Items --------------------------------------------------------------------------------
  const std::vector<std::unique_ptr<ModuleItem>>& items() const { return items_; }
  /// Appends `item` (or inserts it before position `index`) and returns it.
  template <class T> T& append(std::unique_ptr<T> item) {
    return insert(items_.size(), std::move(item));
  }
  template <class T> T& insert(size_t index, std::unique_ptr<T> item) {
    T& ref = *item;
    bool appended = index == items_.size();
    items_.insert(items_.begin() + static_cast<std::ptrdiff_t>(index), std::move(item));
    itemsChanged(appended);
    return ref;
  }

  /// Functions (declarations and definitions) in source order.
  const std::vector<Function*>& functions() const { return functions_; }
  /// The definition named `name` if there is one, else its declaration, else nullptr. O(1): a
  /// module of 100k functions calls it once per call site.
  Function* findFunction(std::string_view name) const;
  /// The path of `.file` number `index` (the first such directive), or "" if there is none.
  std::string_view filePath(uint32_t index) const;
  /// The module-scope variable declaring `name`, or nullptr.
  GlobalVariable* findGlobal(std::string_view name) const;

  // --- Ownership of names -------------------------------------------------------------------
  StringPool& strings() { return strings_; }
  std::string_view intern(std::string_view text) { return strings_.intern(text); }
  /// The module's form for an instruction spelling such as "ld.global.f32".
  const InstructionForm& form(std::string_view spelling);

  /// Structural equality: same header and items, statement by statement (lines do not matter).
  bool equals(const Module& other) const;

  /// Where the parser puts this module's statements and operand lists (see Arena).
  Arena::Reference& arena() { return arena_; }

private:
  void itemsChanged(bool appended);
  void indexItem(ModuleItem& item);

  Arena::Reference arena_; // first member: released after the items
  StringPool strings_;
  std::string_view version_;
  std::vector<std::string_view> targets_;
  std::optional<uint32_t> addressSize_;
  HeaderLines headerLines_;
  std::vector<std::unique_ptr<ModuleItem>> items_;
  std::vector<Function*> functions_;
  /// Functions by name, in source order (a declaration and a definition may share one).
  std::unordered_map<std::string_view, std::vector<Function*>> functionsByName_;
  std::unordered_map<uint32_t, std::string_view> filePaths_;
  std::unordered_map<std::string_view, std::unique_ptr<InstructionForm>> forms_;
};

} // namespace ocelot::ir
