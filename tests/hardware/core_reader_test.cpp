// One negative test per validation rule of the core reader (hardware/core_reader.hpp): the read
// fails, and the error names the rule and the line where the problem is.
#include <gtest/gtest.h>

#include <string>

#include "stream/hardware/core_reader.hpp"

#include "expect_diagnostic.hpp"

using namespace stream;
using namespace stream::hardware;

namespace {

std::vector<Diagnostic> core_errors(const std::string& text) {
  try {
    (void)parse_core_text(text, "core.yaml");
  } catch (const ValidationError& e) {
    return e.diagnostics();
  }
  return {};
}

using stream::test::expect_one;

using stream::test::replace;

}  // namespace

const std::string kCore =
    "name: c\n"                         // 1
    "type: zigzag.compute\n"            // 2
    "memories:\n"                       // 3
    "  sram:\n"                         // 4
    "    size: 1024\n"                  // 5
    "    r_cost: 1\n"                   // 6
    "    w_cost: 1\n"                   // 7
    "    area: 0\n"                     // 8
    "    latency: 1\n"                  // 9
    "    operands: [I1, I2, O]\n"       // 10
    "    ports:\n"                      // 11
    "      - name: r_port_1\n"          // 12
    "        type: read\n"              // 13
    "        bandwidth_min: 8\n"        // 14
    "        bandwidth_max: 64\n"       // 15
    "        allocation: ['I1, tl', 'I2, tl', 'O, tl', 'O, th']\n"  // 16
    "      - name: w_port_1\n"          // 17
    "        type: write\n"             // 18
    "        bandwidth_min: 8\n"        // 19
    "        bandwidth_max: 64\n"       // 20
    "        allocation: ['I1, fh', 'I2, fh', 'O, fh', 'O, fl']\n"  // 21
    "    served_dimensions: [D1, D2]\n" // 22
    "operational_array:\n"              // 23
    "  dimensions: [D1, D2]\n"          // 24
    "  sizes: [4, 8]\n"                 // 25
    "  unit_energy: 0.5\n"              // 26
    "  unit_area: 1\n";                 // 27

TEST(CoreValidation, ValidBaseLoads) {
  ASSERT_TRUE(core_errors(kCore).empty());
  const Core c = parse_core_text(kCore, "core.yaml");
  EXPECT_EQ(c.total_unit_count(), 32);
  EXPECT_EQ(c.memory_capacity(), 1024);
}

TEST(CoreValidation, UnknownKeyInZigzagCore) {
  expect_one(core_errors(kCore + "utilization: 80\n"), "unknown key 'utilization'", 28);
}

TEST(CoreValidation, UnknownKeyInMemory) {
  expect_one(core_errors(replace(kCore, "    latency: 1\n", "    latency: 1\n    banks: 4\n")), "unknown key 'banks'", 10);
}

TEST(CoreValidation, UnsupportedType) {
  expect_one(core_errors(replace(kCore, "zigzag.compute", "zigzag.shim")), "has unsupported type 'zigzag.shim'", 2);
}

TEST(CoreValidation, UnknownNamespace) {
  expect_one(core_errors(replace(kCore, "zigzag.compute", "npu.compute")), "unknown namespace 'npu'", 2);
}

TEST(CoreValidation, BareKindMeansZigzag) {
  const Core c = parse_core_text(replace(kCore, "zigzag.compute", "memory"), "core.yaml");
  EXPECT_EQ(c.type.str(), "zigzag.memory");
  const Core d = parse_core_text(replace(kCore, "type: zigzag.compute\n", ""), "core.yaml");
  EXPECT_EQ(d.type.str(), "zigzag.compute");
}

TEST(CoreValidation, ReadPortGivenWriteDirection) {
  expect_one(core_errors(replace(kCore, "['I1, tl', 'I2, tl'", "['I1, fh', 'I2, tl'")),
             "Read port given for write direction in sram", 16);
}

TEST(CoreValidation, WritePortGivenReadDirection) {
  expect_one(core_errors(replace(kCore, "'O, fh', 'O, fl']", "'O, fh', 'O, th']")),
             "Write port given for read direction in sram", 21);
}

TEST(CoreValidation, MinBandwidthAboveMax) {
  expect_one(core_errors(replace(kCore, "        bandwidth_min: 8\n        bandwidth_max: 64\n        allocation: ['I1, fh'",
                                 "        bandwidth_min: 128\n        bandwidth_max: 64\n        allocation: ['I1, fh'")),
             "Minimum bandwidth is greater than maximum bandwidth in sram", 19);
}

TEST(CoreValidation, ServedDimensionMustExist) {
  expect_one(core_errors(replace(kCore, "served_dimensions: [D1, D2]", "served_dimensions: [D1, D3]")),
             "Invalid served dimension D3", 22);
}

TEST(CoreValidation, DimensionsAndSizesMatch) {
  expect_one(core_errors(replace(kCore, "sizes: [4, 8]", "sizes: [4, 8, 2]")), "Core dimensions and sizes do not match", 25);
}

TEST(CoreValidation, CostRequiredWithoutAutoExtraction) {
  expect_one(core_errors(replace(kCore, "    r_cost: 1\n", "")), "'r_cost' of sram is missing", 5);
}

TEST(CoreValidation, AutoCostExtractionIsAnErrorAtItsLine) {
  // ZigZag's request for CACTI costs: Stream has no such model, and the energy would be 0.
  const auto errors = core_errors(
      replace(replace(kCore, "    r_cost: 1\n", ""), "    area: 0\n", "    area: 0\n    auto_cost_extraction: true\n"));
  expect_one(errors, "auto_cost_extraction: true asks for CACTI-extracted costs, which Stream does not compute", 8);
  EXPECT_NE(errors[0].message.find("remove it and write r_cost and w_cost (pJ per access of one port-width word) and "
                                   "area for sram"),
            std::string::npos)
      << errors[0].message;
  // Given its costs too, it is still an error: the reference would replace them with CACTI's.
  expect_one(core_errors(replace(kCore, "    area: 0\n", "    area: 0\n    auto_cost_extraction: True\n")),
             "auto_cost_extraction: true", 9);
  EXPECT_TRUE(core_errors(replace(kCore, "    area: 0\n", "    area: 0\n    auto_cost_extraction: false\n")).empty());
}

namespace {
std::vector<Diagnostic> core_warnings(const std::string& text) {
  Diagnostics diag(false);
  (void)parse_core_text(text, "core.yaml", &diag);
  return diag.warnings();
}
}  // namespace

TEST(CoreValidation, ZeroAccessEnergyOnAComputeCoreIsAWarningAtItsLine) {
  EXPECT_TRUE(core_warnings(kCore).empty());
  const auto both = core_warnings(replace(replace(kCore, "r_cost: 1\n", "r_cost: 0\n"), "w_cost: 1\n", "w_cost: 0\n"));
  ASSERT_EQ(both.size(), 1u);
  EXPECT_EQ(both[0].where.file, "core.yaml");
  EXPECT_EQ(both[0].where.line, 6);
  EXPECT_EQ(both[0].message, "core 'c', memory 'sram': r_cost and w_cost are 0 on a compute core: its reads and writes "
                             "add no energy to any result");
  const auto writes = core_warnings(replace(kCore, "w_cost: 1\n", "w_cost: 0.0\n"));
  ASSERT_EQ(writes.size(), 1u);
  EXPECT_EQ(writes[0].where.line, 7);
  EXPECT_NE(writes[0].message.find("w_cost is 0 on a compute core: its writes add no energy"), std::string::npos);
}

TEST(CoreValidation, ZeroUnitEnergyOnAComputeCoreIsAWarningAtItsLine) {
  const auto w = core_warnings(replace(kCore, "unit_energy: 0.5", "unit_energy: 0"));
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0].where.line, 26);
  EXPECT_EQ(w[0].message, "core 'c', operational_array: unit_energy is 0 on a compute core: its MACs add no energy to "
                          "any result");
  // An off-chip core computes nothing: its zeros are the norm (the reference's offchip.yaml).
  EXPECT_TRUE(core_warnings(replace(replace(replace(kCore, "unit_energy: 0.5", "unit_energy: 0"), "r_cost: 1\n",
                                            "r_cost: 0\n"),
                                    "type: zigzag.compute", "type: zigzag.offchip"))
                  .empty());
}

TEST(CoreValidation, PortNamePattern) {
  expect_one(core_errors(replace(kCore, "name: r_port_1", "name: read0")), "does not match ^[r]?[w]?_port_<n>$", 12);
}

TEST(CoreValidation, AllocationPattern) {
  expect_one(core_errors(replace(kCore, "'O, th']", "'O,th']")), "allocation 'O,th' does not match", 16);
}

TEST(CoreValidation, OperandPattern) {
  expect_one(core_errors(replace(kCore, "operands: [I1, I2, O]", "operands: [I1, I2, O, W]")),
             "operand must be I1, I2 or O, got 'W'", 10);
}

TEST(CoreValidation, IntegerFields) {
  expect_one(core_errors(replace(kCore, "size: 1024", "size: 1k")), "'size' must be an integer, got '1k'", 5);
  expect_one(core_errors(replace(kCore, "size: 1024", "size: 10.5")), "'size' must be an integer", 5);
}

TEST(CoreValidation, NonImcArrayRules) {
  expect_one(core_errors(kCore + "  imc_type: analog\n"), "'imc_type' must be null for a non-IMC array", 28);
}

TEST(CoreValidation, EveryOperandNeedsMemory) {
  expect_one(core_errors(replace(kCore, "operands: [I1, I2, O]", "operands: [I1, O]")), "no memory stores operand I2", 4);
}

TEST(CoreValidation, CostsAreFiniteAndNotNegative) {
  // A negative or infinite cost gave negative or infinite energy with exit 0.
  expect_one(core_errors(replace(kCore, "r_cost: 1", "r_cost: -1")), "'r_cost' must be >= 0, got -1", 6);
  expect_one(core_errors(replace(kCore, "w_cost: 1", "w_cost: .inf")), "'w_cost' must be finite", 7);
  expect_one(core_errors(replace(kCore, "unit_energy: 0.5", "unit_energy: -0.5")), "'unit_energy' must be >= 0, got -0.5", 26);
  expect_one(core_errors(replace(kCore, "unit_energy: 0.5", "unit_energy: -.inf")), "'unit_energy' must be finite", 26);
}

TEST(CoreValidation, AMemoryHoldsAtLeastOneBitAndAPortMovesAtLeastOne) {
  // size 0 was read as an unlimited memory; a port of bandwidth_max 0 never finishes a transfer.
  expect_one(core_errors(replace(kCore, "size: 1024", "size: 0")), "'size' must be >= 1, got 0", 5);
  expect_one(core_errors(replace(kCore, "bandwidth_min: 8\n        bandwidth_max: 64\n        allocation: ['I1, tl'",
                                 "bandwidth_min: 0\n        bandwidth_max: 0\n        allocation: ['I1, tl'")),
             "'bandwidth_max' must be >= 1, got 0", 15);
}

TEST(CoreValidation, AMemoryAccessTakesAtLeastOneCycle) {
  // latency 0 was accepted (and, unread by the cost model, changed nothing: a silent nonsense value).
  expect_one(core_errors(replace(kCore, "latency: 1", "latency: 0")), "'latency' must be >= 1, got 0", 9);
  expect_one(core_errors(replace(kCore, "latency: 1", "latency: -3")), "'latency' must be >= 1, got -3", 9);
}

TEST(CoreValidation, AComputeArrayHasAtLeastOneUnit) {
  // [0, 0] is how memory and off-chip cores say "no array"; on a compute core it computed for free.
  expect_one(core_errors(replace(kCore, "sizes: [4, 8]", "sizes: [0, 0]")), "needs every size >= 1", 25);
  EXPECT_TRUE(core_errors(replace(replace(kCore, "sizes: [4, 8]", "sizes: [0, 0]"), "zigzag.compute", "zigzag.offchip")).empty());
}

TEST(CoreValidation, DataflowPattern) {
  expect_one(core_errors(kCore + "dataflows:\n  D1: ['K, 16', 'k16']\n"), "entry 'k16' does not match", 29);
}

TEST(CoreValidation, Aie2Schema) {
  const std::string tile =
      "name: t\n"
      "type: aie2.compute\n"
      "max_object_fifo_depth: 0\n"
      "memory:\n"
      "  capacity: 1024\n"
      "  bandwidth_min: 8\n"
      "  bandwidth_max: 16\n";
  expect_one(core_errors(tile), "'max_object_fifo_depth' must be >= 1", 3);
  const Core ok = parse_core_text(replace(tile, "depth: 0", "depth: 2") + "utilization: 61.8\n", "tile.yaml");
  EXPECT_DOUBLE_EQ(ok.utilization, 61.8);
  // utilization belongs to aie2.compute only.
  expect_one(core_errors(replace(replace(tile, "depth: 0", "depth: 2"), "aie2.compute", "aie2.memory") + "utilization: 50\n"),
             "unknown key 'utilization'", 8);
  expect_one(core_errors(replace(tile, "depth: 0", "depth: 2") + "memories: {}\n"), "unknown key 'memories'", 8);
}

TEST(CoreValidation, RepeatedKeyTakesLaterValueAndWarns) {
  Diagnostics diag;
  const Core c = parse_core_text(replace(kCore, "    size: 1024\n", "    size: 1024\n    size: 2_048\n"), "core.yaml", &diag);
  EXPECT_EQ(c.memories[0].size, 2048);
  auto warnings = diag.warnings();
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0].where.line, 6);
  EXPECT_NE(warnings[0].message.find("key 'size' given twice (first at line 5, again at line 6)"), std::string::npos)
      << warnings[0].message;
}

TEST(CoreValidation, Yaml11Scalars) {
  // Underscores, hexadecimal, True/yes booleans, quoted numbers are strings (an error for size).
  EXPECT_EQ(parse_core_text(replace(kCore, "size: 1024", "size: 0x400"), "c.yaml").memories[0].size, 1024);
  EXPECT_EQ(parse_core_text(replace(kCore, "size: 1024", "size: 1_0_2_4"), "c.yaml").memories[0].size, 1024);
  EXPECT_TRUE(parse_core_text(replace(kCore, "    area: 0\n", "    area: 0\n    force_double_buffering: yes\n"), "c.yaml")
                  .memories[0]
                  .force_double_buffering);
  expect_one(core_errors(replace(kCore, "size: 1024", "size: \"1024\"")), "'size' must be an integer", 5);
  EXPECT_DOUBLE_EQ(*parse_core_text(replace(kCore, "r_cost: 1\n", "r_cost: 1_000.5\n"), "c.yaml").memories[0].r_cost, 1000.5);
}

TEST(CoreValidation, MissingFileIsAnError) {
  try {
    (void)load_core_file("/nonexistent/core.yaml");
    FAIL();
  } catch (const ValidationError& e) {
    ASSERT_EQ(e.diagnostics().size(), 1u);
    EXPECT_NE(e.diagnostics()[0].message.find("cannot read file"), std::string::npos);
  }
}
