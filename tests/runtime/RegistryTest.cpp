#include "runtime/core/Registry.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

namespace ocelot::runtime {
namespace {

char gStubs[64];

std::unique_ptr<FatbinaryRegistration> registration() {
  return std::make_unique<FatbinaryRegistration>();
}

TEST(Registry, FindsWhatWasRegistered) {
  Registry registry;
  FatbinaryRegistration& first = registry.addFatbinary(registration());
  FatbinaryRegistration& second = registry.addFatbinary(registration());
  EXPECT_EQ(first.id, 1u);
  EXPECT_EQ(second.id, 2u);
  EXPECT_EQ(registry.findFatbinary(first.handle()), &first);
  EXPECT_EQ(registry.findFatbinary(nullptr), nullptr);

  ASSERT_TRUE(registry.addFunction(first.handle(), &gStubs[0], "kernel"));
  EXPECT_FALSE(registry.addFunction(nullptr, &gStubs[1], "orphan"));
  const RegisteredFunction* kernel = registry.findFunction(&gStubs[0]);
  ASSERT_NE(kernel, nullptr);
  EXPECT_EQ(kernel->deviceName, "kernel");
  EXPECT_EQ(kernel->owner, &first);
  EXPECT_EQ(registry.findKernel(Registry::kernelHandle(*kernel)), kernel);
  EXPECT_EQ(registry.findKernel(&gStubs[0]), nullptr);

  RegisteredVariable variable;
  variable.hostAddress = &gStubs[2];
  variable.deviceName = "table";
  variable.size = 16;
  ASSERT_TRUE(registry.addVariable(second.handle(), variable));
  const RegisteredVariable* found = registry.findVariable(&gStubs[2]);
  ASSERT_NE(found, nullptr);
  EXPECT_EQ(found->owner, &second);
  EXPECT_EQ(registry.variablesOf(second).size(), 1u);
  EXPECT_EQ(registry.fatbinaries().size(), 2u);
}

TEST(Registry, AHostFunctionRegisteredTwiceSurvivesOneUnregistration) {
  Registry registry;
  FatbinaryRegistration& first = registry.addFatbinary(registration());
  FatbinaryRegistration& second = registry.addFatbinary(registration());
  registry.addFunction(first.handle(), &gStubs[0], "instance");
  registry.addFunction(second.handle(), &gStubs[0], "instance");
  EXPECT_EQ(registry.findFunction(&gStubs[0])->owner, &first);
  void** secondHandle = second.handle();
  auto removed = registry.removeFatbinary(first.handle());
  ASSERT_NE(removed, nullptr);
  const RegisteredFunction* survivor = registry.findFunction(&gStubs[0]);
  ASSERT_NE(survivor, nullptr);
  EXPECT_EQ(survivor->owner->handle(), secondHandle);
  EXPECT_EQ(registry.removeFatbinary(removed->handle()), nullptr);
}

TEST(Registry, ConcurrentRegistrationAndLookups) {
  Registry registry;
  constexpr int kThreads = 8, kPerThread = 200;
  static char stubs[kThreads][kPerThread];
  std::atomic<int> missing{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      FatbinaryRegistration& own = registry.addFatbinary(registration());
      for (int i = 0; i < kPerThread; ++i) {
        registry.addFunction(own.handle(), &stubs[t][i], "k" + std::to_string(i));
        if (registry.findFunction(&stubs[t][i]) == nullptr)
          ++missing;
        (void)registry.findFunction(&stubs[(t + 1) % kThreads][i]);
      }
    });
  for (auto& thread : threads)
    thread.join();
  EXPECT_EQ(missing, 0);
  EXPECT_EQ(registry.fatbinaries().size(), size_t{kThreads});
}

} // namespace
} // namespace ocelot::runtime
