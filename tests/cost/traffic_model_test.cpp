// The traffic model (cost/traffic_model.hpp): every figure derived by hand from the core files, each
// term written out, so that a change to the model's rules shows here.
#include <gtest/gtest.h>

#include <filesystem>

#include <stream/cost/traffic_model.hpp>
#include <stream/hardware/core_reader.hpp>

using namespace stream;

namespace {

hardware::Core eltwise_small() {
  return hardware::load_core_file(std::filesystem::path(STREAM_TEST_DATA_DIR) / "hardware" / "cores" /
                                  "eltwise_small.yaml");
}

cost::TileOperand plain(const std::string& role, std::int64_t extent, int bits) {
  return {role, bits, {extent}, {cost::AxisExpr{{{0, 1}}, 0, 0}}};
}

// An element-wise op over `n` int8 elements, one loop dim: output O, inputs A, B, ...
cost::Tile eltwise(const std::string& type, std::int64_t n, int inputs) {
  cost::Tile t{"node", type, {{"D0", n}}, {plain("O", n, 8)}};
  for (int i = 0; i < inputs; ++i) t.operands.push_back(plain(std::string(1, static_cast<char>('A' + i)), n, 8));
  return t;
}

}  // namespace

TEST(TrafficModel, AddOfTenInt8ElementsOnEltwiseSmall) {
  // 10 elements x 8 bits = 80 bits per operand. A -> I1 (rf_I1, then sram), B -> I2 (sram), O ->
  // O (rf_O, then sram). Words per move: ceil(bits / bandwidth_min) x bandwidth_min / bandwidth_max.
  //   A  rf_I1 read to the array (r_port_1, 16/16):  ceil(80/16) = 5 words x 0.5  = 2.5
  //   A  rf_I1 written from sram (w_port_1, 16/16):   5 words x 0.75              = 3.75
  //   A  sram read to rf_I1 (r_port_1, 32/128):      ceil(80/32) x 32/128 = 0.75 words x 10 = 7.5
  //   B  sram read to the array (r_port_1):          0.75 words x 10              = 7.5
  //   O  rf_O written by the array (rw_port_1, 32/32): ceil(80/32) = 3 words x 0.5 = 1.5
  //   O  rf_O read out to sram (rw_port_1):           3 words x 0.25              = 0.75
  //   O  sram written from rf_O (w_port_1, 32/128):   0.75 words x 12             = 9
  //   memory: 32.5; operations: 10 x 0.5 pJ = 5; total 37.5 pJ.
  const auto c = cost::traffic_cost(eltwise("Add", 10, 2), eltwise_small());
  EXPECT_DOUBLE_EQ(c.operations, 10);
  EXPECT_DOUBLE_EQ(c.op_energy, 5);
  EXPECT_DOUBLE_EQ(c.memory_energy, 32.5);
  EXPECT_DOUBLE_EQ(c.energy(), 37.5);
  // Busiest port: rf_O's rw_port_1 carries 3 + 3 = 6 words on its one instance (served along D1):
  // 6 cycles. (rf_I1's ports: 5 words over 4 instances -> 2; sram's read port 0.75 + 0.75 -> 2,
  // write port 0.75 -> 1.)
  EXPECT_DOUBLE_EQ(c.port_cycles, 6);
}

TEST(TrafficModel, WithoutAllocationsPortsGoByTypeAndAThirdInputSharesI1) {
  // No allocation lines: a read takes the memory's first read (or read_write) port, a write its
  // first write (or read_write) port. A three-input op on a core with I1 and I2: A -> I1, B -> I2,
  // C -> I1 again.
  const auto core = hardware::parse_core_text(R"(name: bare
type: zigzag.compute
memories:
  wbuf:
    size: 4096
    r_cost: 5
    w_cost: 5
    area: 0
    latency: 1
    operands: [I2]
    ports:
      - {name: rw_port_1, type: read_write, bandwidth_min: 8, bandwidth_max: 8}
    served_dimensions: [D1]
  sram:
    size: 4096
    r_cost: 2
    w_cost: 3
    area: 0
    latency: 1
    operands: [I1, O]
    ports:
      - {name: w_port_1, type: write, bandwidth_min: 8, bandwidth_max: 8}
      - {name: r_port_1, type: read, bandwidth_min: 8, bandwidth_max: 8}
    served_dimensions: [D1]
operational_array:
  unit_energy: 1
  unit_area: 1
  dimensions: [D1]
  sizes: [2]
)",
                                              "bare.yaml");
  // 4 int8 elements = 32 bits = 4 words of 8 bits per operand; every operand has one level.
  //   A read from sram (r_port_1): 4 x 2 = 8;  B read from wbuf (rw_port_1): 4 x 5 = 20;
  //   C read from sram (r_port_1): 4 x 2 = 8;  O written to sram (w_port_1): 4 x 3 = 12;
  //   operations 4 x 1 = 4: 52 pJ.
  const auto c = cost::traffic_cost(eltwise("Where", 4, 3), core);
  EXPECT_DOUBLE_EQ(c.energy(), 52);
  EXPECT_DOUBLE_EQ(c.port_cycles, 8);  // sram's read port: 4 + 4 words (A and C), one instance
}

TEST(TrafficModel, OperandElementsSpanTheWindowClippedToTheTensor) {
  // A pool's input row, 2 * ox + fx - 1, over ox = 4 and fx = 3: 2 x 3 + 1 x 2 + 1 = 9 indices,
  // clipped to the tensor's 8 rows, then to a window size of 7 when the caller gives one.
  cost::Tile t{"pool", "MaxPool", {{"ox", 4}, {"fx", 3}}, {}};
  cost::TileOperand in{"A", 8, {8}, {cost::AxisExpr{{{0, 2}, {1, 1}}, -1, 0}}};
  EXPECT_EQ(cost::operand_elements(in, t), 8);
  in.tensor_shape = {16};
  EXPECT_EQ(cost::operand_elements(in, t), 9);
  in.axes[0].window_size = 7;
  EXPECT_EQ(cost::operand_elements(in, t), 7);
  // The output row (ox alone) and the loop fx it does not index: 4 elements.
  EXPECT_EQ(cost::operand_elements(plain("O", 4, 8), t), 4);
}

TEST(TrafficModel, DocsExampleReluOnTheMeshCore) {
  // docs/energy.md's example: a Relu over 1,000 int8 elements (8,000 bits per operand) on the
  // bundled mesh_core_32x32. A -> I1 (sram_1MB alone), O -> O (rf_4B_O, then sram_1MB).
  //   A  sram_1MB read (r_port_1, 64/1024): ceil(8000/64) x 64/1024 = 7.8125 words x 208.08 = 1625.625
  //   O  rf_4B_O written (w_port_2, 32/32): 250 words x 0.03 = 7.5
  //   O  rf_4B_O read out (r_port_2, 32/32): 250 words x 0.03 = 7.5
  //   O  sram_1MB written (w_port_1, 64/1024): 7.8125 words x 189.2 = 1478.125
  //   operations 1000 x 0.04 = 40; total 3158.75 pJ.
  const auto core = hardware::load_core_file(std::filesystem::path(STREAM_INPUTS_DIR) / "hardware" / "cores" /
                                             "mesh_core_32x32.yaml");
  const auto c = cost::traffic_cost(eltwise("Relu", 1000, 1), core);
  EXPECT_NEAR(c.memory_energy, 3118.75, 1e-9);
  EXPECT_NEAR(c.energy(), 3158.75, 1e-9);
  // sram_1MB: 7.8125 words on one instance -> 8; rf_4B_O: 250 words over 32 instances -> 8.
  EXPECT_DOUBLE_EQ(c.port_cycles, 8);
}
