// One negative test per validation rule of the accelerator reader (hardware/accelerator_reader.hpp):
// the read fails, and the error names the rule and the line where the problem is. Plus the YAML
// 1.1 reading rules (repeated keys, underscores), "collect every problem before failing", and the
// interconnect's semantics.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "stream/hardware/accelerator_reader.hpp"

#include "expect_diagnostic.hpp"

namespace fs = std::filesystem;
using namespace stream;
using namespace stream::hardware;

namespace {

const fs::path kHardwareDir = fs::path(STREAM_TEST_DATA_DIR) / "reference" / "stream-inputs" / "hardware";

/// The errors of reading an accelerator text (empty when it reads fine).
std::vector<Diagnostic> accelerator_errors(const std::string& text) {
  try {
    (void)parse_accelerator_text(text, "acc.yaml", kHardwareDir);
  } catch (const ValidationError& e) {
    return e.diagnostics();
  }
  return {};
}


using stream::test::expect_one;

// A valid two-core accelerator; tests replace pieces of it. Line numbers are 1-based.
const std::string kValid =
    "name: test\n"                          // 1
    "cores:\n"                              // 2
    "  0: ./cores/tpu_like.yaml\n"          // 3
    "  1: ./cores/offchip.yaml\n"           // 4
    "offchip_core_id: 1\n"                  // 5
    "core_connectivity:\n"                  // 6
    "  - type: link\n"                      // 7
    "    cores: [0, 1]\n"                   // 8
    "    bandwidth: 32\n";                  // 9

using stream::test::replace;

}  // namespace

TEST(AcceleratorValidation, ValidBaseLoads) { EXPECT_TRUE(accelerator_errors(kValid).empty()); }

TEST(AcceleratorValidation, UnknownKey) {
  expect_one(accelerator_errors(kValid + "frequency: 1000\n"), "unknown key 'frequency'", 10);
}

TEST(AcceleratorValidation, MissingName) {
  expect_one(accelerator_errors(replace(kValid, "name: test\n", "")), "missing required key 'name'", 1);
}

TEST(AcceleratorValidation, CoreIdNotAnInteger) {
  expect_one(accelerator_errors(replace(kValid, "  1: ./cores/offchip", "  one: ./cores/offchip")),
             "Invalid core id in `cores`: id is not a positive integer", 4);
}

TEST(AcceleratorValidation, CoreIdsMustBeContiguous) {
  auto errors = accelerator_errors(replace(replace(kValid, "  1: ./cores/offchip", "  2: ./cores/offchip"),
                                           "offchip_core_id: 1", "offchip_core_id: 2"));
  ASSERT_FALSE(errors.empty());
  EXPECT_NE(errors[0].message.find("not all core ids in range are in use"), std::string::npos) << errors[0].str();
  EXPECT_EQ(errors[0].where.line, 3);  // the `cores` mapping
}

TEST(AcceleratorValidation, OffchipIdMustExist) {
  expect_one(accelerator_errors(replace(kValid, "offchip_core_id: 1", "offchip_core_id: 7")),
             "offchip_core_id does not correspond to any entry in `cores`", 5);
}

TEST(AcceleratorValidation, CoreFileNotFound) {
  expect_one(accelerator_errors(replace(kValid, "./cores/offchip.yaml", "./cores/no_such_core.yaml")),
             "Core with filename `./cores/no_such_core.yaml` not found", 4);
}

TEST(AcceleratorValidation, CoreReferencePattern) {
  expect_one(accelerator_errors(replace(kValid, "./cores/offchip.yaml", "../cores/offchip.yaml")),
             "is not a relative path", 4);
}

TEST(AcceleratorValidation, OneNamespacePerAccelerator) {
  const std::string text = replace(kValid, "./cores/offchip.yaml", "\n    name: tile\n    type: aie2.shim\n"
                                                                   "    max_object_fifo_depth: 4\n"
                                                                   "    memory: {capacity: 8, bandwidth_min: 1, bandwidth_max: 2}");
  auto errors = accelerator_errors(text + "core_coordinates:\n  0: [0, 0]\n  1: [0, 1]\n");
  ASSERT_EQ(errors.size(), 1u) << (errors.empty() ? "" : errors[0].str());
  EXPECT_NE(errors[0].message.find("All cores in an accelerator must share the same namespace"), std::string::npos);
  EXPECT_EQ(errors[0].where.line, 4);
}

TEST(AcceleratorValidation, Aie2NeedsCoordinates) {
  const fs::path aie = fs::path(STREAM_TEST_DATA_DIR) / "reference" / "stream-inputs" / "aie" / "hardware";
  const std::string text =
      "name: aie\n"
      "cores:\n"
      "  0: shim_dma.yaml\n"
      "  1: aie_tile.yaml\n"
      "offchip_core_id: 0\n"
      "core_connectivity: [{type: link, cores: [0, 1], bandwidth: 64}]\n";
  try {
    (void)parse_accelerator_text(text, "aie.yaml", aie);
    FAIL() << "expected an error";
  } catch (const ValidationError& e) {
    ASSERT_EQ(e.diagnostics().size(), 1u);
    EXPECT_NE(e.diagnostics()[0].message.find("require `core_coordinates`"), std::string::npos);
    EXPECT_EQ(e.diagnostics()[0].where.line, 1);
  }
  EXPECT_NO_THROW((void)parse_accelerator_text(text + "core_coordinates: {0: [0, 0], 1: [0, 1]}\n", "aie.yaml", aie));
}

TEST(AcceleratorValidation, LinkNeedsExactlyTwoCores) {
  const std::string text = replace(kValid, "cores:\n  0: ./cores/tpu_like.yaml\n",
                                   "cores:\n  0: ./cores/tpu_like.yaml\n  2: ./cores/tpu_like.yaml\n");
  expect_one(accelerator_errors(replace(text, "cores: [0, 1]", "cores: [0, 1, 2]")),
             "Expected exactly 2 cores for a link", 9);
}

TEST(AcceleratorValidation, BusNeedsTwoCores) {
  expect_one(accelerator_errors(replace(replace(kValid, "type: link", "type: bus"), "cores: [0, 1]", "cores: [0]")),
             "a bus needs at least 2 cores", 8);
}

TEST(AcceleratorValidation, ConnectionTypeIsLinkOrBus) {
  expect_one(accelerator_errors(replace(kValid, "type: link", "type: ring")), "'type' must be link or bus", 7);
}

TEST(AcceleratorValidation, ConnectionUnknownCore) {
  expect_one(accelerator_errors(replace(kValid, "cores: [0, 1]", "cores: [0, 5]")),
             "`core_connectivity[0].cores` contains unknown core id 5", 8);
}

TEST(AcceleratorValidation, BandwidthMustBePositive) {
  expect_one(accelerator_errors(replace(kValid, "bandwidth: 32", "bandwidth: 0")),
             "`core_connectivity[0].bandwidth` must be > 0", 9);
}

TEST(AcceleratorValidation, BandwidthMustBeFinite) {
  // An infinite bus made every transfer free: 0 cycles whatever the size.
  expect_one(accelerator_errors(replace(kValid, "bandwidth: 32", "bandwidth: .inf")),
             "`core_connectivity[0].bandwidth` must be > 0 and finite", 9);
}

TEST(AcceleratorValidation, ConnectionEnergyNotNegative) {
  expect_one(accelerator_errors(kValid + "    unit_energy_cost: -1\n"),
             "`core_connectivity[0].unit_energy_cost` must be >= 0", 10);
}

TEST(AcceleratorValidation, ConnectivityRequired) {
  expect_one(accelerator_errors(replace(kValid, "core_connectivity:\n  - type: link\n    cores: [0, 1]\n    bandwidth: 32\n", "")),
             "missing required key 'core_connectivity'", 1);
  EXPECT_TRUE(accelerator_errors(replace(kValid, "core_connectivity:\n  - type: link\n    cores: [0, 1]\n    bandwidth: 32\n",
                                         "core_connectivity: []\n"))
                  .empty());
}

// Memory sharing: a three-core base where 0 and 2 are identical tpu_like cores.
const std::string kThree =
    "name: test\n"                         // 1
    "cores:\n"                             // 2
    "  0: ./cores/tpu_like.yaml\n"         // 3
    "  1: ./cores/offchip.yaml\n"          // 4
    "  2: ./cores/tpu_like.yaml\n"         // 5
    "offchip_core_id: 1\n"                 // 6
    "core_connectivity:\n"                 // 7
    "  - {type: link, cores: [0, 1], bandwidth: 32}\n"  // 8
    "  - {type: link, cores: [2, 1], bandwidth: 32}\n"; // 9

TEST(AcceleratorValidation, MemorySharingValid) {
  EXPECT_TRUE(accelerator_errors(kThree + "core_memory_sharing:\n  - 0, 2\n").empty());
}

TEST(AcceleratorValidation, MemorySharingNeedsTwoCores) {
  expect_one(accelerator_errors(kThree + "core_memory_sharing:\n  - \"0\"\n"),
             "Shared memory connection should contain at least 2 core ids", 11);
}

TEST(AcceleratorValidation, MemorySharingUnknownCore) {
  expect_one(accelerator_errors(kThree + "core_memory_sharing:\n  - 0, 9\n"),
             "`core_memory_sharing` contains unknown core id 9", 11);
}

TEST(AcceleratorValidation, MemorySharingCoresMustNotBeConnected) {
  expect_one(accelerator_errors(kThree + "  - {type: link, cores: [0, 2], bandwidth: 32}\ncore_memory_sharing:\n  - 0, 2\n"),
             "Cores that share memory should must not be explicitly connected", 10);
}

TEST(AcceleratorValidation, MemorySharingNeedsEqualCapacity) {
  expect_one(accelerator_errors(replace(kThree, "  2: ./cores/tpu_like.yaml", "  2: ./cores/pooling.yaml") +
                                "core_memory_sharing:\n  - 0, 2\n"),
             "cores sharing memory must have top memories of equal capacity", 11);
}

TEST(AcceleratorValidation, MemorySharingFormat) {
  expect_one(accelerator_errors(kThree + "core_memory_sharing:\n  - zero and two\n"),
             "is not a comma-separated list of core ids", 11);
}

TEST(AcceleratorValidation, CoordinatesUnknownCore) {
  expect_one(accelerator_errors(kValid + "core_coordinates:\n  0: [0, 0]\n  4: [1, 0]\n"),
             "Core id 4 in core_coordinates does not exist in cores", 12);
}

TEST(AcceleratorValidation, CoordinatesInvalidId) {
  expect_one(accelerator_errors(kValid + "core_coordinates:\n  x: [0, 0]\n"), "Invalid core id in core_coordinates", 11);
}

TEST(AcceleratorValidation, CoordinatesMustBeTwoInts) {
  expect_one(accelerator_errors(kValid + "core_coordinates:\n  0: [0, 0, 1]\n"), "Invalid coordinates for core id 0", 11);
}

TEST(AcceleratorValidation, MemoryAliasUnknownMemory) {
  expect_one(accelerator_errors(kValid + "memory_aliases:\n  - [0.sram_2MB, 1.sram_9MB]\n"),
             "core 1 has no memory named 'sram_9MB'", 11);
}

TEST(AcceleratorValidation, MemoryAliasUnknownCore) {
  expect_one(accelerator_errors(kValid + "memory_aliases:\n  - [0.sram_2MB, 3.dram]\n"), "unknown core id 3", 11);
}

TEST(AcceleratorValidation, YamlSyntaxErrorHasPosition) {
  auto errors = accelerator_errors("name: x\ncores: {0: a\n");
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].message.find("YAML syntax error"), std::string::npos);
  EXPECT_GT(errors[0].where.line, 0);
}

TEST(AcceleratorValidation, RootMustBeAMapping) {
  expect_one(accelerator_errors("- a\n- b\n"), "accelerator must be a mapping", 1);
}

TEST(AcceleratorValidation, CollectsEveryProblem) {
  const std::string text =
      "name: test\n"                      // 1
      "colour: blue\n"                    // 2  unknown key
      "cores:\n"                          // 3
      "  0: ./cores/tpu_like.yaml\n"      // 4
      "  1: ./cores/offchip.yaml\n"       // 5
      "offchip_core_id: 1\n"              // 6
      "core_connectivity:\n"              // 7
      "  - {type: link, cores: [0, 3], bandwidth: 32}\n"   // 8 unknown core
      "  - {type: link, cores: [0, 1], bandwidth: -2}\n"   // 9 bandwidth
      "core_coordinates: {0: [0]}\n";                      // 10 coordinates
  auto errors = accelerator_errors(text);
  ASSERT_EQ(errors.size(), 4u);
  std::vector<int> lines;
  for (const auto& e : errors) lines.push_back(e.where.line);
  std::sort(lines.begin(), lines.end());
  EXPECT_EQ(lines, (std::vector<int>{2, 8, 9, 10}));
}

TEST(AcceleratorValidation, LaterConnectionReplacesEarlierWithOneLineWarning) {
  Diagnostics diag;
  const Accelerator a = parse_accelerator_text(kValid + "  - {type: bus, cores: [1, 0], bandwidth: 128}\n", "acc.yaml",
                                               kHardwareDir, &diag);
  ASSERT_EQ(a.active_links().size(), 1u);
  EXPECT_TRUE(a.links()[static_cast<std::size_t>(a.edge(0, 1))].is_bus());
  EXPECT_EQ(a.replacements, (std::vector<std::pair<std::size_t, std::size_t>>{{0, 1}}));
  // The run's one line: how many entries, by which, where the list is.
  ASSERT_EQ(a.warnings.size(), 1u);
  EXPECT_EQ(a.warnings[0].where.file, "acc.yaml");
  EXPECT_EQ(a.warnings[0].message,
            "1 link of core_connectivity is replaced by the bus at line 10 (a later entry wins on the core pairs "
            "they share); `stream validate` lists them");
  EXPECT_EQ(diag.warnings().size(), 1u);
  // validate's list: each replacing entry at its line, with what it replaces.
  ASSERT_EQ(a.replacement_details.size(), 1u);
  EXPECT_EQ(a.replacement_details[0].where.line, 10);
  EXPECT_NE(a.replacement_details[0].message.find(
                "replaces core_connectivity[0] (link [0, 1] bw 32) on 2 directed core pair(s)"),
            std::string::npos)
      << a.replacement_details[0].message;
}

TEST(AcceleratorValidation, ReplacementsBySeveralEntriesAreCountedInOneLine) {
  // Two links, each replaced by its own later bus: 2 links, by the first bus and one more.
  const std::string text = kValid + "  - {type: link, cores: [0, 1], bandwidth: 8}\n"
                                    "  - {type: bus, cores: [1, 0], bandwidth: 128}\n";
  const Accelerator a = parse_accelerator_text(text, "acc.yaml", kHardwareDir);
  ASSERT_EQ(a.warnings.size(), 1u);
  EXPECT_EQ(a.warnings[0].message,
            "2 links of core_connectivity are replaced by the link at line 10 and the bus at line 11 (a later entry "
            "wins on the core pairs they share); `stream validate` lists them");
  EXPECT_EQ(a.replacement_details.size(), 2u);
}

TEST(AcceleratorValidation, InlineCore) {
  const std::string text = replace(kValid, "./cores/tpu_like.yaml",
                                   "\n    name: tiny\n    memories:\n      m:\n        size: 64\n        r_cost: 1\n"
                                   "        w_cost: 1\n        area: 0\n        latency: 1\n        operands: [I1, I2, O]\n"
                                   "        ports: [{name: rw_port_1, type: read_write, bandwidth_min: 8, "
                                   "bandwidth_max: 8, allocation: ['I1, tl', 'I1, fh']}]\n"
                                   "        served_dimensions: [D1]\n"
                                   "    operational_array: {dimensions: [D1], sizes: [4], unit_energy: 1, unit_area: 1}");
  const Accelerator a = parse_accelerator_text(text, "acc.yaml", kHardwareDir);
  EXPECT_EQ(a.core(0).name, "tiny");
  EXPECT_EQ(a.core(0).memory_capacity(), 64);
  EXPECT_EQ(a.core(0).total_unit_count(), 4);
  EXPECT_EQ(a.core(0).id, 0);
}

// ---------------- interconnect semantics ----------------

namespace {
Accelerator square(const std::string& connectivity) {
  const std::string text =
      "name: sq\n"
      "cores: {0: ./cores/tpu_like.yaml, 1: ./cores/tpu_like.yaml, 2: ./cores/tpu_like.yaml, 3: ./cores/tpu_like.yaml}\n"
      "offchip_core_id: 3\n"
      "core_connectivity:\n" +
      connectivity;
  return parse_accelerator_text(text, "sq.yaml", kHardwareDir);
}
}  // namespace

TEST(Interconnect, ShortestPathTieBreakFollowsInsertionOrder) {
  // networkx's bidirectional BFS takes the first successor/predecessor in edge insertion order.
  const Accelerator a = square(
      "  - {cores: [0, 1], bandwidth: 8}\n  - {cores: [0, 2], bandwidth: 8}\n"
      "  - {cores: [1, 3], bandwidth: 8}\n  - {cores: [2, 3], bandwidth: 8}\n");
  EXPECT_EQ(a.shortest_path(0, 3), (std::vector<int>{0, 1, 3}));
  EXPECT_EQ(a.all_shortest_paths(0, 3), (std::vector<std::vector<int>>{{0, 1, 3}, {0, 2, 3}}));
  const Accelerator b = square(
      "  - {cores: [0, 2], bandwidth: 8}\n  - {cores: [0, 1], bandwidth: 8}\n"
      "  - {cores: [2, 3], bandwidth: 8}\n  - {cores: [1, 3], bandwidth: 8}\n");
  EXPECT_EQ(b.shortest_path(0, 3), (std::vector<int>{0, 2, 3}));
  EXPECT_EQ(b.all_shortest_paths(0, 3), (std::vector<std::vector<int>>{{0, 2, 3}, {0, 1, 3}}));
  // Each direction of a link is its own resource.
  EXPECT_NE(a.edge(0, 1), a.edge(1, 0));
  EXPECT_EQ(a.links().size(), 8u);
  EXPECT_EQ(a.path_links({0, 1, 3}), (std::vector<int>{a.edge(0, 1), a.edge(1, 3)}));
  EXPECT_TRUE(a.shortest_path(0, 0) == std::vector<int>{0});
}

TEST(Interconnect, BusIsOneSharedResourceInListOrder) {
  const Accelerator a = square("  - {type: bus, cores: [2, 0, 1], bandwidth: 64}\n  - {cores: [1, 3], bandwidth: 8}\n");
  EXPECT_EQ(a.graph_cores(), (std::vector<int>{2, 0, 1, 3}));
  const int bus = a.edge(2, 0);
  for (auto [x, y] : std::vector<std::pair<int, int>>{{0, 2}, {2, 1}, {1, 2}, {0, 1}, {1, 0}}) EXPECT_EQ(a.edge(x, y), bus);
  EXPECT_TRUE(a.links()[static_cast<std::size_t>(bus)].is_bus());
  EXPECT_EQ(a.links()[static_cast<std::size_t>(bus)].sender, -1);
  EXPECT_EQ(a.edges().front(), (std::array<int, 3>{2, 0, bus}));
  EXPECT_EQ(a.shortest_path(2, 3), (std::vector<int>{2, 1, 3}));
  EXPECT_EQ(a.edge(0, 3), -1);
  EXPECT_TRUE(a.warnings.empty());
  // A link listed after the bus replaces the bus on its two pairs only.
  const Accelerator b = square("  - {type: bus, cores: [0, 1, 2, 3], bandwidth: 64}\n  - {cores: [0, 1], bandwidth: 8}\n");
  EXPECT_FALSE(b.links()[static_cast<std::size_t>(b.edge(0, 1))].is_bus());
  EXPECT_TRUE(b.links()[static_cast<std::size_t>(b.edge(0, 2))].is_bus());
  EXPECT_EQ(b.active_links().size(), 3u);
  ASSERT_EQ(b.warnings.size(), 1u);
}
