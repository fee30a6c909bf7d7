// A homogeneous array written as its size (core/src/hardware/array_expansion.hpp): the cores,
// coordinates and connections it stands for, counted by hand; its core count as a hardware
// override; and the same results as the file written out core by core.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include <nlohmann/json.hpp>
#include <stream/error.hpp>
#include <stream/hardware/accelerator_reader.hpp>
#include <stream/hardware/hardware_overrides.hpp>

#include "stream_cli.hpp"
#include "sweep_rows.hpp"

namespace fs = std::filesystem;
using namespace stream::hardware;

namespace {

const fs::path kHardware = fs::path(STREAM_INPUTS_DIR) / "hardware";
const fs::path kArray = kHardware / "tpu_like_array.yaml";

using Pair = std::pair<int, int>;

std::set<Pair> links_of(const Accelerator& a) {
  std::set<Pair> out;
  for (const auto& c : a.connectivity)
    if (c.type == ConnectionType::Link) out.emplace(c.cores.at(0), c.cores.at(1));
  return out;
}

Accelerator array(const std::string& body) {
  return parse_accelerator_text("name: a\narray:\n" + body, "array.yaml", kHardware);
}

std::string error_of(const std::string& text) {
  try {
    (void)parse_accelerator_text(text, "array.yaml", kHardware);
  } catch (const stream::Error& e) {
    return e.what();
  }
  return "no error";
}

std::int64_t count_of(const nlohmann::json& v) { return v.is_string() ? std::stoll(v.get<std::string>()) : v.get<std::int64_t>(); }

const std::string kCores = "  core: ./cores/tpu_like.yaml\n  offchip: ./cores/offchip.yaml\n  bus_bandwidth: 128\n";

}  // namespace

// count 4 -> a 2 x 2 mesh: 0 1 / 2 3, links (0,1), (2,3) across and (0,2), (1,3) down; the bus
// [0..4] first, so each link takes its pair from it, silently.
TEST(ArrayExpansion, FourCoresAreATwoByTwoMeshAndABus) {
  const auto a = load_accelerator(kArray);
  ASSERT_EQ(a.cores.size(), 5u);
  EXPECT_EQ(a.offchip_core_id, 4);
  EXPECT_EQ(a.compute_cores(), (std::vector<int>{0, 1, 2, 3}));
  ASSERT_EQ(a.connectivity.size(), 5u);
  EXPECT_EQ(a.connectivity[0].type, ConnectionType::Bus);
  EXPECT_EQ(a.connectivity[0].cores, (std::vector<int>{0, 1, 2, 3, 4}));
  EXPECT_DOUBLE_EQ(a.connectivity[0].bandwidth, 128);
  EXPECT_EQ(links_of(a), (std::set<Pair>{{0, 1}, {0, 2}, {1, 3}, {2, 3}}));
  for (std::size_t i = 1; i < 5; ++i) EXPECT_DOUBLE_EQ(a.connectivity[i].bandwidth, 32);
  EXPECT_EQ(a.links().size(), 1u + 4 * 2);  // one bus resource, two directions per link
  EXPECT_EQ(a.coordinates.at(3), (std::array<int, 2>{1, 1}));
  EXPECT_EQ(a.coordinates.at(4), (std::array<int, 2>{0, 2}));  // the row below the mesh
  EXPECT_TRUE(a.warnings.empty()) << a.warnings.front().message;
}

// count 8 -> 3 columns (3 x 3 >= 8): 0 1 2 / 3 4 5 / 6 7; across (0,1) (1,2) (3,4) (4,5) (6,7),
// down (0,3) (1,4) (2,5) (3,6) (4,7).
TEST(ArrayExpansion, TheCoreCountIsAnOverride) {
  const auto a = load_accelerator_with_overrides(kArray, {{"array/count", "8"}});
  ASSERT_EQ(a.cores.size(), 9u);
  EXPECT_EQ(a.offchip_core_id, 8);
  EXPECT_EQ(a.compute_cores().size(), 8u);
  EXPECT_EQ(links_of(a), (std::set<Pair>{{0, 1}, {1, 2}, {3, 4}, {4, 5}, {6, 7}, {0, 3}, {1, 4}, {2, 5}, {3, 6}, {4, 7}}));
  // 4 columns: 0 1 2 3 / 4 5 6 7, 3 + 3 across and 4 down.
  const auto wide = array(kCores + "  count: 8\n  columns: 4\n  link_bandwidth: 32\n");
  EXPECT_EQ(links_of(wide).size(), 10u);
  EXPECT_EQ(links_of(wide).count({3, 7}), 1u);
  EXPECT_EQ(links_of(wide).count({3, 4}), 0u);  // not neighbours: row ends
  // The core file is inlined for overrides too: every compute core gets the new array.
  const auto small = load_accelerator_with_overrides(kArray, {{"array/core/operational_array/sizes", "[16, 16]"}});
  for (int c = 0; c < 4; ++c)
    EXPECT_EQ(small.cores.at(static_cast<std::size_t>(c)).operational_array.sizes, (std::vector<std::int64_t>{16, 16}));
  EXPECT_NE(small.offchip_core().operational_array.sizes, (std::vector<std::int64_t>{16, 16}));
}

TEST(ArrayExpansion, OneCoreOrABusAloneNeedNoLinks) {
  const auto one = array(kCores + "  count: 1\n");
  EXPECT_EQ(one.cores.size(), 2u);
  EXPECT_EQ(one.connectivity.size(), 1u);
  const auto bus = array(kCores + "  count: 6\n  topology: bus\n");
  EXPECT_EQ(bus.cores.size(), 7u);
  EXPECT_TRUE(links_of(bus).empty());
  EXPECT_EQ(bus.connectivity.at(0).cores.size(), 7u);
}

TEST(ArrayExpansion, ErrorsNameThePlace) {
  const auto both = error_of("name: a\ncores:\n  0: ./cores/tpu_like.yaml\narray:\n" + kCores + "  count: 2\n  link_bandwidth: 8\n");
  EXPECT_NE(both.find("array.yaml:3:"), std::string::npos) << both;
  EXPECT_NE(both.find("`cores` cannot be given with `array`"), std::string::npos) << both;
  const auto zero = error_of("name: a\narray:\n" + kCores + "  count: 0\n");
  EXPECT_NE(zero.find("array.yaml:6:"), std::string::npos) << zero;
  EXPECT_NE(zero.find("count"), std::string::npos) << zero;
  const auto no_link = error_of("name: a\narray:\n" + kCores + "  count: 2\n");
  EXPECT_NE(no_link.find("link_bandwidth"), std::string::npos) << no_link;
  const auto topology = error_of("name: a\narray:\n" + kCores + "  count: 2\n  topology: torus\n  link_bandwidth: 8\n");
  EXPECT_NE(topology.find("topology must be mesh or bus, got 'torus'"), std::string::npos) << topology;
  const auto unknown = error_of("name: a\narray:\n" + kCores + "  count: 2\n  link_bandwidth: 8\n  rows: 2\n");
  EXPECT_NE(unknown.find("rows"), std::string::npos) << unknown;
  // 4,095 cores pass the count bound, but their bus (4,096 x 4,095 = 16,773,120 directed pairs)
  // and a 64-wide mesh's 8,062 links (across: 63 in each of 63 full rows and 62 in the last,
  // 4,031; down: 4,031), each both ways (16,124), pass the reader's 2^24 = 16,777,216: refused at
  // the count, before anything is generated.
  const auto big = error_of("name: a\narray:\n" + kCores + "  count: 4095\n  link_bandwidth: 8\n");
  EXPECT_NE(big.find("array.yaml:6:"), std::string::npos) << big;
  EXPECT_NE(big.find("an array of 4095 cores (mesh) lists 16789244 directed core pairs"), std::string::npos) << big;
  const auto negative = error_of("name: a\narray:\n" + kCores + "  count: 2\n  link_bandwidth: -8\n");
  EXPECT_NE(negative.find("link_bandwidth"), std::string::npos) << negative;
}

// The array file and the same accelerator written out core by core give the same results.
TEST(ArrayExpansion, RunsAsTheFileWrittenOut) {
  const auto dir = stream::test::fresh_scratch_dir("hardware", "array_run");
  fs::create_directories(dir / "cores");
  for (const char* core : {"tpu_like.yaml", "offchip.yaml"}) fs::copy_file(kHardware / "cores" / core, dir / "cores" / core);
  std::ofstream(dir / "explicit.yaml")
      << "name: tpu_like_array\nunit_energy_cost: 0\noffchip_core_id: 4\n"
         "cores: {0: cores/tpu_like.yaml, 1: cores/tpu_like.yaml, 2: cores/tpu_like.yaml, 3: cores/tpu_like.yaml, "
         "4: cores/offchip.yaml}\n"
         "core_coordinates: {0: [0, 0], 1: [1, 0], 2: [0, 1], 3: [1, 1], 4: [0, 2]}\n"
         "core_connectivity:\n"
         "  - {type: bus, cores: [0, 1, 2, 3, 4], bandwidth: 128}\n"
         "  - {type: link, cores: [0, 1], bandwidth: 32}\n  - {type: link, cores: [0, 2], bandwidth: 32}\n"
         "  - {type: link, cores: [1, 3], bandwidth: 32}\n  - {type: link, cores: [2, 3], bandwidth: 32}\n";
  const std::string workload = " --workload " + (fs::path(STREAM_INPUTS_DIR) / "workload/2conv_1_8_32_32_16_32_3.onnx").string();
  nlohmann::json summaries[2];
  const fs::path files[2] = {kArray, dir / "explicit.yaml"};
  for (int i = 0; i < 2; ++i) {
    const auto id = "h" + std::to_string(i);
    const auto r = stream::test::run_stream("run --hardware " + files[i].string() + workload + " --out " + dir.string() +
                                            " --experiment-id " + id);
    ASSERT_EQ(r.code, 0) << r.out;
    summaries[i] = nlohmann::json::parse(stream::test::read(dir / id / "summary.json"));
  }
  EXPECT_GT(summaries[0]["total_latency"].get<std::int64_t>(), 0);
  EXPECT_EQ(summaries[0]["total_latency"], summaries[1]["total_latency"]);
  EXPECT_EQ(summaries[0]["total_energy"], summaries[1]["total_energy"]);
}

// inputs/sweeps/array_cores_2conv.yaml: 5 core counts x 2 array sizes, every point solved; at one
// array size the area is the count times one core's (the hardware cost model sums the cores, and
// the off-chip core has none, docs/hardware-cost.md).
TEST(ArrayExpansion, TheBundledSweepVariesTheCoreCount) {
  const auto dir = stream::test::fresh_scratch_dir("hardware", "array_sweep");
  const auto r = stream::test::run_stream("sweep " + (fs::path(STREAM_INPUTS_DIR) / "sweeps/array_cores_2conv.yaml").string() +
                                          " --out " + (dir / "out").string() + " --jobs 2");
  ASSERT_EQ(r.code, 0) << r.out;
  const auto rows = stream::test::sweep_rows(dir / "out" / "results.jsonl");
  std::map<std::string, std::map<std::int64_t, double>> area;  // array size -> count -> mm2
  for (const auto& row : rows) {
    EXPECT_EQ(row["status"], "ok") << row;
    area[row["hardware/array/core/operational_array/sizes"].dump()][count_of(row["hardware/array/count"])] =
        row["area_mm2"].get<double>();
  }
  EXPECT_EQ(rows.size(), 10u);
  ASSERT_EQ(area.size(), 2u);
  for (const auto& [size, by_count] : area) {
    ASSERT_EQ(by_count.size(), 5u) << size;
    const double one = by_count.at(1);
    EXPECT_GT(one, 0) << size;
    for (const auto& [count, mm2] : by_count) EXPECT_NEAR(mm2, static_cast<double>(count) * one, 1e-9 * mm2) << size << " count " << count;
  }
}
