// Memory accesses of the transfers (spec §4.10) on the 2-conv workload, hand-derived from tensor
// shapes (bf16 = 16 bits), the per-core tiles of the inter-core splits and the port widths in the
// hardware files:
//   tpu_like core: top I1 memory sram_2MB, first read port 2048 b, first write port 2048 b
//   eyeriss_like core: top I1 memory sram_1M, first port read_write 384 b
//   offchip: dram, rw_port_1 64 b
// One access = one port-width word: ceil(tile bits / width) per firing, times the firings.
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <stream/hardware/accelerator_reader.hpp>
#include <stream/pipeline/memory_accesses.hpp>
#include <stream/pipeline/run.hpp>
#include <stream/report/group_files.hpp>
#include <stream/report/summary.hpp>

#include "../schedule/two_conv_fixture.hpp"

using namespace stream;
using pipeline::AccessRole;

namespace {

hardware::Accelerator hw(const std::string& file) {
  return hardware::load_accelerator(std::string(STREAM_INPUTS_DIR) + "/hardware/" + file);
}

// Automatic mapping; `oy_tiles` > 0 tiles Conv1's oy (local D2) into tiles of that many rows.
const pipeline::RunResult& two_conv_run(const std::string& hardware_file, std::int64_t oy_tile = 0) {
  static std::map<std::pair<std::string, std::int64_t>, pipeline::RunResult> cache;
  auto key = std::make_pair(hardware_file, oy_tile);
  auto it = cache.find(key);
  if (it == cache.end()) {
    pipeline::RunSpec o;
    if (oy_tile > 0) o.intra_core_tiling = {{"Conv1", 2, oy_tile}};
    it = cache.emplace(key, pipeline::run(test::two_conv(), hw(hardware_file), o)).first;
  }
  return it->second;
}

const pipeline::TransferAccess* find(const pipeline::MemoryAccesses& m, int core, const std::string& transfer,
                                     AccessRole role) {
  const auto* c = m.core(core);
  if (c == nullptr) return nullptr;
  for (const auto& t : c->transfers)
    if (t.transfer == transfer && t.role == role) return &t;
  return nullptr;
}

std::int64_t accesses(const pipeline::MemoryAccesses& m, int core, const std::string& transfer, AccessRole role) {
  const auto* t = find(m, core, transfer, role);
  return t == nullptr ? -1 : t->accesses;
}

std::int64_t reuse_factor(const pipeline::GroupResult& g, const std::string& tensor) {
  return g.allocation.reuse_factor.at(static_cast<std::size_t>(g.schedule.tensor_index(tensor)));
}

}  // namespace

TEST(MemoryAccesses, TwoConvTpuQuadCoreHandDerived) {
  const auto& r = two_conv_run("tpu_like_quad_core.yaml");
  ASSERT_TRUE(r.solved());
  const auto& g = r.groups[0];
  // Preconditions of the derivation: both convs on cores 0-3 split over ox (local D1) by 4, one
  // iteration (fires = 1 everywhere).
  for (const char* conv : {"Conv1", "Conv2"}) {
    const auto& nm = g.mapping.nodes[g.workload.index_of(conv)];
    ASSERT_EQ(nm.cores, (std::vector<int>{0, 1, 2, 3}));
    ASSERT_EQ(nm.inter_core_tiling, (std::vector<mapping::DimSplit>{{1, 4}}));
  }
  ASSERT_EQ(g.schedule.iterations, 1);
  const auto& m = g.memory_accesses;
  EXPECT_EQ(m.iterations, 1);

  // Off-chip (core 6) reads every graph input whole, writes the graph output whole, 64 b words:
  //   input 1*8*32*32*16 = 131072 b -> 2048; weights_1 16*8*3*3*16 = 18432 b -> 288;
  //   weights_2 32*16*3*3*16 = 73728 b -> 1152; output 1*32*32*32*16 = 524288 b -> 8192 writes.
  EXPECT_EQ(accesses(m, 6, "Transfer(input)", AccessRole::Source), 2048);
  EXPECT_EQ(accesses(m, 6, "Transfer(weights_1)", AccessRole::Source), 288);
  EXPECT_EQ(accesses(m, 6, "Transfer(weights_2)", AccessRole::Source), 1152);
  EXPECT_EQ(accesses(m, 6, "Transfer(output_1)", AccessRole::Target), 8192);
  const auto* off = m.core(6);
  ASSERT_NE(off, nullptr);
  EXPECT_EQ(off->read_bandwidth, 64);
  EXPECT_EQ(off->write_bandwidth, 64);
  EXPECT_EQ(off->reads, 2048 + 288 + 1152);
  EXPECT_EQ(off->bits_read, 131072 + 18432 + 73728);
  EXPECT_EQ(off->writes, 8192);
  EXPECT_EQ(off->bits_written, 524288);

  // Each tpu core, 2048 b ports. Per-core tiles with ox split 4 (ox extent 8):
  //   input tile: c 8, rows oy+fy-1 over [-1,32] clipped to 32, cols ox+fx-1 over [-1,8] clipped
  //     to 9: 8*32*9*16 = 36864 b -> 18 writes
  //   weights_1 (not split): 18432 b -> 9 writes; weights_2: 73728 b -> 36 writes
  //   conv1_out produced: 16*32*8*16 = 65536 b -> 32 reads; read by Conv2 as 16*32*9*16 = 73728 b
  //     -> 36 writes
  //   output produced: 32*32*8*16 = 131072 b -> 64 reads
  for (int c = 0; c < 4; ++c) {
    SCOPED_TRACE("core " + std::to_string(c));
    const auto* core = m.core(c);
    ASSERT_NE(core, nullptr);
    EXPECT_EQ(core->read_bandwidth, 2048);
    EXPECT_EQ(core->write_bandwidth, 2048);
    EXPECT_EQ(find(m, c, "Transfer(input)", AccessRole::Target)->tile_bits, 36864);
    EXPECT_EQ(accesses(m, c, "Transfer(input)", AccessRole::Target), 18);
    EXPECT_EQ(accesses(m, c, "Transfer(weights_1)", AccessRole::Target), 9);
    EXPECT_EQ(accesses(m, c, "Transfer(conv1_out)", AccessRole::Source), 32);
    EXPECT_EQ(accesses(m, c, "Transfer(conv1_out)", AccessRole::Target), 36);
    EXPECT_EQ(accesses(m, c, "Transfer(weights_2)", AccessRole::Target), 36);
    EXPECT_EQ(accesses(m, c, "Transfer(output_1)", AccessRole::Source), 64);
    EXPECT_EQ(core->reads, 32 + 64);
    EXPECT_EQ(core->writes, 18 + 9 + 36 + 36);
    EXPECT_EQ(core->bits_read, 65536 + 131072);
    EXPECT_EQ(core->bits_written, 36864 + 18432 + 73728 + 73728);
  }
  EXPECT_EQ(m.reads, 4 * 96 + 3488);
  EXPECT_EQ(m.writes, 4 * 99 + 8192);
  // Only the four compute cores and the DRAM controller are touched (not pooling 4 / SIMD 5).
  std::vector<int> ids;
  for (const auto& c : m.cores) ids.push_back(c.core);
  EXPECT_EQ(ids, (std::vector<int>{0, 1, 2, 3, 6}));
}

TEST(MemoryAccesses, TwoConvEyerissSingleCoreHandDerived) {
  const auto& r = two_conv_run("eyeriss_like_single_core.yaml");
  ASSERT_TRUE(r.solved());
  const auto& m = r.groups[0].memory_accesses;
  ASSERT_EQ(r.groups[0].schedule.iterations, 1);
  // One compute core (0) holds whole tensors; its port is 384 b wide (read_write):
  //   writes: input 131072/384 -> 342, weights_1 18432/384 = 48, conv1_out 262144/384 -> 683,
  //           weights_2 73728/384 = 192
  //   reads:  conv1_out -> 683, output 524288/384 -> 1366
  EXPECT_EQ(accesses(m, 0, "Transfer(input)", AccessRole::Target), 342);
  EXPECT_EQ(accesses(m, 0, "Transfer(weights_1)", AccessRole::Target), 48);
  EXPECT_EQ(accesses(m, 0, "Transfer(conv1_out)", AccessRole::Source), 683);
  EXPECT_EQ(accesses(m, 0, "Transfer(conv1_out)", AccessRole::Target), 683);
  EXPECT_EQ(accesses(m, 0, "Transfer(weights_2)", AccessRole::Target), 192);
  EXPECT_EQ(accesses(m, 0, "Transfer(output_1)", AccessRole::Source), 1366);
  const auto* c0 = m.core(0);
  ASSERT_NE(c0, nullptr);
  EXPECT_EQ(c0->read_bandwidth, 384);
  EXPECT_EQ(c0->reads, 683 + 1366);
  EXPECT_EQ(c0->writes, 342 + 48 + 683 + 192);
  // Off-chip is core 3 here; same figures as on the tpu system (same DRAM file).
  const auto* off = m.core(3);
  ASSERT_NE(off, nullptr);
  EXPECT_EQ(off->reads, 2048 + 288 + 1152);
  EXPECT_EQ(off->writes, 8192);
  EXPECT_EQ(m.reads, 2049 + 3488);
  EXPECT_EQ(m.writes, 1265 + 8192);
}

TEST(MemoryAccesses, FiresCountEveryIterationOverTheReuseFactor) {
  // Conv1's oy in tiles of 8 rows: 4 steady-state iterations over Conv1's oy loop.
  for (const char* file : {"tpu_like_quad_core.yaml", "eyeriss_like_single_core.yaml"}) {
    SCOPED_TRACE(file);
    const auto& r = two_conv_run(file, 8);
    ASSERT_TRUE(r.solved());
    const auto& g = r.groups[0];
    ASSERT_EQ(g.schedule.iterations, 4);
    const auto& m = g.memory_accesses;
    EXPECT_EQ(m.iterations, 4);
    const bool tpu = std::string(file).rfind("tpu", 0) == 0;
    const int off = tpu ? 6 : 3;
    // The input varies with oy: it moves every iteration unless the MILP keeps it (it cannot: a
    // varying loop gives no reuse), fires = 4. Tile per iteration: rows oy+fy-1 over [-1,8]
    // clipped to 9: 8*9*32*16 = 36864 b -> 576 DRAM words, x4.
    ASSERT_EQ(reuse_factor(g, "input_1"), 1);
    EXPECT_EQ(find(m, off, "Transfer(input)", AccessRole::Source)->fires, 4);
    EXPECT_EQ(accesses(m, off, "Transfer(input)", AccessRole::Source), 576 * 4);
    // weights_1 does not vary with oy (INVARIANT loop): fires = 4 // reuse factor chosen.
    const std::int64_t w1_fires = 4 / reuse_factor(g, "weights_1_1");
    EXPECT_EQ(find(m, off, "Transfer(weights_1)", AccessRole::Source)->fires, w1_fires);
    EXPECT_EQ(accesses(m, off, "Transfer(weights_1)", AccessRole::Source), 288 * w1_fires);
    // Conv2 does not iterate over Conv1's oy (its loop is ABSENT): weights_2 and the output
    // move once.
    EXPECT_EQ(accesses(m, off, "Transfer(weights_2)", AccessRole::Source), 1152);
    EXPECT_EQ(accesses(m, off, "Transfer(output_1)", AccessRole::Target), 8192);
    if (tpu) {
      // Per core, ox split 4: input tile 8*9*9*16 = 10368 b -> 6 writes x4; conv1_out produced
      // 16*8*8*16 = 16384 b -> 8 reads x4; read by Conv2 as 16*8*9*16 = 18432 b -> 9 writes x4.
      EXPECT_EQ(accesses(m, 0, "Transfer(input)", AccessRole::Target), 6 * 4);
      EXPECT_EQ(accesses(m, 2, "Transfer(conv1_out)", AccessRole::Source), 8 * 4);
      EXPECT_EQ(accesses(m, 3, "Transfer(conv1_out)", AccessRole::Target), 9 * 4);
      EXPECT_EQ(accesses(m, 1, "Transfer(weights_1)", AccessRole::Target), 9 * w1_fires);
    } else {
      // Whole tiles on one 384 b port: the rounding is per firing, so conv1_out (65536 b per
      // iteration -> 171 words) costs 684, one more than the untiled 683.
      EXPECT_EQ(accesses(m, 0, "Transfer(input)", AccessRole::Target), 96 * 4);
      EXPECT_EQ(accesses(m, 0, "Transfer(conv1_out)", AccessRole::Source), 171 * 4);
      EXPECT_EQ(accesses(m, 0, "Transfer(conv1_out)", AccessRole::Target), 171 * 4);
    }
  }
}

// Bits leaving the sources equal bits arriving for a transfer with one target core (the
// producer's tiles partition the tensor); a multicast or a halo only adds bits on the targets.
TEST(MemoryAccesses, BitsReadEqualBitsWrittenForSingleTargetTransfers) {
  int single = 0, multi = 0;
  for (const char* file : {"tpu_like_quad_core.yaml", "eyeriss_like_single_core.yaml"})
    for (std::int64_t oy : {0, 8}) {
      SCOPED_TRACE(std::string(file) + " oy tile " + std::to_string(oy));
      const auto& g = two_conv_run(file, oy).groups[0];
      std::map<std::string, std::int64_t> read, written;
      std::map<std::string, std::set<int>> targets;
      for (const auto& c : g.memory_accesses.cores)
        for (const auto& t : c.transfers) {
          (t.role == AccessRole::Source ? read : written)[t.transfer] += t.bits;
          if (t.role == AccessRole::Target) targets[t.transfer].insert(c.core);
        }
      std::int64_t transfers = 0;
      for (const auto& n : g.schedule.nodes) transfers += n.kind == schedule::SsKind::Transfer;
      ASSERT_EQ(static_cast<std::int64_t>(read.size()), transfers);
      for (const auto& [name, bits] : read) {
        if (targets[name].size() == 1) {
          EXPECT_EQ(written[name], bits) << name;
          ++single;
        } else {
          EXPECT_GE(written[name], bits) << name;
          ++multi;
        }
      }
      std::int64_t total_read = 0, total_written = 0;
      for (const auto& c : g.memory_accesses.cores) {
        total_read += c.bits_read;
        total_written += c.bits_written;
      }
      EXPECT_EQ(total_read, g.memory_accesses.bits_read);
      EXPECT_EQ(total_written, g.memory_accesses.bits_written);
      // One core: every transfer has one target, so the group conserves bits.
      if (std::string(file).rfind("eyeriss", 0) == 0) {
        EXPECT_EQ(total_read, total_written);
      }
    }
  EXPECT_GT(single, 0);
  EXPECT_GT(multi, 0);
}

TEST(MemoryAccesses, OrderIsCoreIdThenTransferOrder) {
  const auto& g = two_conv_run("tpu_like_quad_core.yaml").groups[0];
  std::map<std::string, std::size_t> position;
  for (std::size_t i = 0; i < g.schedule.nodes.size(); ++i) position[g.schedule.nodes[i].name] = i;
  int last_core = -1;
  for (const auto& c : g.memory_accesses.cores) {
    EXPECT_GT(c.core, last_core);
    last_core = c.core;
    for (std::size_t k = 1; k < c.transfers.size(); ++k) {
      const auto& a = c.transfers[k - 1];
      const auto& b = c.transfers[k];
      EXPECT_TRUE(position[a.transfer] < position[b.transfer] ||
                  (a.transfer == b.transfer && a.role == AccessRole::Source && b.role == AccessRole::Target))
          << a.transfer << " before " << b.transfer;
    }
  }
}

TEST(MemoryAccesses, UnsolvedAllocationGivesNoAccesses) {
  const auto& g = two_conv_run("tpu_like_quad_core.yaml").groups[0];
  const auto m = pipeline::estimate_memory_accesses(g.schedule, allocate::Allocation{}, hw("tpu_like_quad_core.yaml"));
  EXPECT_TRUE(m.cores.empty());
  EXPECT_EQ(m.reads, 0);
  EXPECT_EQ(m.writes, 0);
}

TEST(MemoryAccesses, ReportedPerGroupAndInTheSummary) {
  const auto& r = two_conv_run("tpu_like_quad_core.yaml");
  const auto yaml = report::memory_accesses_yaml(r.groups[0]);
  EXPECT_NE(yaml.find("iterations: 1\n"), std::string::npos) << yaml;
  EXPECT_NE(yaml.find("totals: {reads: 3872, writes: 8588, bits_read: 1009664, bits_written: 1335296}"),
            std::string::npos)
      << yaml;
  EXPECT_NE(yaml.find("{transfer: Transfer(output_1), tensor: output, role: target, tile_bits: 524288, bandwidth: 64, "
                      "fires: 1, writes: 8192, bits_written: 524288}"),
            std::string::npos)
      << yaml;
  const auto summary = report::summary_yaml(r);
  EXPECT_NE(summary.find("memory_accesses: {reads: 3872, writes: 8588}"), std::string::npos) << summary;
  const auto j = nlohmann::json::parse(report::summary_json(r));
  EXPECT_EQ(j["groups"]["group_0"]["memory_accesses"]["reads"], 3872);
  EXPECT_EQ(j["groups"]["group_0"]["memory_accesses"]["writes"], 8588);
}
