// cost::probe_core (cost/core_probe.hpp): a core whose ports lack a direction the model moves, or
// on which a canonical Conv/Gemm/MatMul falls back, is reported at its memory's or its own line;
// cores the reference costs properly, and cores that never run a MAC workload, are not.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "stream/cost/core_probe.hpp"
#include "stream/hardware/accelerator_reader.hpp"
#include "stream/hardware/core_reader.hpp"

#include "expect_diagnostic.hpp"

using namespace stream;
using namespace stream::cost;
using stream::test::replace;

namespace {

const std::filesystem::path kInputs = std::filesystem::path(STREAM_SOURCE_DIR) / "inputs" / "hardware";

// Two levels: per-PE weight and output registers over one SRAM (every direction allocated).
const std::string kCore =
    "name: c\n"                                                   // 1
    "type: zigzag.compute\n"                                      // 2
    "memories:\n"                                                 // 3
    "  rf_w:\n"                                                   // 4
    "    size: 8\n"                                               // 5
    "    r_cost: 0.1\n"                                           // 6
    "    w_cost: 0.1\n"                                           // 7
    "    area: 0\n"                                               // 8
    "    latency: 1\n"                                            // 9
    "    operands: [I2]\n"                                        // 10
    "    ports:\n"                                                // 11
    "      - {name: r_port_1, type: read, bandwidth_min: 8, bandwidth_max: 8, allocation: ['I2, tl']}\n"    // 12
    "      - {name: w_port_1, type: write, bandwidth_min: 8, bandwidth_max: 8, allocation: ['I2, fh']}\n"   // 13
    "    served_dimensions: []\n"                                 // 14
    "  rf_o:\n"                                                   // 15
    "    size: 32\n"                                              // 16
    "    r_cost: 0.1\n"                                           // 17
    "    w_cost: 0.1\n"                                           // 18
    "    area: 0\n"                                               // 19
    "    latency: 1\n"                                            // 20
    "    operands: [O]\n"                                         // 21
    "    ports:\n"                                                // 22
    "      - {name: r_port_1, type: read, bandwidth_min: 32, bandwidth_max: 32, allocation: ['O, tl', 'O, th']}\n"  // 23
    "      - {name: w_port_1, type: write, bandwidth_min: 32, bandwidth_max: 32, allocation: ['O, fh', 'O, fl']}\n" // 24
    "    served_dimensions: [D2]\n"                               // 25
    "  sram:\n"                                                   // 26
    "    size: 8388608\n"                                         // 27
    "    r_cost: 100\n"                                           // 28
    "    w_cost: 100\n"                                           // 29
    "    area: 0\n"                                               // 30
    "    latency: 1\n"                                            // 31
    "    operands: [I1, I2, O]\n"                                 // 32
    "    ports:\n"                                                // 33
    "      - {name: r_port_1, type: read, bandwidth_min: 64, bandwidth_max: 1024,\n"                          // 34
    "         allocation: ['I1, tl', 'I2, tl', 'O, tl', 'O, th']}\n"                                           // 35
    "      - {name: w_port_1, type: write, bandwidth_min: 64, bandwidth_max: 1024,\n"                         // 36
    "         allocation: ['I1, fh', 'I2, fh', 'O, fh', 'O, fl']}\n"                                           // 37
    "    served_dimensions: [D1, D2]\n"                           // 38
    "operational_array:\n"                                        // 39
    "  dimensions: [D1, D2]\n"                                    // 40
    "  sizes: [8, 8]\n"                                           // 41
    "  unit_energy: 0.04\n"                                       // 42
    "  unit_area: 1\n";                                           // 43

std::vector<CoreProblem> probe(const std::string& text, const std::string& file = "probe_core.yaml") {
  return probe_core(hardware::parse_core_text(text, file));
}

}  // namespace

TEST(CoreProbe, WellFormedCoreHasNoProblem) { EXPECT_TRUE(probe(kCore).empty()); }

TEST(CoreProbe, MissingPartialSumReadIsReportedAtTheMemory) {
  // The output register keeps results but cannot send partial sums back to the MACs: the model
  // moves them there in every Conv, whose reduction (c, fy, fx) does not fit the 64 MACs at once.
  const auto p = probe(replace(kCore, "allocation: ['O, tl', 'O, th']", "allocation: ['O, th']"));
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(p[0].where.file, "probe_core.yaml");
  EXPECT_EQ(p[0].where.line, 15);
  EXPECT_EQ(p[0].message,
            "core 'c': memory level 0 of operand O (rf_o) has no port allocated for reads towards lower levels "
            "('O, tl'); add the tag to the `allocation` of its ports (tl, th on a read or read_write port; fh, fl "
            "on a write or read_write port), or every Conv, Gemm and MatMul on this core falls back to an "
            "ideal-cycle estimate");
}

TEST(CoreProbe, TopLevelNeedsNoTransferUpwards) {
  // Nothing sits above a top level inside the core: no 'th'/'fh' is asked of it, 'tl'/'fl' are.
  EXPECT_TRUE(probe(replace(replace(kCore, "'I2, tl', 'O, tl', 'O, th']", "'I2, tl', 'O, tl']"),
                            "'I2, fh', 'O, fh', 'O, fl']", "'I2, fh', 'O, fl']"))
                  .empty());
  const auto p = probe(replace(kCore, "'I2, fh', 'O, fh', 'O, fl']", "'I2, fh', 'O, fh']"));
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(p[0].where.line, 26);
  EXPECT_NE(p[0].message.find("memory level 1 of operand O (sram) has no port allocated for writes from lower "
                              "levels ('O, fl')"),
            std::string::npos)
      << p[0].message;
}

TEST(CoreProbe, CoreWithoutAllocationsReportsEveryMemoryOnce) {
  const auto file = std::filesystem::path(STREAM_SOURCE_DIR) / "tests" / "data" / "hardware" / "cores" /
                    "mesh_core_32x32_no_allocation.yaml";
  const auto p = probe_core(hardware::load_core_file(file));
  // rf_1B_W (I2), rf_4B_O (O), then sram_1MB's I1, I2 and O: one problem per (memory, operand).
  ASSERT_EQ(p.size(), 5u);
  for (const auto& problem : p) EXPECT_EQ(problem.where.file, file.string());
  EXPECT_EQ(p[0].where.line, 7);
  EXPECT_NE(p[0].message.find("memory level 0 of operand I2 (rf_1B_W) has no port allocated for reads towards "
                              "lower levels ('I2, tl') or writes from the higher level ('I2, fh')"),
            std::string::npos)
      << p[0].message;
  EXPECT_EQ(p[1].where.line, 25);
  EXPECT_EQ(p[1].where.column, 3);
  EXPECT_EQ(p[1].message,
            "core 'mesh_core_32x32': memory level 0 of operand O (rf_4B_O) has no port allocated for reads towards "
            "lower levels ('O, tl') or writes from lower levels ('O, fl') or reads towards the higher level ('O, th') "
            "or writes from the higher level ('O, fh'); add the tags to the `allocation` of its ports (tl, th on a "
            "read or read_write port; fh, fl on a write or read_write port), or every Conv, Gemm and MatMul on this "
            "core falls back to an ideal-cycle estimate");
  for (std::size_t i = 2; i < 5; ++i) EXPECT_EQ(p[i].where.line, 51) << p[i].message;
  EXPECT_NE(p[4].message.find("memory level 1 of operand O (sram_1MB)"), std::string::npos) << p[4].message;
}

TEST(CoreProbe, MemoryNarrowerThanOneElementIsNamed) {
  // Ports complete, but a 32-bit accumulator precision cannot sit in a 16-bit output register.
  const std::string text = replace(kCore, "    size: 32\n", "    size: 16\n") + "operand_precision: {input: int8, accumulator: int32}\n";
  const auto p = probe(text);
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(p[0].where.line, 15);
  EXPECT_NE(p[0].message.find("memory 'rf_o' (16 bits) cannot hold one 32-bit element of operand O"), std::string::npos)
      << p[0].message;
  // At the default 8-bit operands the same register holds partial sums: the reference costs it.
  EXPECT_TRUE(probe(replace(kCore, "    size: 32\n", "    size: 16\n")).empty());
}

TEST(CoreProbe, CoresThatRunNoMacWorkloadAreNotProbed) {
  const std::string no_tl = replace(kCore, "allocation: ['O, tl', 'O, th']", "allocation: ['O, th']");
  EXPECT_TRUE(probe(no_tl + "operator_types: [Relu, Add]\n").empty());
  EXPECT_FALSE(probe(no_tl + "operator_types: [Relu, MatMul]\n").empty());
  EXPECT_TRUE(probe(replace(replace(no_tl, "type: zigzag.compute", "type: zigzag.offchip"), "sizes: [8, 8]",
                            "sizes: [0, 0]"))
                  .empty());
}

TEST(CoreProbe, VerdictFollowsTheCoreNotTheCache) {
  // Same hardware under another name and file: its own name and place, not the first one's.
  const std::string no_tl = replace(kCore, "allocation: ['O, tl', 'O, th']", "allocation: ['O, th']");
  const auto a = probe(no_tl, "a.yaml");
  const auto b = probe(replace(no_tl, "name: c\n", "name: d\n"), "b.yaml");
  ASSERT_EQ(a.size(), 1u);
  ASSERT_EQ(b.size(), 1u);
  EXPECT_EQ(a[0].where.file, "a.yaml");
  EXPECT_EQ(b[0].where.file, "b.yaml");
  EXPECT_EQ(b[0].message.rfind("core 'd':", 0), 0u) << b[0].message;
  EXPECT_TRUE(probe(kCore, "a.yaml").empty());  // fixed in the same file: probed again
}

TEST(CoreProbe, EveryBundledCoreFileIsCostable) {
  std::size_t files = 0;
  for (const auto& e : std::filesystem::directory_iterator(kInputs / "cores")) {
    ++files;
    const auto p = probe_core(hardware::load_core_file(e.path()));
    EXPECT_TRUE(p.empty()) << e.path() << ": " << (p.empty() ? "" : p[0].message);
  }
  EXPECT_GE(files, 12u);
}

TEST(CoreProbe, EveryReferenceAcceleratorIsCostable) {
  // The reference's own files (its examples, its tests' and the AIE ones): it costs them all.
  const auto inputs = std::filesystem::path(STREAM_TEST_DATA_DIR) / "reference" / "stream-inputs";
  std::size_t files = 0;
  for (const char* dir : {"hardware", "testing/hardware", "aie/hardware"})
    for (const auto& e : std::filesystem::directory_iterator(inputs / dir)) {
      if (e.path().extension() != ".yaml") continue;
      ++files;
      const auto p = probe_accelerator(hardware::load_accelerator(e.path()));
      EXPECT_TRUE(p.empty()) << e.path() << ": " << (p.empty() ? "" : p[0].message);
    }
  EXPECT_EQ(files, 18u);
}
