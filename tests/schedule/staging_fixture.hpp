// A small AIE-like accelerator with memory cores, and a Gemm (+ Add) workload, for the staging of
// transfers through memory cores (spec §4.5). Shared by tests/schedule and tests/allocate.
//
//   core  kind     column  capacity (bits)       links (bits/cycle), a tree: one path per pair
//   0     shim     0       1e10 (off-chip)       0-1 64, 0-2 64, 0-3 64
//   1     memory   0       4096 (one 4096-bit tile)
//   2     memory   1       2097152
//   3     memory   2       8192 (two)
//   4     memory   4       2097152               3-4 64 (column 4 >= nb_cols_to_use 4: unused)
//   5     compute  0       524288                1-5 32
//   6     compute  1       524288                2-6 32
//
// Gemm Y[m,n] = X[m,k] W[k,n], dims (m, n, k) = D0, D1, D2, M 16, N 32, K 16, bf16:
// X 4096 bits, W 8192, Y 8192. Add Z[m,n] = Y[m,n] + B[m,n] (dims m, n). Both nodes on cores
// {5, 6}, split in two along n.
#pragma once

#include <string>

#include <stream/hardware/accelerator_reader.hpp>
#include <stream/ir/workload.hpp>
#include <stream/cost/cost_table.hpp>
#include <stream/tiling/tiled_group.hpp>

namespace stream::test {

inline hardware::Accelerator staging_accelerator() {
  auto mem = [](const std::string& capacity) {
    return "\n    name: mem_tile\n    type: aie2.memory\n    max_object_fifo_depth: 48\n"
           "    memory: {capacity: " + capacity + ", bandwidth_min: 128, bandwidth_max: 768}";
  };
  const std::string aie =
      "\n    name: aie_tile\n    type: aie2.compute\n    max_object_fifo_depth: 12\n"
      "    memory: {capacity: 524288, bandwidth_min: 512, bandwidth_max: 512}";
  const std::string text =
      "name: staging_test\n"
      "cores:\n"
      "  0:\n    name: shim_dma\n    type: aie2.shim\n    max_object_fifo_depth: 48\n"
      "    memory: {capacity: 10000000000, bandwidth_min: 128, bandwidth_max: 128}\n"
      "  1:" + mem("4096") + "\n"
      "  2:" + mem("2097152") + "\n"
      "  3:" + mem("8192") + "\n"
      "  4:" + mem("2097152") + "\n"
      "  5:" + aie + "\n"
      "  6:" + aie + "\n"
      "core_coordinates: {0: [0, 0], 1: [0, 1], 2: [1, 1], 3: [2, 1], 4: [4, 1], 5: [0, 2], 6: [1, 2]}\n"
      "offchip_core_id: 0\n"
      "core_connectivity:\n"
      "  - {type: link, cores: [0, 1], bandwidth: 64}\n"
      "  - {type: link, cores: [0, 2], bandwidth: 64}\n"
      "  - {type: link, cores: [0, 3], bandwidth: 64}\n"
      "  - {type: link, cores: [3, 4], bandwidth: 64}\n"
      "  - {type: link, cores: [1, 5], bandwidth: 32}\n"
      "  - {type: link, cores: [2, 6], bandwidth: 32}\n"
      "unit_energy_cost: 0\n";
  return hardware::parse_accelerator_text(text, "staging_test.yaml", STREAM_TEST_DATA_DIR);
}

inline Node gemm_node(TensorPtr x, TensorPtr w, TensorPtr y) {
  auto d = [](int i) { return AffineExpr::dim(i); };
  return make_computation("Gemm", "Gemm", {std::move(x), std::move(w)}, {std::move(y)},
                          {AffineMap(3, {d(0), d(2)}), AffineMap(3, {d(2), d(1)}), AffineMap(3, {d(0), d(1)})});
}

/// X, W -> Gemm -> Y (graph output), M rows.
inline Workload staging_gemm(std::int64_t m = 16) {
  auto x = make_tensor("X", DType::bf16, {m, 16}), w = make_tensor("W", DType::bf16, {16, 32});
  auto y = make_tensor("Y", DType::bf16, {m, 32});
  return Workload({make_in_edge("X", x), make_in_edge("W", w), gemm_node(x, w, y), make_out_edge("Y_edge", y)});
}

/// X, W -> Gemm -> Y; Y, B -> Add -> Z (graph output).
inline Workload staging_gemm_add() {
  auto x = make_tensor("X", DType::bf16, {16, 16}), w = make_tensor("W", DType::bf16, {16, 32});
  auto y = make_tensor("Y", DType::bf16, {16, 32}), b = make_tensor("B", DType::bf16, {16, 32});
  auto z = make_tensor("Z", DType::bf16, {16, 32});
  return Workload({make_in_edge("X", x), make_in_edge("W", w), make_in_edge("B", b), gemm_node(x, w, y),
                   make_computation("Add", "Add", {y, b}, {z},
                                    {AffineMap::identity(2), AffineMap::identity(2), AffineMap::identity(2)}),
                   make_out_edge("Z_edge", z)});
}

/// Every compute node on cores {5, 6}, split in two along its dim 1 (n); `m_tile` rows of the
/// Gemm per steady-state iteration (16: one iteration).
inline tiling::TiledGroup staging_tiled(const Workload& wl, std::int64_t m_tile = 16) {
  mapping::GroupMapping m;
  m.nodes.resize(wl.size());
  for (std::size_t i : wl.computation_nodes()) m.nodes[i] = {{5, 6}, {{1, 2}}};
  m.intra_core_tiling = {{"Gemm", 0, m_tile}};
  return tiling::tile(wl, m);
}

inline cost::CostTable staging_costs(double gemm, double add = 0) {
  cost::CostTable c;
  for (int id : {5, 6}) {
    c["Gemm"].push_back({id, "aie2.compute", gemm, 0, 0, 0, 0, "aie2"});
    c["Add"].push_back({id, "aie2.compute", add, 0, 0, 0, 0, "aie2"});
  }
  return c;
}

}  // namespace stream::test
