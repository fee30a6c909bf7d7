// Mapping files: the reference's valid files load with the expected content, its legacy files are
// rejected with the schema's messages, one negative test per message, first-match-wins, writing
// and reading back, and the command-line tiling syntax.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "stream/ir/node.hpp"
#include "stream/mapping/mapping.hpp"

#include "expect_diagnostic.hpp"

namespace fs = std::filesystem;
using namespace stream;
using namespace stream::mapping;

namespace {

const fs::path kInputs = fs::path(STREAM_TEST_DATA_DIR) / "reference" / "stream-inputs";

std::vector<Diagnostic> errors_of(const std::string& text) {
  try {
    (void)parse_mapping_text(text, "map.yaml");
  } catch (const ValidationError& e) {
    return e.diagnostics();
  }
  return {};
}

std::vector<Diagnostic> file_errors(const fs::path& p) {
  try {
    (void)load_mapping_file(p);
  } catch (const ValidationError& e) {
    return e.diagnostics();
  }
  return {};
}

using stream::test::expect_one;

bool any_contains(const std::vector<Diagnostic>& ds, const std::string& needle) {
  return std::any_of(ds.begin(), ds.end(), [&](const Diagnostic& d) { return d.message.find(needle) != std::string::npos; });
}

}  // namespace

TEST(MappingFiles, TpuLikeQuadCore) {
  const Mapping m = load_mapping_file(kInputs / "mapping/tpu_like_quad_core.yaml");
  ASSERT_EQ(m.layers.size(), 8u);
  EXPECT_FALSE(m.bare_list);
  const LayerMapping& conv = m.layers[0];
  EXPECT_EQ(conv.name, "Conv");
  EXPECT_EQ(conv.cores(), (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(conv.splits(), (std::vector<DimSplit>{{6, 4}}));
  EXPECT_EQ(m.layers[1].splits(), (std::vector<DimSplit>{{2, 4}}));  // Gemm D2
  EXPECT_EQ(m.layers[2].cores(), (std::vector<int>{4}));            // Pool
  EXPECT_TRUE(m.layers[2].splits().empty());
  EXPECT_EQ(m.layers[6].cores(), (std::vector<int>{5}));            // Add
  ASSERT_EQ(m.fused_groups.size(), 1u);
  EXPECT_EQ(m.fused_groups[0].name, "Fused_Group_1");
  ASSERT_EQ(m.fused_groups[0].intra_core_tiling.size(), 1u);
  EXPECT_EQ(m.fused_groups[0].intra_core_tiling[0], (TileEntry{"Conv", 0, 1}));
}

TEST(MappingFiles, TwoConvTestingMapping) {
  const Mapping m = load_mapping_file(kInputs / "testing/mapping/2conv_1_32_32_8_16_32_3.yaml");
  ASSERT_EQ(m.layers.size(), 2u);
  EXPECT_EQ(m.layers[1].name, "Conv2");
  ASSERT_TRUE(m.layers[0].kernel.has_value());
  EXPECT_EQ(m.layers[0].kernel->name, "conv");
  EXPECT_DOUBLE_EQ(m.layers[0].kernel->utilization, 100.0);
  ASSERT_EQ(m.runtime_args.size(), 4u);
  EXPECT_EQ(m.runtime_args[1].tensor, "weights_1");
  EXPECT_EQ(m.fused_groups[0].layers, (std::vector<std::string>{"Conv1", "Conv2"}));
}

TEST(MappingFiles, ResnetAndSwigluMappings) {
  const Mapping r = load_mapping_file(kInputs / "mapping/resnet18_tpu_quad_core.yaml");
  EXPECT_EQ(r.fused_groups.size(), 11u);
  // Node names with slashes and dots split at the last ".D".
  EXPECT_EQ(r.fused_groups[1].intra_core_tiling[0], (TileEntry{"/layer1/layer1.0/conv2/Conv", 2, 1}));
  const Mapping f = load_mapping_file(kInputs / "mapping/swiglu_tpu_v7_fused.yaml");
  ASSERT_EQ(f.layers.size(), 5u);
  EXPECT_EQ(f.layers[0].cores().size(), 32u);
  EXPECT_EQ(f.layers[2].cores(), (std::vector<int>{8, 18, 28, 38}));
  ASSERT_EQ(f.fused_groups[0].intra_core_tiling.size(), 4u);
  EXPECT_EQ(f.fused_groups[0].intra_core_tiling[3], (TileEntry{"Gemm_Down", 1, 16}));
  const Mapping l = load_mapping_file(kInputs / "mapping/swiglu_tpu_v7_layer_by_layer.yaml");
  EXPECT_EQ(l.fused_groups.size(), 5u);
}

TEST(MappingFiles, LegacyFilesDoNotValidate) {
  // Flat core_allocation and `intra_core_tiling: [D, all]` in layer entries (spec §3.1).
  for (const char* f : {"array_and_vec.yaml", "simba.yaml", "simba_small.yaml", "simba_small_fixed.yaml"}) {
    SCOPED_TRACE(f);
    auto errors = file_errors(kInputs / "mapping" / f);
    ASSERT_FALSE(errors.empty());
    EXPECT_TRUE(any_contains(errors, "unknown key 'intra_core_tiling'"));
    EXPECT_TRUE(any_contains(errors, "'core_allocation' must be a list of core groups"));
  }
  EXPECT_TRUE(any_contains(file_errors(kInputs / "mapping/simba_small_fixed.yaml"), "unknown key 'core_allocation_is_fixed'"));
}

TEST(MappingFiles, RepeatedKeyWarnsWithItsLine) {
  // /maxpool/MaxPool repeats core_allocation_is_fixed (lines 94 and 97). The file is a legacy
  // one (flat core_allocation, unknown key), so it fails, but the repeat is reported as a warning.
  Diagnostics diag;
  EXPECT_THROW((void)load_mapping_file(kInputs / "mapping/tpu_like_quad_core_resnet18_fixed_split.yaml", &diag),
               ValidationError);
  auto warnings = diag.warnings();
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0].where.line, 97);
  EXPECT_NE(warnings[0].message.find("'core_allocation_is_fixed' given twice (first at line 94, again at line 97)"),
            std::string::npos)
      << warnings[0].message;
}

TEST(MappingValidation, RootKind) {
  expect_one(errors_of("42\n"), "Mapping file must be a mapping with a top-level 'layers' list.", 1);
  expect_one(errors_of("fused_groups: []\n"), "Mapping file must contain a 'layers' entry.", 1);
}

TEST(MappingValidation, BareListIsLayers) {
  const Mapping m = parse_mapping_text("- name: Conv\n  core_allocation: [[0]]\n", "map.yaml");
  EXPECT_TRUE(m.bare_list);
  ASSERT_EQ(m.layers.size(), 1u);
  EXPECT_TRUE(m.fused_groups.empty());
}

TEST(MappingValidation, SplitMustBePositive) {
  expect_one(errors_of("layers:\n- name: Conv\n  core_allocation: [[0, 1]]\n  inter_core_tiling: [[{dim: D1, split: 0}]]\n"),
             "Layer 'Conv' split must be a positive integer; got 0.", 4);
}

TEST(MappingValidation, TileMustBePositive) {
  expect_one(errors_of("layers:\n- name: Conv\n  core_allocation: [[0]]\nfused_groups:\n- name: G\n  layers: [Conv]\n"
                       "  intra_core_tiling:\n  - {dim: Conv.D0, tile: -2}\n"),
             "Fused group 'G' tile must be a positive integer; got -2.", 8);
}

TEST(MappingValidation, FusedGroupUnknownLayers) {
  expect_one(errors_of("layers:\n- name: Conv\n  core_allocation: [[0]]\nfused_groups:\n- name: G\n  layers: [Conv, Relu, Add]\n"),
             "Fused group 'G' references unknown layers ['Relu', 'Add']", 6);
}

TEST(MappingValidation, UnknownKeys) {
  expect_one(errors_of("layers:\n- name: Conv\n  core_allocation: [[0]]\n  memory_allocation: []\n"),
             "unknown key 'memory_allocation'", 4);
  expect_one(errors_of("layers: []\nfused_groups:\n- name: G\n  layers: []\n  order: 1\n"), "unknown key 'order'", 5);
  expect_one(errors_of("layers: []\nextra: 1\n"), "unknown key 'extra'", 2);
}

TEST(MappingValidation, NameAndCoreAllocationRequired) {
  expect_one(errors_of("layers:\n- core_allocation: [[0]]\n"), "missing required key 'name'", 2);
  expect_one(errors_of("layers:\n- name: Conv\n"), "missing required key 'core_allocation'", 2);
}

TEST(MappingValidation, OneCoreGroup) {
  expect_one(errors_of("layers:\n- name: Conv\n  core_allocation: [[0], [1]]\n"), "exactly one core group is supported", 3);
}

TEST(MappingValidation, DimPatterns) {
  expect_one(errors_of("layers:\n- name: Conv\n  core_allocation: [[0]]\n  inter_core_tiling: [[{dim: K, split: 2}]]\n"),
             "dim must be D<n>", 4);
  expect_one(errors_of("layers:\n- name: Conv\n  core_allocation: [[0]]\nfused_groups:\n- name: G\n  layers: [Conv]\n"
                       "  intra_core_tiling: [{dim: D0, tile: 1}]\n"),
             "dim must be <Node>.D<n>", 7);
}

TEST(MappingValidation, InnerTilingListsMustBeEqual) {
  expect_one(errors_of("layers:\n- name: Conv\n  core_allocation: [[0, 1]]\n"
                       "  inter_core_tiling: [[{dim: D1, split: 2}], [{dim: D2, split: 2}]]\n"),
             "all inter_core_tiling lists must be equal", 4);
}

TEST(MappingValidation, FirstMatchingEntryWins) {
  const Mapping m = parse_mapping_text(
      "- name: Conv\n  core_allocation: [[0]]\n- name: conv_a\n  core_allocation: [[1]]\n", "map.yaml");
  Node n;
  n.name = "conv_a";
  n.type = "Conv";
  // The type entry comes first, so it wins over the exact name (as the reference's single pass).
  EXPECT_EQ(m.for_node(n).cores(), (std::vector<int>{0}));
  Node other;
  other.name = "relu";
  other.type = "Relu";
  EXPECT_EQ(m.find(other), nullptr);
  try {
    (void)m.for_node(other);
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("No mapping data found for node 'relu'"), std::string::npos);
  }
}

TEST(MappingValidation, WriteAndReadBack) {
  const Mapping m = load_mapping_file(kInputs / "testing/mapping/2conv_1_32_32_8_16_32_3.yaml");
  const std::string text = to_yaml(m);
  const Mapping back = parse_mapping_text(text, "back.yaml");
  ASSERT_EQ(back.layers.size(), m.layers.size());
  for (std::size_t i = 0; i < m.layers.size(); ++i) {
    EXPECT_EQ(back.layers[i].name, m.layers[i].name);
    EXPECT_EQ(back.layers[i].core_allocation, m.layers[i].core_allocation);
    EXPECT_EQ(back.layers[i].inter_core_tiling, m.layers[i].inter_core_tiling);
    EXPECT_EQ(back.layers[i].kernel, m.layers[i].kernel);
  }
  ASSERT_EQ(back.fused_groups.size(), 1u);
  EXPECT_EQ(back.fused_groups[0].layers, m.fused_groups[0].layers);
  EXPECT_EQ(back.fused_groups[0].intra_core_tiling, m.fused_groups[0].intra_core_tiling);
  EXPECT_EQ(back.runtime_args.size(), 4u);
}

TEST(MappingValidation, CommandLineTiling) {
  auto t = parse_tiling_spec("Gemm_Left.D1=128, Gemm_Down.D2=64,/layer1/conv.1/Conv.D0=1");
  ASSERT_EQ(t.size(), 3u);
  EXPECT_EQ(t[0], (TileEntry{"Gemm_Left", 1, 128}));
  EXPECT_EQ(t[1], (TileEntry{"Gemm_Down", 2, 64}));
  EXPECT_EQ(t[2], (TileEntry{"/layer1/conv.1/Conv", 0, 1}));
  EXPECT_THROW((void)parse_tiling_spec("Gemm_Left.D1"), Error);
  EXPECT_THROW((void)parse_tiling_spec("Gemm_Left.K=4"), Error);
  EXPECT_THROW((void)parse_tiling_spec("Gemm_Left.D1=0"), Error);
}

TEST(MappingRobustness, MutatedMappingsNeverCrash) {
  std::vector<fs::path> files;
  for (const char* dir : {"mapping", "testing/mapping"})
    for (const auto& e : fs::directory_iterator(kInputs / dir))
      if (e.path().extension() == ".yaml") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  std::mt19937 rng(7);
  static const std::string junk = ":-[]{},&*!|>'\"#%@ \t\n?0123456789_.~D";
  int total = 0;
  for (const auto& f : files) {
    std::ifstream in(f);
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string text = ss.str();
    for (int i = 0; i < 80; ++i) {
      std::string s = text;
      for (int r = 0; r < 3; ++r) {
        const std::size_t pos = std::uniform_int_distribution<std::size_t>(0, s.size())(rng);
        switch (rng() % 3) {
          case 0:
            if (pos < s.size()) s.erase(pos, 1);
            break;
          case 1:
            s.insert(pos, 1, junk[rng() % junk.size()]);
            break;
          default:
            s.resize(pos);
        }
      }
      ++total;
      try {
        (void)parse_mapping_text(s, "mutant.yaml");
      } catch (const Error&) {
      } catch (const std::exception& e) {
        ADD_FAILURE() << f << " #" << i << ": " << e.what();
      }
    }
  }
  EXPECT_EQ(total, 80 * static_cast<int>(files.size()));
}

// `workload: automatic-path` (written by `--mapping optimize`) is read and written back; any other
// value than the two is an error naming the key.
TEST(MappingFile, SaysWhichWorkloadItMaps) {
  const std::string text = "layers:\n  - {name: a, core_allocation: [[0]]}\nworkload: automatic-path\n";
  const auto m = mapping::parse_mapping_text(text, "m.yaml");
  EXPECT_EQ(m.workload, mapping::MappedWorkload::AutomaticPath);
  EXPECT_EQ(mapping::parse_mapping_text(mapping::to_yaml(m), "again.yaml").workload, mapping::MappedWorkload::AutomaticPath);
  EXPECT_EQ(mapping::parse_mapping_text("layers:\n  - {name: a, core_allocation: [[0]]}\n", "m.yaml").workload,
            mapping::MappedWorkload::AsLoaded);
  try {
    (void)mapping::parse_mapping_text("layers:\n  - {name: a, core_allocation: [[0]]}\nworkload: optimized\n", "bad.yaml");
    ADD_FAILURE() << "accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("'workload' must be as-loaded or automatic-path, got 'optimized'"), std::string::npos)
        << e.what();
  }
}
