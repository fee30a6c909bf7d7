// A one-node group for tests of transfers and their prices: X [16, 32] bf16 (in `layout`, else the
// model's row-major one) -> Relu on core 0 -> Y [16, 32], `columns` of its 32 columns per
// steady-state iteration (32: untiled, one iteration), with its transfers added. Header-only;
// tests/CMakeLists.txt puts this folder on every test's include path.
#pragma once

#include <cstdint>
#include <optional>

#include "stream/hardware/accelerator.hpp"
#include "stream/ir/workload.hpp"
#include "stream/schedule/steady_state.hpp"
#include "stream/tiling/tiled_group.hpp"

namespace stream::test {

inline schedule::SteadyState relu_with_transfers(const hardware::Accelerator& acc, std::int64_t columns,
                                                 const std::optional<Layout>& layout = std::nullopt) {
  auto x = layout ? make_tensor("X", DType::bf16, {16, 32}, *layout) : make_tensor("X", DType::bf16, {16, 32});
  auto y = make_tensor("Y", DType::bf16, {16, 32});
  const Workload w({make_in_edge("X", x),
                    make_computation("relu", "Relu", {x}, {y}, {AffineMap::identity(2), AffineMap::identity(2)}),
                    make_out_edge("Y_out", y)});
  mapping::GroupMapping m;
  m.nodes.resize(w.size());
  m.nodes[1] = {{0}, {}};
  if (columns < 32) m.intra_core_tiling = {{"relu", 1, columns}};
  return schedule::add_transfers(tiling::tile(w, m), acc);
}

}  // namespace stream::test
