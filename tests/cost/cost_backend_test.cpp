// Which cost backend costs a core (cost/cost_backend.hpp): the claiming backend of highest
// priority, a tie to the later registration, the built-in model (nullptr) when no backend of
// priority 0 or more claims the core, as the reference's select_backend chooses.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <stream/cost/cost_backend.hpp>

using namespace stream;

namespace {

// A backend of `priority` claiming every compute core (whose costs these tests never ask for).
CostBackend claims_compute(const std::string& name, std::int64_t priority) {
  CostBackend b;
  b.name = name;
  b.priority = priority;
  b.claims = [](const hardware::Core& c) { return c.type.kind == hardware::CoreKind::Compute; };
  return b;
}

hardware::Core aie_core(hardware::CoreKind kind) {
  hardware::Core c;
  c.type = {hardware::Namespace::Aie2, kind};
  return c;
}

}  // namespace

TEST(CostBackend, HighestPriorityWinsAndATieGoesToTheLaterRegistration) {
  const auto compute = aie_core(hardware::CoreKind::Compute), memory = aie_core(hardware::CoreKind::Memory);
  const std::vector<CostBackend> bs{claims_compute("a", 5), claims_compute("b", 7), claims_compute("c", 7),
                                    claims_compute("d", 6)};
  ASSERT_NE(cost::select_cost_backend(bs, compute), nullptr);
  EXPECT_EQ(cost::select_cost_backend(bs, compute)->name, "c");  // 7 beats 5 and 6; c is later than b
  EXPECT_EQ(cost::select_cost_backend(bs, memory), nullptr);     // nobody claims it: the built-in model
}

TEST(CostBackend, TheBuiltInModelCountsAsRegisteredFirstWithPriorityZero) {
  const auto compute = aie_core(hardware::CoreKind::Compute);
  // A priority-0 plugin backend ties with the built-in and, registered later, wins; a negative one loses.
  ASSERT_NE(cost::select_cost_backend({claims_compute("zero", 0)}, compute), nullptr);
  EXPECT_EQ(cost::select_cost_backend({claims_compute("zero", 0)}, compute)->name, "zero");
  EXPECT_EQ(cost::select_cost_backend({claims_compute("neg", -1)}, compute), nullptr);
  EXPECT_EQ(cost::select_cost_backend({}, compute), nullptr);
}

TEST(CostBackend, ABackendWithoutAClaimsPredicateClaimsNothing) {
  CostBackend unset = claims_compute("unset", 9);
  unset.claims = nullptr;
  EXPECT_EQ(cost::select_cost_backend({unset}, aie_core(hardware::CoreKind::Compute)), nullptr);
}
