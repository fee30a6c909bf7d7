// The cost profiles' names (cost/cost_profile.hpp): what --cost-profile and a sweep's
// `cost_profile` axis accept, and the bad-input error for anything else. What each profile does to
// an estimate is tested through the cost table (estimate_costs_test.cpp).
#include <gtest/gtest.h>

#include <string>

#include <stream/cost/cost_profile.hpp>
#include <stream/error.hpp>

using namespace stream;

TEST(CostProfile, NamesRoundTrip) {
  EXPECT_EQ(cost::parse_cost_profile("reference", "--cost-profile"), cost::CostProfile::Reference);
  EXPECT_EQ(cost::parse_cost_profile("full", "--cost-profile"), cost::CostProfile::Full);
  EXPECT_STREQ(cost::name(cost::CostProfile::Full), "full");
  EXPECT_STREQ(cost::name(cost::CostProfile::Reference), "reference");
}

TEST(CostProfile, AnUnknownNameIsABadInputNamingWhere) {
  try {
    (void)cost::parse_cost_profile("fast", "--cost-profile");
    FAIL() << "accepted an unknown profile";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("--cost-profile: unknown cost profile 'fast' (expected reference or full)"),
              std::string::npos)
        << e.what();
  }
}
