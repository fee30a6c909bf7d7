// build_run_spec (host/run_spec_builder.hpp): the one place a request's text options become the
// pipeline's RunSpec, for every front end. Each option lands in its field; a bad value is an
// error naming the option before any work; `search[?...]` asks for the mapping search instead
// of a mapping file.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include <stream/error.hpp>

#include "run_spec_builder.hpp"

using stream::host::build_run_spec;
using stream::host::RunRequest;
namespace pipeline = stream::pipeline;

TEST(RunSpecBuilder, TheDefaultsAreTheAutomaticPathsAndStreamRuns) {
  const auto built = build_run_spec(RunRequest{}, {});
  EXPECT_FALSE(built.spec.has_mapping());
  EXPECT_FALSE(built.search.has_value());
  EXPECT_EQ(built.spec.cut_mode, pipeline::CutMode::Auto);
  EXPECT_EQ(built.spec.order, pipeline::WorkloadOrder::ByName);  // scheduled_workload may change it
  EXPECT_EQ(built.spec.layout, stream::layout::LayoutMode::Fixed);
  EXPECT_TRUE(built.spec.memory_fallback);
  EXPECT_TRUE(built.spec.deduplicate);
  EXPECT_FALSE(built.spec.per_layer_check);  // `stream run` turns it on for its hint only
}

TEST(RunSpecBuilder, EachOptionLandsInItsField) {
  RunRequest r;
  r.fusion_cut_points = "conv1,,relu2";
  r.threads = 3;
  r.time_limit = 2.5;
  r.no_memory_fallback = true;
  r.no_dedup = true;
  r.layout = "choose";
  r.cost_profile = "full";
  r.compat = "stream-1.13";
  r.intra_core_tiling = "Conv1.D0=1";
  r.nb_cols_to_use = 8;
  const auto s = build_run_spec(r, {}).spec;
  EXPECT_EQ(s.cut_mode, pipeline::CutMode::Explicit);
  EXPECT_EQ(s.cut_points, (std::vector<std::string>{"conv1", "relu2"}));  // the empty item dropped
  EXPECT_EQ(s.threads, 3);
  EXPECT_EQ(s.time_limit_s, 2.5);
  EXPECT_FALSE(s.memory_fallback);
  EXPECT_FALSE(s.deduplicate);
  EXPECT_EQ(s.layout, stream::layout::LayoutMode::Choose);
  EXPECT_EQ(s.cost_profile, stream::cost::CostProfile::Full);
  EXPECT_EQ(s.compat, stream::Compat::Stream113);
  ASSERT_EQ(s.intra_core_tiling.size(), 1u);
  EXPECT_EQ(s.nb_cols_to_use, 8);
  r.fusion_cut_points = "per-layer";
  EXPECT_EQ(build_run_spec(r, {}).spec.cut_mode, pipeline::CutMode::PerLayer);
}

TEST(RunSpecBuilder, ASearchIsNotAMappingFile) {
  RunRequest r;
  r.mapping = "search?max=2";
  const auto built = build_run_spec(r, {});
  ASSERT_TRUE(built.search.has_value());
  EXPECT_EQ(built.search->max, 2u);
  EXPECT_EQ(built.search_text, "search?max=2");
  EXPECT_FALSE(built.spec.has_mapping());
}

TEST(RunSpecBuilder, ABadOptionIsAnErrorNamingIt) {
  auto message = [](RunRequest r) {
    try {
      (void)build_run_spec(r, {});
    } catch (const stream::Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  // Each bad request, and the text its error must contain.
  const std::vector<std::pair<std::function<void(RunRequest&)>, std::string>> cases = {
      {[](RunRequest& r) { r.layout = "sideways"; }, "--layout"},
      {[](RunRequest& r) { r.cost_profile = "cheap"; }, "--cost-profile"},
      {[](RunRequest& r) { r.compat = "stream-0.1"; }, "--compat"},
      {[](RunRequest& r) { r.mapping = "search?maxx=2"; }, "maxx"},
      {[](RunRequest& r) { r.mapping = "no/such/mapping.yaml"; }, "no/such/mapping.yaml"},
      {[](RunRequest& r) { r.mapping = "optimize?evaluations=0"; }, "evaluations must be an integer"},
      {[](RunRequest& r) {
         r.mapping = "optimize";
         r.layout = "choose";
       },
       "--mapping optimize: --layout choose is not supported"},
  };
  for (const auto& [spoil, named] : cases) {
    RunRequest r;
    spoil(r);
    const std::string m = message(r);
    EXPECT_NE(m.find(named), std::string::npos) << named << ": " << m;
  }
}
