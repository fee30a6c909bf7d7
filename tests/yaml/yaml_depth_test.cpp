// The nesting bound on YAML input (yaml_depth.hpp): text nested past 200 levels is refused at the
// line it gets there, before yaml-cpp reads it (100 MB of `[` once took 11.8 GB), by the readers
// of hardware, mapping and sweep files alike; text within the bound, and every YAML file of the
// repository, reads as before. Expectations are counted by hand or taken from yaml-cpp's own tree.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <fstream>
#include <sstream>
#include <string>

#include "stream/error.hpp"
#include "stream/hardware/accelerator_reader.hpp"
#include "stream/hardware/hardware_overrides.hpp"
#include "stream/mapping/mapping.hpp"
#include "stream/sweep/sweep_file.hpp"
#include "stream/yaml/yaml_depth.hpp"
#include "stream/yaml/yaml_reader.hpp"

namespace fs = std::filesystem;
using stream::yamlx::find_deep_nesting;
using stream::yamlx::kMaxYamlDepth;

namespace {

std::string flow_list(int depth) { return std::string(depth, '[') + std::string(depth, ']'); }

// `depth` mappings inside each other in block style: line k (1-based) is "a:" indented 2(k-1).
std::string block_maps(int depth) {
  std::string text;
  for (int k = 0; k < depth; ++k) text += std::string(2 * k, ' ') + "a:\n";
  return text;
}

// The deepest level of yaml-cpp's tree (a scalar is level 0, a collection one more than its deepest child).
int tree_depth(const YAML::Node& n) {
  int deepest = 0;
  if (n.IsSequence())
    for (const auto& c : n) deepest = std::max(deepest, tree_depth(c));
  if (n.IsMap())
    for (const auto& kv : n) deepest = std::max({deepest, tree_depth(kv.first), tree_depth(kv.second)});
  return n.IsSequence() || n.IsMap() ? deepest + 1 : 0;
}

fs::path write(const std::string& name, const std::string& text) {
  const auto dir = fs::path(STREAM_BUILD_DIR) / "test_scratch" / "yaml_depth";
  fs::create_directories(dir);
  std::ofstream(dir / name, std::ios::binary) << text;
  return dir / name;
}

std::string error_of(const std::function<void()>& read) {
  try {
    read();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST(YamlDepth, FlowNestingIsBoundedAtItsColumn) {
  ASSERT_EQ(kMaxYamlDepth, 200);
  EXPECT_FALSE(find_deep_nesting(flow_list(200)));
  EXPECT_EQ(find_deep_nesting(flow_list(201))->column, 201);
  const auto deep = find_deep_nesting("x: 1\ny: " + flow_list(201));
  ASSERT_TRUE(deep);
  EXPECT_EQ(deep->line, 2);
  EXPECT_EQ(deep->column, 3 + 200);  // "y: " then the 200th bracket: the mapping is level 1
  std::string maps;  // {a: {a: ... 1}}: one level a brace
  for (int k = 0; k < 600; ++k) maps += "{a: ";
  EXPECT_TRUE(find_deep_nesting(maps + "1" + std::string(600, '}')));
  EXPECT_TRUE(find_deep_nesting(R"({"a":)" + std::string(600, '{') + std::string(600, '}') + "}"));
}

TEST(YamlDepth, BlockNestingCountsIndentationAndCompactEntries) {
  EXPECT_FALSE(find_deep_nesting(block_maps(200)));
  const auto deep = find_deep_nesting(block_maps(600));
  ASSERT_TRUE(deep);
  EXPECT_EQ(deep->line, 201);  // the 201st nested mapping's line
  std::string compact;         // - - - ... x: one sequence a "- " on one line
  for (int k = 0; k < 100000; ++k) compact += "- ";
  EXPECT_TRUE(find_deep_nesting(compact + "x\n"));
  std::string siblings;  // 10,000 entries at one level are not deep
  for (int k = 0; k < 10000; ++k) siblings += "- {a: [1, 2]}\n  k" + std::to_string(k) + ": x\n";
  EXPECT_FALSE(find_deep_nesting(siblings));
}

TEST(YamlDepth, BracketsInScalarsCommentsAndBlockScalarsAreNoNesting) {
  const std::string brackets(600, '[');
  EXPECT_FALSE(find_deep_nesting("a: \"" + brackets + "\"\nb: '" + brackets + "''s'\n"));
  EXPECT_FALSE(find_deep_nesting("a: 1  # " + brackets + "\n# " + brackets + "\n"));
  EXPECT_FALSE(find_deep_nesting("a: |\n  " + brackets + "\n\n  " + brackets + "\nb: >-\n    " + brackets + "\n"));
  std::string plain;  // a bracket inside a plain scalar in block context, 600 times
  for (int k = 0; k < 600; ++k) plain += "k" + std::to_string(k) + ": x[" + "\n";
  EXPECT_FALSE(find_deep_nesting(plain));
  EXPECT_FALSE(find_deep_nesting("a: it's [\"]\", '[']\nb: [\"x\\\"[\"]\n"));
}

// Every YAML file of the repository: within the bound, and the scan's count (the least bound it
// passes) is within a factor of two of yaml-cpp's depth, plus the scalar level.
TEST(YamlDepth, TheRepositorysFilesCountAsYamlCppNestsThem) {
  int files = 0;
  for (const auto& root : {fs::path(STREAM_INPUTS_DIR), fs::path(STREAM_TEST_DATA_DIR)})
    for (const auto& e : fs::recursive_directory_iterator(root)) {
      if (e.path().extension() != ".yaml" && e.path().extension() != ".yml") continue;
      std::ifstream in(e.path(), std::ios::binary);
      std::stringstream text;
      text << in.rdbuf();
      YAML::Node tree;
      try {
        tree = YAML::Load(text.str());
      } catch (const YAML::Exception&) {
        continue;  // a test's deliberately bad file
      }
      ++files;
      const int real = tree_depth(tree);
      EXPECT_FALSE(find_deep_nesting(text.str())) << e.path();
      EXPECT_FALSE(find_deep_nesting(text.str(), 2 * real + 1)) << e.path() << " nests " << real;
      if (real >= 2) {
        EXPECT_TRUE(find_deep_nesting(text.str(), real / 2 - 1)) << e.path() << " nests " << real;
      }
    }
  EXPECT_GT(files, 50);
}

// Hardware, mapping and sweep files nested 100,000 deep: an error at the file and line, with the
// bound, from each reader (and from the sweep's hardware variants, which read the tree themselves).
TEST(YamlDepth, HardwareMappingAndSweepFilesNested100000DeepAreRefused) {
  const std::string deep = "name: deep\ncores: " + flow_list(100000) + "\n";
  // "cores: " (7 columns) is level 1; the 200th bracket, at column 207, makes 201.
  const std::string expected = ":2:207: error: nesting deeper than 200 levels at line 2";
  const auto hw = write("hardware.yaml", deep);
  EXPECT_NE(error_of([&] { (void)stream::hardware::load_accelerator(hw); }).find(hw.string() + expected), std::string::npos)
      << error_of([&] { (void)stream::hardware::load_accelerator(hw); });
  stream::hardware::HardwareVariants variants;
  const auto variant = error_of([&] { (void)variants.load(hw, {{"name", "x"}}); });
  EXPECT_NE(variant.find(hw.string() + expected), std::string::npos) << variant;
  EXPECT_TRUE(stream::hardware::core_files_of(hw).empty());
  const auto mapping = write("mapping.yaml", deep);
  const auto m = error_of([&] { (void)stream::mapping::load_mapping_file(mapping); });
  EXPECT_NE(m.find(mapping.string() + expected), std::string::npos) << m;
  const auto sweep = write("sweep.yaml", "axes:\n  a: " + flow_list(100000) + "\n");
  const auto s = error_of([&] { (void)stream::sweep::load_sweep_file(sweep); });
  // "  a: " under `axes:` is level 2; the 199th bracket, at column 5 + 199, makes 201.
  EXPECT_NE(s.find(sweep.string() + ":2:204: error: nesting deeper than 200 levels at line 2"), std::string::npos) << s;
}

// Deep but within the bound: a sweep whose override axis takes a list nested 190 deep reads, the
// value kept whole as flow YAML.
TEST(YamlDepth, ADeepButLegalSweepFileStillLoads) {
  const auto file = write("legal.yaml", "axes:\n  hardware/name: [" + flow_list(190) + "]\n");
  const auto s = stream::sweep::load_sweep_file(file);
  ASSERT_EQ(s.axes.size(), 1u);
  ASSERT_EQ(s.axes[0].values.size(), 1u);
  EXPECT_EQ(tree_depth(YAML::Load(s.axes[0].values[0])), 190);
}
