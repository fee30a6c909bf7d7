#include "stream/tiling/tiled_group.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <memory>

#include "stream/error.hpp"
#include "stream/ir/dimensions.hpp"
#include "stream/ir/op_kinds.hpp"
#include "stream/tiling/tensor_accessors.hpp"
#include "stream/numeric/uneven_split.hpp"

namespace stream::tiling {

std::int64_t TiledGroup::iterations() const {
  std::int64_t n = 1;
  for (const auto& [d, s] : fusion_splits) n *= s;
  return n;
}

namespace {

// Extent of each axis of `map` over `extents`, clipped to [0, shape-1].
std::vector<std::int64_t> clipped_extents(const AffineMap& map, const std::vector<std::int64_t>& extents,
                                          const std::vector<std::int64_t>& shape) {
  std::vector<std::int64_t> out;
  const auto ranges = map.ranges(extents);
  for (std::size_t a = 0; a < ranges.size(); ++a) {
    std::int64_t lo = std::max<std::int64_t>(ranges[a].lo, 0);
    std::int64_t hi = std::min<std::int64_t>(ranges[a].hi, shape.at(a) - 1);
    out.push_back(std::max<std::int64_t>(hi - lo + 1, 0));
  }
  return out;
}

}  // namespace

std::vector<std::int64_t> tensor_shape_for_node(const Workload& workload, std::size_t node_index, const Tensor& tensor,
                                                const std::vector<std::int64_t>& local_sizes) {
  const Node& n = workload.node(node_index);
  const AffineMap* map = n.mapping_of(tensor);
  if (map == nullptr) return tensor.shape;
  return clipped_extents(*map, local_sizes, tensor.shape);
}

std::vector<std::int64_t> tensor_shape_with_sizes(const Workload& workload, const TensorAccessors& accessors,
                                                  const Tensor& tensor, const std::vector<std::int64_t>& dim_sizes) {
  const auto& ud = workload.unified_dimensions();
  const auto& nodes = accessors.of(tensor);
  if (nodes.empty()) return tensor.shape;
  std::vector<std::int64_t> best(tensor.rank(), 0);
  std::vector<std::int64_t> local;
  for (std::size_t i : nodes) {
    const Node& n = workload.node(i);
    local.clear();
    for (int z : ud.dims_of(i, n.num_dims())) local.push_back(dim_sizes.at(static_cast<std::size_t>(z)));
    const auto ext = clipped_extents(*n.mapping_of(tensor), local, tensor.shape);
    for (std::size_t a = 0; a < ext.size(); ++a) best[a] = std::max(best[a], ext[a]);
  }
  return best;
}

std::vector<std::int64_t> tensor_shape_with_sizes(const Workload& workload, const Tensor& tensor,
                                                  const std::vector<std::int64_t>& dim_sizes) {
  return tensor_shape_with_sizes(workload, TensorAccessors(workload), tensor, dim_sizes);
}

namespace {

std::vector<std::int64_t> tiled_tensor_shape(const Workload& group, const TensorAccessors& accessors, const Tensor& t,
                                             const std::vector<std::int64_t>& sizes) {
  // A computed tensor takes its producer's extent: a consumer's windowed read may reach past it
  // (a halo), which the consumer's clipping handles; the reference's max over accessors would
  // give the producer a loop larger than its dim. Graph inputs take the max over their readers.
  const auto& ud = group.unified_dimensions();
  const std::size_t p = group.producer_of(t.name);
  if (p != Workload::npos && group.node(p).has_iteration_space()) {
    const Node& pn = group.node(p);
    std::vector<std::int64_t> local;
    for (int z : ud.dims_of(p, pn.num_dims())) local.push_back(sizes[static_cast<std::size_t>(z)]);
    return tensor_shape_for_node(group, p, t, local);
  }
  return tensor_shape_with_sizes(group, accessors, t, sizes);
}

}  // namespace

std::vector<std::int64_t> tiled_tensor_shape(const Workload& group, const Tensor& t,
                                             const std::vector<std::int64_t>& sizes) {
  return tiled_tensor_shape(group, TensorAccessors(group), t, sizes);
}

namespace {

std::int64_t unroll_of(const TiledGroup& out, int z) {
  for (const auto& [d, f] : out.spatial_unrollings)
    if (d == z) return f;
  return 1;
}

// Spatial unrollings in global dims: first appearance, largest factor per dim (spec §4.3.1).
void add_spatial_unrollings(const Workload& group, const mapping::GroupMapping& mapping, TiledGroup& out) {
  const auto& ud = group.unified_dimensions();
  for (std::size_t i = 0; i < group.size(); ++i) {
    const Node& n = group.node(i);
    if (!n.has_iteration_space()) continue;
    const auto dims = ud.dims_of(i, n.num_dims());
    for (const auto& [local, f] : mapping.nodes[i].inter_core_tiling) {
      if (local < 0 || local >= n.num_dims())
        throw Error("inter-core split of node '" + n.name + "' names dim D" + std::to_string(local) +
                        " but the node has " + std::to_string(n.num_dims()) + " dims",
                    Location{.node = n.name});
      const int z = dims[static_cast<std::size_t>(local)];
      auto it = std::find_if(out.spatial_unrollings.begin(), out.spatial_unrollings.end(),
                             [&](const auto& p) { return p.first == z; });
      if (it == out.spatial_unrollings.end())
        out.spatial_unrollings.emplace_back(z, f);
      else
        it->second = std::max(it->second, f);
    }
  }
}

// Fusion splits (spec §4.3.2); returns the unified dims' sizes in one iteration.
std::vector<std::int64_t> add_fusion_splits(const Workload& group, const mapping::GroupMapping& mapping, TiledGroup& out) {
  const auto& ud = group.unified_dimensions();
  std::vector<std::int64_t> sizes = ud.dim_size;
  for (const auto& t : mapping.intra_core_tiling) {
    const std::size_t idx = group.index_of(t.node);
    const Node& n = group.node(idx);
    if (t.dim < 0 || t.dim >= n.num_dims())
      throw Error("intra-core tiling names " + t.node + ".D" + std::to_string(t.dim) + " but the node has " +
                      std::to_string(n.num_dims()) + " dims",
                  Location{.node = t.node});
    const int z = ud.dims_of(idx, n.num_dims())[static_cast<std::size_t>(t.dim)];
    if (t.tile <= 0)
      throw Error("intra-core tile " + std::to_string(t.tile) + " of " + t.node + ".D" + std::to_string(t.dim) +
                      " must be at least 1",
                  Location{.node = t.node});
    const numeric::UnevenSplit split = numeric::uneven_split(ud.dim_size.at(static_cast<std::size_t>(z)), t.tile * unroll_of(out, z));
    if (std::none_of(out.fusion_splits.begin(), out.fusion_splits.end(), [&](const auto& p) { return p.first == z; }))
      out.fusion_splits.emplace_back(z, split.parts);
    sizes[static_cast<std::size_t>(z)] = split.longest;
  }
  return sizes;
}

std::int64_t untiled_mac_ops(const Workload& group) {
  std::int64_t total = 0;
  for (std::size_t i : group.computation_nodes()) {
    if (!is_mac_type(group.node(i).type)) continue;
    std::int64_t p = 1;
    for (auto s : group.loop_sizes(i)) p *= s;
    total += p;
  }
  return total;
}

// Every tensor rebuilt with its one-iteration shape, then every node on the new tensors.
Workload one_iteration(const Workload& group, const std::vector<std::int64_t>& sizes) {
  const auto& ud = group.unified_dimensions();
  std::map<std::string, TensorPtr> reshaped;
  const TensorAccessors accessors(group);
  for (const auto& t : group.tensors()) {
    auto shape = tiled_tensor_shape(group, accessors, *t, sizes);
    Tensor tiled = *make_tensor(t->name, t->dtype, std::move(shape));
    tiled.layout = t->layout;  // a box of the tensor: its layout is the untiled tensor's
    reshaped[t->name] = std::make_shared<const Tensor>(std::move(tiled));
  }
  std::vector<Node> nodes;
  for (std::size_t i = 0; i < group.size(); ++i) {
    Node n = group.node(i);
    for (auto& t : n.inputs) t = reshaped.at(t->name);
    for (auto& t : n.outputs) t = reshaped.at(t->name);
    if (n.has_iteration_space()) {
      const auto dims = ud.dims_of(i, n.num_dims());
      for (auto& [d, e] : n.window_extents) e = sizes[static_cast<std::size_t>(dims[static_cast<std::size_t>(d)])];
    }
    nodes.push_back(std::move(n));
  }
  return Workload(std::move(nodes));
}

}  // namespace

TiledGroup tile(const Workload& group, const mapping::GroupMapping& mapping) {
  if (mapping.nodes.size() != group.size())
    throw Error("the group mapping has " + std::to_string(mapping.nodes.size()) + " entries for " +
                    std::to_string(group.size()) + " nodes",
                Location{}, ErrorKind::Internal);
  TiledGroup out;
  out.mapping = mapping.nodes;
  add_spatial_unrollings(group, mapping, out);
  const std::vector<std::int64_t> sizes = add_fusion_splits(group, mapping, out);
  out.total_mac_ops = untiled_mac_ops(group);
  for (const auto& t : group.tensors()) out.untiled_shapes[t->name] = t->shape;
  out.workload = sizes == group.unified_dimensions().dim_size ? group : one_iteration(group, sizes);
  return out;
}

}  // namespace stream::tiling
