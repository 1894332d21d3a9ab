// Choosing the PTX and the cubin for a device, on hand-made entries (the real-object tests in
// FatbinaryReaderTest.cpp cover what nvcc emits).

#include "runtime/fatbin/Selection.h"

#include "runtime/fatbin/Format.h"

#include <gtest/gtest.h>

#include <list>

namespace ocelot::runtime::fatbin {
namespace {

class Entries {
public:
  const Entry* add(EntryKind kind, uint32_t arch, uint64_t flags = 0) {
    Entry& entry = storage_.emplace_back();
    entry.kind = static_cast<uint16_t>(kind);
    entry.arch = arch;
    entry.flags = flags;
    pointers_.push_back(&entry);
    return &entry;
  }
  const std::vector<const Entry*>& all() const { return pointers_; }

private:
  std::list<Entry> storage_;
  std::vector<const Entry*> pointers_;
};

TEST(Selection, PtxOfTheHighestArchitectureNotAboveTheDevice) {
  Entries entries;
  const Entry* ptx75 = entries.add(EntryKind::Ptx, 75);
  const Entry* ptx86 = entries.add(EntryKind::Ptx, 86);
  const Entry* ptx90 = entries.add(EntryKind::Ptx, 90);
  entries.add(EntryKind::Cubin, 120);
  EXPECT_EQ(selectPtx(entries.all(), {7, 0}), nullptr);
  EXPECT_EQ(selectPtx(entries.all(), {7, 5}), ptx75);
  EXPECT_EQ(selectPtx(entries.all(), {8, 0}), ptx75);
  EXPECT_EQ(selectPtx(entries.all(), {8, 9}), ptx86);
  EXPECT_EQ(selectPtx(entries.all(), {9, 0}), ptx90);
  EXPECT_EQ(selectPtx(entries.all(), {12, 1}), ptx90);
}

TEST(Selection, ArchSpecificPtxOnlyForItsArchitecture) {
  Entries entries;
  const Entry* generic = entries.add(EntryKind::Ptx, 80);
  const Entry* specific = entries.add(EntryKind::Ptx, 90, format::kArchSpecific);
  EXPECT_EQ(selectPtx(entries.all(), {9, 0}), specific);
  EXPECT_EQ(selectPtx(entries.all(), {10, 0}), generic);
  EXPECT_EQ(selectPtx(entries.all(), {8, 9}), generic);
}

TEST(Selection, FamilySpecificPtxWithinItsMajorArchitecture) {
  Entries entries;
  const Entry* generic = entries.add(EntryKind::Ptx, 90);
  const Entry* family = entries.add(EntryKind::Ptx, 100, format::kFamilySpecific);
  EXPECT_EQ(selectPtx(entries.all(), {10, 0}), family);
  EXPECT_EQ(selectPtx(entries.all(), {10, 3}), family);
  EXPECT_EQ(selectPtx(entries.all(), {12, 0}), generic);
  EXPECT_EQ(selectPtx(entries.all(), {9, 0}), generic);
}

TEST(Selection, TiesGoToTheMoreSpecificBuild) {
  Entries entries;
  entries.add(EntryKind::Ptx, 90);
  const Entry* specific = entries.add(EntryKind::Ptx, 90, format::kArchSpecific);
  entries.add(EntryKind::Ptx, 90, format::kFamilySpecific);
  EXPECT_EQ(selectPtx(entries.all(), {9, 0}), specific);
}

TEST(Selection, CubinsRunWithinTheirMajorArchitecture) {
  Entries entries;
  const Entry* sm80 = entries.add(EntryKind::Cubin, 80);
  const Entry* sm86 = entries.add(EntryKind::Cubin, 86);
  const Entry* sm90a = entries.add(EntryKind::Cubin, 90, format::kArchSpecific);
  entries.add(EntryKind::Ptx, 90);
  EXPECT_EQ(selectCubin(entries.all(), {8, 0}), sm80);
  EXPECT_EQ(selectCubin(entries.all(), {8, 6}), sm86);
  EXPECT_EQ(selectCubin(entries.all(), {8, 9}), sm86);
  EXPECT_EQ(selectCubin(entries.all(), {9, 0}), sm90a);
  EXPECT_EQ(selectCubin(entries.all(), {7, 5}), nullptr);
  EXPECT_EQ(selectCubin(entries.all(), {10, 0}), nullptr);
}

TEST(Selection, IgnoresEntriesOfOtherKinds) {
  Entries entries;
  entries.add(EntryKind::LtoIr, 90);
  Entry& unknown = const_cast<Entry&>(*entries.add(EntryKind::Ptx, 90));
  unknown.kind = 7;
  EXPECT_EQ(selectPtx(entries.all(), {9, 0}), nullptr);
  EXPECT_EQ(selectCubin(entries.all(), {9, 0}), nullptr);
  EXPECT_EQ(selectPtx({}, {9, 0}), nullptr);
}

TEST(Selection, ArchitectureNames) {
  Entries entries;
  EXPECT_EQ(entries.add(EntryKind::Ptx, 75)->archName(), "compute_75");
  EXPECT_EQ(entries.add(EntryKind::Cubin, 90, format::kArchSpecific)->archName(), "sm_90a");
  EXPECT_EQ(entries.add(EntryKind::Ptx, 100, format::kFamilySpecific)->archName(), "compute_100f");
  EXPECT_EQ(ComputeCapability::fromNumber(121), (ComputeCapability{12, 1}));
}

} // namespace
} // namespace ocelot::runtime::fatbin
