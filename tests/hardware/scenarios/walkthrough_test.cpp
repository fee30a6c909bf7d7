// docs/hardware.md's walk-through (an 8-core mesh built from scratch) and docs/mapping.md's mapping
// for it: the files in inputs/ are the docs' code blocks, they validate, and they run.
//
// Expected, derived by hand from the files: 8 compute cores and the DRAM (9 cores); 11
// connections (the bus and 10 mesh links: 3 per row of 4, 4 columns); the bus joins 9 cores, 9 x 8
// = 72 directed pairs, of which the links take 2 x 10 = 20, leaving 52; one warning per link plus
// the one-line sum (11). The run's memory use lists each of the 8 compute cores and the DRAM.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "stream_cli.hpp"

namespace {

namespace fs = std::filesystem;

const fs::path kSource = STREAM_SOURCE_DIR;
const fs::path kExe = fs::path(STREAM_BUILD_DIR) / "bin" / "stream";
const std::string kHardware = "inputs/hardware/walkthrough/mesh_8core.yaml";
const std::string kMapping = "inputs/mapping/walkthrough/2conv_mesh_8core.yaml";
const std::string kWorkload = "inputs/workload/2conv_1_8_32_32_16_32_3.onnx";

// Every "<!-- file: PATH -->" followed by a fenced block in `doc`: PATH -> the block's text.
// (Plain searches: std::regex recurses per character and may exhaust the stack on long blocks.)
std::map<std::string, std::string> file_blocks(const fs::path& doc) {
  const std::string text = stream::test::read(doc);
  const std::string marker = "<!-- file: ", fence = "```";
  std::map<std::string, std::string> out;
  for (auto at = text.find(marker); at != std::string::npos; at = text.find(marker, at + 1)) {
    const auto name_end = text.find(" -->\n", at);
    const auto open = name_end == std::string::npos ? name_end : text.find('\n', name_end + 5);  // end of ```yaml
    if (open == std::string::npos || text.compare(name_end + 5, fence.size(), fence) != 0) continue;
    const auto close = text.find("\n" + fence, open);
    if (close == std::string::npos) continue;
    out[text.substr(at + marker.size(), name_end - at - marker.size())] = text.substr(open + 1, close - open);
  }
  return out;
}

// `stream <args>` from an empty directory of the test's own (the inputs/ paths resolve from anywhere).
stream::test::CliResult stream_in(const fs::path& dir, const std::string& args) {
  return stream::test::run_command("cd '" + dir.string() + "' && '" + kExe.string() + "' " + args + " 2>/dev/null");
}

}  // namespace

TEST(Walkthrough, TheDocsCodeBlocksAreTheInputFiles) {
  auto blocks = file_blocks(kSource / "docs" / "hardware.md");
  for (auto& [path, text] : file_blocks(kSource / "docs" / "mapping.md")) blocks[path] = text;
  // The four files of the walk-through, each shown once (a lost marker would leave one unchecked).
  ASSERT_EQ(blocks.size(), 4u);
  for (const char* path : {"inputs/hardware/walkthrough/cores/pe16.yaml", "inputs/hardware/walkthrough/cores/dram.yaml",
                           "inputs/hardware/walkthrough/mesh_8core.yaml",
                           "inputs/mapping/walkthrough/2conv_mesh_8core.yaml"}) {
    ASSERT_TRUE(blocks.count(path)) << path << " is not shown in docs/hardware.md or docs/mapping.md";
    EXPECT_EQ(blocks[path], stream::test::read(kSource / path)) << path << " differs from its block in the docs";
  }
}

TEST(Walkthrough, ValidateReportsNineCoresAndTheMeshConnections) {
  if (!fs::exists(kExe)) GTEST_SKIP() << "stream executable not built";
  const auto dir = stream::test::fresh_scratch_dir("walkthrough", "validate");
  const auto r = stream_in(dir, "validate --hardware " + kHardware + " --workload " + kWorkload + " --mapping " +
                                    kMapping + " --format json");
  ASSERT_EQ(r.code, 0) << r.out;
  const auto doc = nlohmann::json::parse(r.out);
  ASSERT_TRUE(doc["valid"].get<bool>()) << r.out;
  const auto& acc = doc["accelerator"];
  EXPECT_EQ(acc["cores"].size(), 9u);
  EXPECT_EQ(acc["offchip_core_id"], 8);
  ASSERT_EQ(acc["connections"].size(), 11u);
  EXPECT_EQ(acc["connections"][0]["type"], "bus");
  EXPECT_EQ(acc["connections"][0]["directed_pairs_after_replacement"], 52);
  for (std::size_t i = 1; i < 11; ++i) {
    EXPECT_EQ(acc["connections"][i]["type"], "link") << i;
    EXPECT_EQ(acc["connections"][i]["directed_pairs_after_replacement"], 2) << i;
  }
  EXPECT_EQ(doc["warnings"].size(), 11u);
  EXPECT_EQ(doc["workload"]["fusion_groups"], 1);
}

TEST(Walkthrough, RunMapsTheTwoConvOntoTheEightCores) {
  if (!fs::exists(kExe)) GTEST_SKIP() << "stream executable not built";
  const auto dir = stream::test::fresh_scratch_dir("walkthrough", "run");
  const auto r = stream_in(dir, "run --hardware " + kHardware + " --workload " + kWorkload + " --mapping " + kMapping +
                                    " --experiment-id walkthrough --summary-only --out out");
  ASSERT_EQ(r.code, 0) << r.out;
  const auto summary = nlohmann::json::parse(stream::test::read(dir / "out" / "walkthrough" / "summary.json"));
  EXPECT_GT(summary["total_latency"].get<double>(), 0);
  EXPECT_EQ(summary["total_latency"], 16382) << "the figure docs/hardware.md and docs/mapping.md give";
  EXPECT_EQ(summary["costs"]["fallback"], 0);  // every cost a per-core model figure, no estimate
  // Every core's memory use: the 8 compute cores, each holding an equal eighth of the work, and
  // the DRAM, whose fullest moment holds the output, 1 x 32 x 32 x 32 bf16 = 524,288 bits.
  const auto& memory = summary["memory"];
  ASSERT_EQ(memory.size(), 9u);
  for (std::size_t core = 0; core < 8; ++core) {
    EXPECT_EQ(memory[core]["core"], core);
    EXPECT_EQ(memory[core]["name"], "pe16");
    EXPECT_GT(memory[core]["peak_bits"].get<double>(), 0) << core;
    EXPECT_EQ(memory[core]["peak_bits"], memory[0]["peak_bits"]) << core;
  }
  EXPECT_EQ(memory[8]["name"], "dram");
  EXPECT_EQ(memory[8]["peak_bits"].get<double>(), 524288.0);
}
