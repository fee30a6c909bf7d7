#include "stream/cost/core_tile.hpp"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "stream/ir/dimensions.hpp"
#include "stream/numeric/uneven_split.hpp"

namespace stream::cost {

namespace {

// The tiled group's unified dim sizes with only this node's inter-core split divided out: what the
// reference sizes a costed node's tensors with (aie-and-defaults §4b). A split that does not divide
// its dim leaves each core ceil(size / split), the longest share (numeric/uneven_split.hpp).
std::vector<std::int64_t> per_core_dim_sizes(const tiling::TiledGroup& tiled, std::size_t node_index) {
  const Workload& w = tiled.workload;
  const auto& ud = w.unified_dimensions();
  std::vector<std::int64_t> sizes = ud.dim_size;
  const auto dims = ud.dims_of(node_index, w.node(node_index).num_dims());
  for (const auto& [d, f] : tiled.mapping.at(node_index).inter_core_tiling) {
    auto& s = sizes.at(static_cast<std::size_t>(dims.at(static_cast<std::size_t>(d))));
    if (f > 1) s = numeric::ceil_div(s, f);
  }
  return sizes;
}

}  // namespace

Tile core_tile(const tiling::TiledGroup& tiled, const tiling::TensorAccessors& accessors, std::size_t node_index) {
  const Workload& w = tiled.workload;
  const Node& n = w.node(node_index);
  Tile tile;
  tile.name = n.name;
  tile.op_type = n.type;
  std::vector<std::int64_t> sizes = w.loop_sizes(node_index);
  for (const auto& [d, f] : tiled.mapping.at(node_index).inter_core_tiling) {
    auto& s = sizes.at(static_cast<std::size_t>(d));
    if (f > 0) s = numeric::ceil_div(s, f);  // the longest core's share when f does not divide s
  }
  for (int d = 0; d < n.num_dims(); ++d) tile.dims.push_back({n.dim_name(d), sizes[static_cast<std::size_t>(d)]});
  const auto per_core = per_core_dim_sizes(tiled, node_index);
  auto operand = [&](const TensorPtr& t, const AffineMap& map, std::string role) {
    TileOperand op;
    op.role = std::move(role);
    op.precision_bits = bits(t->dtype);
    const auto widest = tiling::tensor_shape_with_sizes(w, accessors, *t, per_core);
    for (std::size_t a = 0; a < map.num_results(); ++a) {
      const auto& r = map.result(a);
      AxisExpr ax;
      const auto lin = r.linear();
      // An axis read at a fixed index (a size-1 axis a Flatten or a broadcast kept, a constant
      // Gather) contributes one element: the tile's data is the other axes. The reference's model
      // rejects the form (AffineConstantExpr) and would estimate the node instead.
      if (lin && std::all_of(lin->coeffs.begin(), lin->coeffs.end(), [](std::int64_t c) { return c == 0; })) continue;
      op.tensor_shape.push_back(t->shape.at(a));
      if (!lin) {
        // Not affine-linear: give the cost model something it rejects (three terms), so the node
        // takes the reference's fallback path.
        ax.terms = {{0, 1}, {0, 1}, {0, 1}};
      } else {
        for (std::size_t d = 0; d < lin->coeffs.size(); ++d)
          if (lin->coeffs[d] != 0) ax.terms.push_back({static_cast<int>(d), lin->coeffs[d]});
        ax.constant = lin->constant;
        if (ax.terms.size() == 2) ax.window_size = widest.at(a);
      }
      op.axes.push_back(std::move(ax));
    }
    tile.operands.push_back(std::move(op));
  };
  for (std::size_t o = 0; o < n.outputs.size(); ++o) operand(n.outputs[o], n.operand_mapping[n.inputs.size() + o], "O");
  for (std::size_t i = 0; i < n.inputs.size(); ++i)
    operand(n.inputs[i], n.operand_mapping[i], std::string(1, static_cast<char>('A' + i)));
  return tile;
}

Tile core_tile(const tiling::TiledGroup& tiled, std::size_t node_index) {
  return core_tile(tiled, tiling::TensorAccessors(tiled.workload), node_index);
}

}  // namespace stream::cost
