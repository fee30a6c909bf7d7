// The workload graph report.html draws, on the int8 ResNet-18 (ten groups): every layer once with
// its group, the edges a reader of the model expects (a residual Add reads the block's second
// convolution and, across a group boundary, the max-pool before the block; the classifier reads
// the global average pool through Flatten, a layout operator), and columns that are the longest
// chain of layers before each, counted by hand.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "report_runs.hpp"

using nlohmann::json;

namespace {

json report_data(const std::filesystem::path& run) {
  const auto html = stream::test::read(run / "report.html");
  const std::string open = "<script type=\"application/json\" id=\"report-data\">";
  const auto a = html.find(open);
  if (a == std::string::npos) return nullptr;
  return json::parse(html.substr(a + open.size(), html.find("</script>", a) - a - open.size()));
}

}  // namespace

TEST(WorkloadGraph, ResNet18LayersEdgesAndColumns) {
  const json data = report_data(stream::test::multi_group_run("workload_graph"));
  ASSERT_TRUE(data.is_object());
  const auto& w = data["workload_graph"];
  // 20 convolutions, 17 ReLUs, 8 residual Adds, the max-pool, the global average pool, the Gemm.
  ASSERT_EQ(w["nodes"].size(), 48u);
  std::map<std::string, int> at;
  std::map<std::string, int> group_of;
  for (std::size_t i = 0; i < w["nodes"].size(); ++i) {
    at[w["nodes"][i]["name"]] = static_cast<int>(i);
    group_of[w["nodes"][i]["name"]] = w["nodes"][i]["group"];
  }
  ASSERT_EQ(at.size(), 48u) << "a layer appears twice";
  // Each group's list of layers is the graph's layers of that group, and together they are all.
  std::size_t listed = 0;
  for (const auto& g : data["groups"]) {
    for (const auto& name : g["layers"]) {
      EXPECT_EQ(group_of.at(name.get<std::string>()), g["index"].get<int>()) << name;
    }
    listed += g["layers"].size();
  }
  EXPECT_EQ(listed, 48u);
  std::set<std::pair<int, int>> edges;
  for (const auto& e : w["edges"]) edges.insert({e[0].get<int>(), e[1].get<int>()});
  auto edge = [&](const std::string& from, const std::string& to) { return edges.count({at.at(from), at.at(to)}) == 1; };
  EXPECT_TRUE(edge("/layer1/layer1.0/conv2/Conv", "/layer1/layer1.0/Add"));
  EXPECT_TRUE(edge("/maxpool/MaxPool", "/layer1/layer1.0/Add"));
  EXPECT_NE(group_of.at("/maxpool/MaxPool"), group_of.at("/layer1/layer1.0/Add"));
  EXPECT_TRUE(edge("/avgpool/GlobalAveragePool", "/fc/Gemm"));
  EXPECT_FALSE(edge("/conv1/Conv", "/layer1/layer1.0/Add"));
  // conv1, relu, maxpool, layer1.0's conv1, relu, conv2, then the Add: column 6.
  EXPECT_EQ(w["nodes"][static_cast<std::size_t>(at.at("/conv1/Conv"))]["column"], 0);
  EXPECT_EQ(w["nodes"][static_cast<std::size_t>(at.at("/layer1/layer1.0/Add"))]["column"], 6);
  // Edges: every layer but the first reads one layer, each of the 8 residual Adds two.
  EXPECT_EQ(w["edges"].size(), 47u + 8u);
}
