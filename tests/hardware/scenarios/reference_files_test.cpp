// Every hardware file the reference ships loads unchanged, and what we derive from it matches facts
// checked by hand against the YAML (spec §1.6 inventory).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <set>

#include "stream/hardware/accelerator_reader.hpp"
#include "stream/hardware/core_reader.hpp"

namespace fs = std::filesystem;
using namespace stream::hardware;

namespace {

const fs::path kInputs = fs::path(STREAM_TEST_DATA_DIR) / "reference" / "stream-inputs";

std::vector<fs::path> yaml_files(const fs::path& dir) {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.is_regular_file() && e.path().extension() == ".yaml") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

Accelerator load(const std::string& relative) { return load_accelerator(kInputs / relative); }

/// How many connectivity entries lost at least one pair to a later entry.
std::size_t replacement_warnings(const Accelerator& a) {
  std::set<std::size_t> replaced;
  for (const auto& [old, by] : a.replacements) replaced.insert(old);
  // Every replacement is listed (for `stream validate`) naming the replaced entry.
  for (std::size_t old : replaced) {
    const std::string needle = "core_connectivity[" + std::to_string(old) + "] (";
    EXPECT_TRUE(std::any_of(a.replacement_details.begin(), a.replacement_details.end(), [&](const stream::Diagnostic& d) {
      return d.message.find("replaces") != std::string::npos && d.message.find(needle) != std::string::npos;
    })) << needle;
  }
  // ... and counted in the file's one warning line.
  const std::string count = std::to_string(replaced.size()) + " ";
  const auto summaries = std::count_if(a.warnings.begin(), a.warnings.end(), [&](const stream::Diagnostic& d) {
    return d.message.find("of core_connectivity ") != std::string::npos;
  });
  EXPECT_EQ(summaries, replaced.empty() ? 0 : 1);
  if (!replaced.empty()) {
    EXPECT_TRUE(std::any_of(a.warnings.begin(), a.warnings.end(), [&](const stream::Diagnostic& d) {
      return d.message.rfind(count, 0) == 0 && d.message.find(" of core_connectivity ") != std::string::npos;
    })) << count;
  }
  return replaced.size();
}

}  // namespace

TEST(ReferenceHardware, EveryAcceleratorFileLoads) {
  std::size_t count = 0;
  for (const char* dir : {"hardware", "testing/hardware", "aie/hardware"}) {
    for (const auto& f : yaml_files(kInputs / dir)) {
      SCOPED_TRACE(f.string());
      Accelerator a;
      ASSERT_NO_THROW(a = load_accelerator(f));
      EXPECT_FALSE(a.cores.empty());
      EXPECT_GE(a.offchip_core_id, 0);
      EXPECT_LT(static_cast<std::size_t>(a.offchip_core_id), a.cores.size());
      ++count;
    }
  }
  EXPECT_EQ(count, 9u + 5u + 4u);  // the 18 accelerator files of the reference inputs
}

TEST(ReferenceHardware, EveryCoreFileLoads) {
  std::size_t count = 0;
  for (const char* dir : {"hardware/cores", "testing/hardware/cores", "aie/hardware/cores"}) {
    for (const auto& f : yaml_files(kInputs / dir)) {
      SCOPED_TRACE(f.string());
      ASSERT_NO_THROW((void)load_core_file(f));
      ++count;
    }
  }
  EXPECT_EQ(count, 15u + 8u + 3u);
}

TEST(ReferenceHardware, TpuLikeCoreFile) {
  const Core c = load_core_file(kInputs / "hardware/cores/tpu_like.yaml");
  EXPECT_EQ(c.name, "tpu_like");
  EXPECT_EQ(c.type.str(), "zigzag.compute");
  ASSERT_EQ(c.memories.size(), 3u);
  // File order is lowest level first.
  EXPECT_EQ(c.memories[0].name, "rf_128B");
  EXPECT_EQ(c.memories[1].name, "rf_2B");
  EXPECT_EQ(c.memories[2].name, "sram_2MB");
  EXPECT_EQ(c.memories[0].size, 128 * 8);
  EXPECT_DOUBLE_EQ(*c.memories[2].r_cost, 416.16);
  EXPECT_DOUBLE_EQ(*c.memories[2].w_cost, 378.4);
  EXPECT_FALSE(c.memories[0].auto_cost_extraction);
  // Hierarchies per operand.
  EXPECT_EQ(c.hierarchy(Operand::I1), (std::vector<std::size_t>{2}));
  EXPECT_EQ(c.hierarchy(Operand::I2), (std::vector<std::size_t>{0, 2}));
  EXPECT_EQ(c.hierarchy(Operand::O), (std::vector<std::size_t>{1, 2}));
  EXPECT_EQ(c.memory_capacity(), 2 * 1024 * 1024 * 8);  // 2 MB sram, top I1
  EXPECT_EQ(c.total_unit_count(), 32 * 32);
  // Instances: replicated over the array dims a memory does not serve.
  EXPECT_EQ(c.memory_instances(0), 32 * 32);  // served []
  EXPECT_EQ(c.memory_instances(1), 32);       // served [D2]
  EXPECT_EQ(c.memory_instances(2), 1);        // served [D1, D2]
  // Ports of rf_2B: two read, two write with the ZigZag directions.
  const Memory& rf2 = c.memories[1];
  ASSERT_EQ(rf2.ports.size(), 4u);
  EXPECT_EQ(rf2.ports[1].name, "r_port_2");
  EXPECT_EQ(rf2.ports[1].type, PortType::Read);
  ASSERT_EQ(rf2.ports[1].allocation.size(), 1u);
  EXPECT_EQ(rf2.ports[1].allocation[0].operand, Operand::O);
  EXPECT_EQ(rf2.ports[1].allocation[0].direction, DataDirection::RdOutToHigh);
  EXPECT_EQ(rf2.ports[3].allocation[0].direction, DataDirection::WrInByLow);
  EXPECT_EQ(c.memories[2].ports[0].bandwidth_min, 64);
  EXPECT_EQ(c.memories[2].ports[0].bandwidth_max, 2048);
  EXPECT_EQ(c.max_memory_bandwidth(PortType::Read), 2048);
  EXPECT_EQ(c.max_memory_bandwidth(PortType::Write), 2048);
  EXPECT_DOUBLE_EQ(c.operational_array.unit_energy, 0.04);
  EXPECT_EQ(c.operational_array.dimensions, (std::vector<std::string>{"D1", "D2"}));
  EXPECT_FALSE(c.operator_types.has_value());
  EXPECT_TRUE(c.accepts("Conv"));
}

TEST(ReferenceHardware, UnderscoreNumbersAsPyYaml) {
  // fusemax_vec: `size: 16_777_216`; fusemax_dram: `r_cost: 32_000`.
  const Core vec = load_core_file(kInputs / "hardware/cores/fusemax_vec.yaml");
  EXPECT_EQ(vec.memories.back().size, 16777216);
  EXPECT_EQ(vec.operational_array.input_precision, (std::vector<std::int64_t>{8, 8}));
  const Core dram = load_core_file(kInputs / "hardware/cores/fusemax_dram.yaml");
  EXPECT_DOUBLE_EQ(*dram.memories[0].r_cost, 32000.0);
  EXPECT_DOUBLE_EQ(*dram.memories[0].w_cost, 32000.0);
  EXPECT_EQ(dram.memories[0].size, 10000000000000000LL);
  EXPECT_EQ(dram.type.kind, CoreKind::Offchip);
  EXPECT_EQ(dram.memories[0].ports.size(), 3u);
}

TEST(ReferenceHardware, TpuLikeQuadCore) {
  const Accelerator a = load("hardware/tpu_like_quad_core.yaml");
  EXPECT_EQ(a.name, "tpu_like_quad_core");
  ASSERT_EQ(a.size(), 7u);
  EXPECT_EQ(a.offchip_core_id, 6);
  for (int id = 0; id < 4; ++id) {
    EXPECT_EQ(a.core(id).name, "tpu_like");
    EXPECT_EQ(a.core(id).memory_capacity(), 16777216);
  }
  EXPECT_EQ(a.core(4).name, "pooling");
  EXPECT_EQ(a.core(4).total_unit_count(), 3 * 3 * 8);
  EXPECT_EQ(a.core(4).memory_capacity(), 128 * 1024 * 8);
  EXPECT_TRUE(a.core(4).accepts("MaxPool"));
  EXPECT_FALSE(a.core(4).accepts("Conv"));
  EXPECT_EQ(a.core(5).total_unit_count(), 64);
  EXPECT_TRUE(a.core(5).accepts("Relu"));
  EXPECT_EQ(a.core(6).kind(), CoreKind::Offchip);
  EXPECT_EQ(a.core(6).memory_capacity(), 10000000000LL);
  EXPECT_EQ(a.coordinates.at(6), (std::array<int, 2>{1, 2}));
  // 12 links (24 directed CLs) + 1 bus; the bus over all 7 cores replaces every link.
  EXPECT_EQ(a.links().size(), 25u);
  ASSERT_EQ(a.active_links().size(), 1u);
  const CommunicationLink& bus = a.links()[static_cast<std::size_t>(a.active_links()[0])];
  EXPECT_TRUE(bus.is_bus());
  EXPECT_DOUBLE_EQ(bus.bandwidth, 128.0);
  EXPECT_EQ(a.edges().size(), 7u * 6u);
  for (int i = 0; i < 7; ++i)
    for (int j = 0; j < 7; ++j)
      if (i != j) {
        EXPECT_EQ(a.edge(i, j), bus.id);
      }
  EXPECT_EQ(replacement_warnings(a), 12u);
  EXPECT_EQ(a.graph_cores(), (std::vector<int>{0, 1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(a.compute_cores(), (std::vector<int>{0, 1, 2, 3, 4, 5}));
  // The four tpu_like cores are costed once.
  EXPECT_EQ(a.performance_representatives(), (std::vector<int>{0, 0, 0, 0, 4, 5, 6}));
  EXPECT_EQ(a.shortest_path(0, 6), (std::vector<int>{0, 6}));
}

TEST(ReferenceHardware, EyerissSingleCoreBusIs64) {
  const Accelerator a = load("hardware/eyeriss_like_single_core.yaml");
  ASSERT_EQ(a.size(), 4u);
  EXPECT_EQ(a.offchip_core_id, 3);
  const Core& e = a.core(0);
  EXPECT_EQ(e.memories.size(), 6u);
  EXPECT_EQ(e.top_memory(Operand::I1)->name, "sram_1M");
  EXPECT_EQ(e.memory_capacity(), 8388608);  // 1 MB = 8 Mbit
  EXPECT_EQ(e.total_unit_count(), 14 * 12);
  EXPECT_EQ(e.top_memory(Operand::I2)->name, "sram_64KB");
  ASSERT_EQ(a.active_links().size(), 1u);
  EXPECT_DOUBLE_EQ(a.links()[static_cast<std::size_t>(a.active_links()[0])].bandwidth, 64.0);
  EXPECT_EQ(replacement_warnings(a), 2u);
}

TEST(ReferenceHardware, BusCollapsesMultiCoreSystems) {
  struct Case {
    const char* file;
    std::size_t cores;
    int offchip;
    double bus_bw;
  };
  for (const Case& c : {Case{"hardware/eyeriss_like_dual_core.yaml", 5, 4, 128},
                        Case{"hardware/eyeriss_like_quad_core.yaml", 7, 6, 128},
                        Case{"hardware/meta_prototype_dual_core_simd_offchip.yaml", 5, 4, 128},
                        Case{"hardware/simba_small.yaml", 5, 4, 128}}) {
    SCOPED_TRACE(c.file);
    const Accelerator a = load(c.file);
    EXPECT_EQ(a.size(), c.cores);
    EXPECT_EQ(a.offchip_core_id, c.offchip);
    ASSERT_EQ(a.active_links().size(), 1u);
    EXPECT_TRUE(a.links()[static_cast<std::size_t>(a.active_links()[0])].is_bus());
    EXPECT_DOUBLE_EQ(a.links()[static_cast<std::size_t>(a.active_links()[0])].bandwidth, c.bus_bw);
  }
  const Accelerator simba_small = load("hardware/simba_small.yaml");
  EXPECT_EQ(simba_small.core(0).memory_capacity(), 2 * 1024 * 1024);  // global_buffer 2 Mbit
  EXPECT_EQ(simba_small.core(0).total_unit_count(), 4 * 4 * 8 * 8);
}

TEST(ReferenceHardware, SimbaMeshKeepsEveryLink) {
  const Accelerator a = load("hardware/simba.yaml");
  ASSERT_EQ(a.size(), 37u);
  EXPECT_EQ(a.offchip_core_id, 36);
  // 6x6 mesh: 2*6*5 = 60 links, plus 6 DRAM links; two directed CLs each, none replaced.
  EXPECT_EQ(a.connectivity.size(), 66u);
  EXPECT_EQ(a.links().size(), 132u);
  EXPECT_EQ(a.active_links().size(), 132u);
  EXPECT_EQ(replacement_warnings(a), 0u);
  for (int id = 0; id < 36; ++id) EXPECT_EQ(a.core(id).memory_capacity(), 2 * 1024 * 1024);
  EXPECT_EQ(a.compute_cores().size(), 36u);
  // Core 30 (row 5, col 0) to core 5 (row 0, col 5): through the mesh is 10 hops, up column 0
  // to the DRAM core and down to 5 is 7 hops, and it is the only 7-hop route.
  const std::vector<int> expected{30, 24, 18, 12, 6, 0, 36, 5};
  EXPECT_EQ(a.shortest_path(30, 5), expected);
  const auto all = a.all_shortest_paths(30, 5);
  ASSERT_EQ(all.size(), 1u);
  EXPECT_EQ(all[0], expected);
  // Core 0 to core 7 (one step right, one down): two shortest paths.
  const auto two = a.all_shortest_paths(0, 7);
  ASSERT_EQ(two.size(), 2u);
  std::set<std::vector<int>> got(two.begin(), two.end());
  EXPECT_TRUE(got.count({0, 1, 7}));
  EXPECT_TRUE(got.count({0, 6, 7}));
  EXPECT_EQ(a.path_links(expected).size(), 7u);
  for (int l : a.path_links(expected)) {
    ASSERT_GE(l, 0);
    EXPECT_DOUBLE_EQ(a.links()[static_cast<std::size_t>(l)].bandwidth, 256.0);
  }
}

TEST(ReferenceHardware, FusemaxResolvesForeignPathsAndSharesMemory) {
  const Accelerator a = load("hardware/fusemax.yaml");
  ASSERT_EQ(a.size(), 3u);
  EXPECT_EQ(a.core(0).total_unit_count(), 256 * 256);
  EXPECT_EQ(a.core(1).total_unit_count(), 256);
  EXPECT_EQ(a.core(2).kind(), CoreKind::Offchip);
  ASSERT_EQ(a.memory_sharing.size(), 1u);
  EXPECT_EQ(a.memory_sharing[0].cores, (std::vector<int>{0, 1}));
  EXPECT_EQ(a.nb_shared_mem_groups(), 2);
  EXPECT_EQ(a.shared_memory_groups(), (std::vector<int>{0, 0, 1}));
  EXPECT_EQ(a.active_links().size(), 4u);
  for (const auto& l : a.links()) {
    EXPECT_DOUBLE_EQ(l.bandwidth, 512.0);
    EXPECT_DOUBLE_EQ(l.unit_energy_cost, 512.0);  // accelerator default
  }
  EXPECT_EQ(a.edge(0, 1), -1);  // not connected: they share memory
  EXPECT_EQ(a.shortest_path(0, 1), (std::vector<int>{0, 2, 1}));
  EXPECT_EQ(a.graph_cores(), (std::vector<int>{0, 2, 1}));
}

TEST(ReferenceHardware, TpuV7IronwoodHbmBusReplacesVmemLinks) {
  const Accelerator a = load("hardware/tpu_v7_ironwood.yaml");
  ASSERT_EQ(a.size(), 41u);
  EXPECT_EQ(a.offchip_core_id, 40);
  EXPECT_EQ(a.technology_node, std::optional<std::string>("n3"));
  int mxu = 0, vpu = 0, vmem = 0;
  for (const auto& c : a.cores) {
    if (c.name == "tpu_v7_mxu") ++mxu;
    if (c.name == "tpu_v7_vpu") ++vpu;
    if (c.name == "tpu_v7_vmem") {
      ++vmem;
      EXPECT_EQ(c.kind(), CoreKind::Memory);
      EXPECT_EQ(c.memory_capacity(), 64LL * 1024 * 1024 * 8);
    }
  }
  EXPECT_EQ(mxu, 32);
  EXPECT_EQ(vpu, 4);
  EXPECT_EQ(vmem, 4);
  EXPECT_EQ(a.core(0).total_unit_count(), 256 * 256);
  EXPECT_EQ(a.core(0).operand_precision->input, "bf16");
  EXPECT_EQ(a.core(8).operational_array.sizes, (std::vector<std::int64_t>{8, 128}));
  // The HBM bus [9, 19, 29, 39, 40] comes last and replaces the three VMEM links.
  EXPECT_EQ(replacement_warnings(a), 3u);
  EXPECT_EQ(a.active_links().size(), 5u);  // four TensorCore buses + the HBM bus
  const int hbm_bus = a.edge(9, 40);
  EXPECT_EQ(a.edge(9, 19), hbm_bus);
  EXPECT_EQ(a.edge(19, 29), hbm_bus);
  EXPECT_EQ(a.edge(39, 29), hbm_bus);
  EXPECT_DOUBLE_EQ(a.links()[static_cast<std::size_t>(hbm_bus)].bandwidth, 107345.0);
  EXPECT_DOUBLE_EQ(a.links()[static_cast<std::size_t>(a.edge(0, 9))].bandwidth, 416974.0);
  // MXUs and the VPU of one TensorCore perform alike within their kind.
  const auto reps = a.performance_representatives();
  EXPECT_EQ(reps[17], 0);
  EXPECT_EQ(reps[38], 8);
  EXPECT_EQ(reps[39], 9);
}

TEST(ReferenceHardware, AieArrays) {
  const Accelerator a = load("aie/hardware/whole_array.yaml");
  ASSERT_EQ(a.size(), 24u);
  EXPECT_EQ(a.core_namespace(), Namespace::Aie2);
  EXPECT_EQ(a.core(0).type.str(), "aie2.shim");
  EXPECT_EQ(a.core(1).type.str(), "aie2.memory");
  EXPECT_EQ(a.core(2).type.str(), "aie2.compute");
  EXPECT_EQ(a.core(2).memory_capacity(), 64 * 1024 * 8);
  EXPECT_EQ(a.core(2).max_object_fifo_depth, 12);
  EXPECT_EQ(a.core(1).memory_capacity(), 256 * 1024 * 8);
  EXPECT_EQ(a.core(1).aie2_memory.bandwidth_min, 128);
  EXPECT_EQ(a.core(1).aie2_memory.bandwidth_max, 768);
  EXPECT_DOUBLE_EQ(a.core(2).utilization, 100.0);
  EXPECT_EQ(a.coordinates.size(), 21u);  // shims 6, 12, 18 have none
  // Shims 6, 12 and 18 are declared but never connected: not graph nodes.
  for (int id : {6, 12, 18}) EXPECT_FALSE(a.in_graph(id));
  EXPECT_EQ(a.graph_cores().size(), 21u);
  EXPECT_EQ(a.compute_cores().size(), 16u);
  const Accelerator single = load("aie/hardware/single_core.yaml");
  EXPECT_EQ(single.size(), 3u);
  EXPECT_EQ(single.shortest_path(0, 2), (std::vector<int>{0, 1, 2}));
  const Accelerator strix = load("aie/hardware/whole_array_strix.yaml");
  EXPECT_EQ(strix.size(), 48u);
  const Accelerator col = load("aie/hardware/single_col.yaml");
  EXPECT_EQ(col.size(), 6u);
  EXPECT_EQ(col.shortest_path(0, 5), (std::vector<int>{0, 1, 2, 3, 4, 5}));
}

TEST(ReferenceHardware, TestingFilesResolveCoresByBaseName) {
  // `stream/inputs/testing/hardware/cores/testing_core1.yaml` is a path from the reference's repo
  // root; it resolves by base name next to the accelerator.
  const Accelerator dual = load("testing/hardware/dual_testing_core_offchip.yaml");
  ASSERT_EQ(dual.size(), 3u);
  EXPECT_EQ(dual.core(0).name, "testing_core1");
  EXPECT_EQ(dual.core(1).name, "testing_core2");
  ASSERT_EQ(dual.core(0).dataflows.size(), 2u);
  EXPECT_EQ(dual.core(0).dataflows[0].array_dimension, "D1");
  EXPECT_EQ(dual.core(0).dataflows[0].unrolling[0].layer_dim, "K");
  EXPECT_EQ(dual.core(0).dataflows[0].unrolling[0].factor, 16);
  EXPECT_EQ(dual.core(0).memory_capacity(), 1048576);  // sram_128K_A, the top I1
  // simple_example_hw names meta_prototype.yaml, which only exists under hardware/cores: found by
  // the reference's legacy search, with a warning.
  const Accelerator simple = load("testing/hardware/simple_example_hw.yaml");
  EXPECT_EQ(simple.core(0).name, "meta_prototype");
  EXPECT_TRUE(std::any_of(simple.warnings.begin(), simple.warnings.end(), [](const stream::Diagnostic& d) {
    return d.message.find("found by searching") != std::string::npos;
  }));
  const Accelerator single = load("testing/hardware/single_testing_core_offchip.yaml");
  EXPECT_EQ(single.size(), 2u);
  const Accelerator quad = load("testing/hardware/quad_testing_core_offchip.yaml");
  EXPECT_EQ(quad.size(), 5u);
}
