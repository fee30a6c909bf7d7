// group_<i>/layouts.yaml (report/layouts_file.hpp) writes the figures the run priced
// (GroupResult::layout_prices): a group carrying hand-made prices and an empty schedule, which
// would price nothing, is written with exactly those prices.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <string>

#include <stream/pipeline/run.hpp>
#include <stream/report/layouts_file.hpp>

#include "bundled_hardware.hpp"

using namespace stream;

namespace {

// T [4, 8] read by node n in column tiles: 640 cycles row-major, 96 in the reader's order (1,0).
layout::TensorLayoutPrice column_read() {
  layout::TensorLayoutPrice p;
  p.tensor = "T";
  p.shape = {4, 8};
  p.transfers = {"Transfer(T)"};
  p.candidates = {{"model", Layout{}, 640}, {"reader n", Layout{{1, 0}, std::nullopt}, 96}};
  p.cheapest = 1;
  return p;
}

}  // namespace

TEST(LayoutsFile, WritesThePricesTheRunComputed) {
  pipeline::RunResult r;
  pipeline::GroupResult g;
  g.layout_prices = std::vector<layout::TensorLayoutPrice>{column_read()};
  const YAML::Node doc = YAML::Load(report::layouts_yaml(r, g, test::bundled_accelerator()));
  EXPECT_EQ(doc["layout_mode"].as<std::string>(), "fixed");
  ASSERT_EQ(doc["tensors"].size(), 1u);
  const auto t = doc["tensors"][0];
  EXPECT_EQ(t["tensor"].as<std::string>(), "T");
  EXPECT_EQ(t["layout"].as<std::string>(), "(0,1)");
  EXPECT_EQ(t["transfers"][0].as<std::string>(), "Transfer(T)");
  ASSERT_EQ(t["candidates"].size(), 2u);
  EXPECT_EQ(t["candidates"][0]["cycles"].as<int>(), 640);
  EXPECT_EQ(t["candidates"][1]["layout"].as<std::string>(), "(1,0)");
  EXPECT_EQ(t["candidates"][1]["cycles"].as<int>(), 96);
  EXPECT_EQ(t["cheapest"].as<std::string>(), "reader n");
  EXPECT_EQ(t["chosen"].as<std::string>(), "model");
  EXPECT_EQ(doc["conversions"].size(), 0u);
}

TEST(LayoutsFile, AGroupTheRunDidNotPriceHasNoTensors) {
  pipeline::RunResult r;
  r.layout.mode = layout::LayoutMode::Choose;
  const YAML::Node doc = YAML::Load(report::layouts_yaml(r, pipeline::GroupResult{}, test::bundled_accelerator()));
  EXPECT_EQ(doc["layout_mode"].as<std::string>(), "choose");
  EXPECT_EQ(doc["tensors"].size(), 0u);
  EXPECT_EQ(doc["conversions"].size(), 0u);
}
