// The cost backends plugins register (registry/cost_backends.hpp): the registry stores them and
// hands them over in registration order, and the cost area's rule (cost::select_cost_backend,
// also spelled stream::select_cost_backend for plugins) chooses among what it hands over.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <stream/error.hpp>
#include <stream/registry/cost_backends.hpp>
#include <stream/registry/registries.hpp>

#include "fixed_cost_backend.hpp"

using namespace stream;

namespace {

CostBackend any_core(const std::string& name, std::int64_t priority, double latency) {
  return test::fixed_cost_backend(name, priority, latency, [](const hardware::Core&) { return true; });
}

}  // namespace

TEST(CostBackends, TheRegistryHandsOverWhatWasRegisteredInOrder) {
  Registries registries;
  PluginRegistrar first(registries, {"vendor-a", 0, 0}), second(registries, {"vendor-b", 0, 1});
  first.add_cost_backend(any_core("a", 3, 1));
  second.add_cost_backend(any_core("b", 3, 2));
  const auto list = registries.cost_backend_list();
  ASSERT_EQ(list.size(), 2u);
  EXPECT_EQ(list[0].name, "a");
  EXPECT_EQ(list[1].name, "b");
  // Equal priorities: the later registration costs the core, under either spelling of the rule.
  const hardware::Core core;
  ASSERT_NE(select_cost_backend(list, core), nullptr);
  EXPECT_EQ(select_cost_backend(list, core)->name, "b");
  EXPECT_EQ(cost::select_cost_backend(list, core), select_cost_backend(list, core));
}

TEST(CostBackends, ThePluginMayNotTakeTheBuiltInModelsName) {
  Registries registries;
  PluginRegistrar registrar(registries, {"vendor", 0, 0});
  try {
    registrar.add_cost_backend(any_core(kBuiltinCostBackend, 1, 1));
    FAIL() << "registered a backend named " << kBuiltinCostBackend;
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("plugin 'vendor' registered a cost backend named 'zigzag'"), std::string::npos)
        << e.what();
  }
  EXPECT_TRUE(registries.cost_backend_list().empty());
}
