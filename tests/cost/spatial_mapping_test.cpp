// The spatial mapping (cost/spatial_mapping.hpp): the order of the hint set, against the CPython
// set order the reference tabulates.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "stream/cost/spatial_mapping.hpp"

namespace {

using namespace stream::cost;

TEST(SpatialMapping, HintOrderMatchesTheTabulatedCPythonSetOrder) {
  std::ifstream in(std::filesystem::path(STREAM_TEST_DATA_DIR) / "reference/oracle/hint_set_order.json");
  ASSERT_TRUE(in);
  const auto j = nlohmann::json::parse(in);
  for (const auto& [n, names] : j["set_iteration_order_by_num_dims"].items()) {
    std::vector<int> expected;
    for (const auto& s : names) expected.push_back(std::stoi(s.get<std::string>().substr(1)));
    EXPECT_EQ(hint_set_order(std::stoi(n)), expected) << n << " dims";
  }
}

}  // namespace
