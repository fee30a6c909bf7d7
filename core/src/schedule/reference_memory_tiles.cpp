#include "stream/schedule/reference_memory_tiles.hpp"

#include <algorithm>
#include <map>
#include <numeric>

#include "stream/numeric/uneven_split.hpp"

namespace stream::schedule {

// A named namespace: the library builds in unity batches (see reference_tiling.cpp).
namespace reference_a3 {

// The steady-state dims: one element per (compute node, local dim) and per (transfer, axis),
// merged by the edges' identity relations.
class SteadyDims {
 public:
  SteadyDims(const SteadyState& ss, const tiling::TiledGroup& tiled) : ss_(ss), w_(tiled.workload), tiled_(tiled) {
    base_.assign(ss.nodes.size(), -1);
    for (std::size_t r = 0; r < ss.nodes.size(); ++r) {
      const auto& n = ss.nodes[r];
      std::vector<std::int64_t> sizes;
      if (n.kind == SsKind::Compute) sizes = w_.loop_sizes(static_cast<std::size_t>(n.source));
      else if (n.kind == SsKind::Transfer && !n.inputs.empty()) sizes = ss.tensors[static_cast<std::size_t>(n.inputs.front())].shape;
      else continue;
      base_[r] = static_cast<int>(size_.size());
      size_.insert(size_.end(), sizes.begin(), sizes.end());
    }
    parent_.resize(size_.size());
    std::iota(parent_.begin(), parent_.end(), 0);
    readers_.resize(ss.tensors.size());
    for (std::size_t r = 0; r < ss.nodes.size(); ++r)
      if (base_[r] >= 0)
        for (int t : ss.nodes[r].inputs) readers_[static_cast<std::size_t>(t)].push_back(r);
    for (std::size_t t = 0; t < ss.tensors.size(); ++t) relate(t);
    class_size_.assign(size_.size(), 1);
    for (std::size_t e = 0; e < size_.size(); ++e) {
      auto& s = class_size_[static_cast<std::size_t>(find(static_cast<int>(e)))];
      s = std::max(s, size_[e]);
    }
  }

  /// The tile of tensor t as its producer's split leaves it, in bits.
  std::int64_t tile_bits(std::size_t t) const {
    const auto& ten = ss_.tensors[t];
    const auto producer = static_cast<std::size_t>(ten.producer);
    const auto split = class_splits(producer);
    std::vector<std::int64_t> extent(ten.shape.size(), 0);  // 0: no accessor indexes the axis
    auto widen = [&](std::size_t r) {
      const auto exprs = axes_of(r, t);
      std::vector<std::int64_t> sizes(count_of(r), 1);
      for (std::size_t k = 0; k < sizes.size(); ++k) {
        const int c = find(base_[r] + static_cast<int>(k));
        auto it = split.find(c);
        const std::int64_t s = class_size_[static_cast<std::size_t>(c)];
        sizes[k] = it == split.end() ? s : numeric::ceil_div(s, it->second);
      }
      for (std::size_t a = 0; a < exprs.size() && a < extent.size(); ++a)
        extent[a] = std::max(extent[a], exprs[a].range(sizes).size());
    };
    widen(producer);
    for (std::size_t r : readers_[t]) widen(r);
    std::int64_t elements = 1;
    for (std::size_t a = 0; a < extent.size(); ++a) elements *= extent[a] == 0 ? ten.shape[a] : std::min(extent[a], ten.shape[a]);
    return elements * ten.element_bits;
  }

  [[nodiscard]] bool indexed(std::size_t r) const { return base_[r] >= 0; }

 private:
  int find(int e) const {
    while (parent_[static_cast<std::size_t>(e)] != e) e = parent_[static_cast<std::size_t>(e)];
    return e;
  }
  void unite(int a, int b) {
    a = find(a);
    b = find(b);
    if (a != b) parent_[static_cast<std::size_t>(std::max(a, b))] = std::min(a, b);
  }

  std::size_t count_of(std::size_t r) const {
    const auto& n = ss_.nodes[r];
    if (n.kind == SsKind::Compute) return w_.loop_sizes(static_cast<std::size_t>(n.source)).size();
    return ss_.tensors[static_cast<std::size_t>(n.inputs.front())].shape.size();
  }

  // Node r's index expression per axis of tensor t, in r's own dims (a transfer: the identity).
  std::vector<AffineExpr> axes_of(std::size_t r, std::size_t t) const {
    const auto& n = ss_.nodes[r];
    const auto& ten = ss_.tensors[t];
    if (n.kind == SsKind::Transfer) {
      std::vector<AffineExpr> id;
      for (std::size_t a = 0; a < ten.shape.size(); ++a) id.push_back(AffineExpr::dim(static_cast<int>(a)));
      return id;
    }
    const Node& node = w_.node(static_cast<std::size_t>(n.source));
    for (std::size_t op = 0; op < node.num_operands(); ++op)
      if (node.operand(op)->name == ten.origin) return node.operand_mapping.at(op).results();
    return {};
  }

  // An edge producer -> reader of t equates the dims both index bare on one axis.
  void relate(std::size_t t) {
    const int p = ss_.tensors[t].producer;
    if (p < 0 || base_[static_cast<std::size_t>(p)] < 0) return;
    const auto from = axes_of(static_cast<std::size_t>(p), t);
    for (std::size_t r : readers_[t]) {
      const auto to = axes_of(r, t);
      for (std::size_t a = 0; a < from.size() && a < to.size(); ++a)
        if (from[a].is_dim() && to[a].is_dim())
          unite(base_[static_cast<std::size_t>(p)] + from[a].position(), base_[r] + to[a].position());
    }
  }

  // (class, factor) of a compute node's inter-core split.
  void add_splits(std::size_t r, std::map<int, std::int64_t>& out) const {
    const auto& m = tiled_.mapping.at(static_cast<std::size_t>(ss_.nodes[r].source));
    for (const auto& [local, f] : m.inter_core_tiling) out[find(base_[r] + local)] = f;
  }

  // The producer's split: a compute node's own; a transfer's, that of its destination on the most
  // cores (the first on ties), none when its destinations share one core.
  std::map<int, std::int64_t> class_splits(std::size_t r) const {
    std::map<int, std::int64_t> out;
    const auto& n = ss_.nodes[r];
    if (n.kind == SsKind::Compute) {
      add_splits(r, out);
      return out;
    }
    if (n.cores.size() <= 1) return out;
    std::size_t widest = ss_.nodes.size();
    for (int o : n.outputs)
      for (std::size_t d : readers_[static_cast<std::size_t>(o)])
        if (ss_.nodes[d].kind == SsKind::Compute &&
            (widest == ss_.nodes.size() || ss_.nodes[d].cores.size() > ss_.nodes[widest].cores.size()))
          widest = d;
    if (widest < ss_.nodes.size()) add_splits(widest, out);
    return out;
  }

  const SteadyState& ss_;
  const Workload& w_;
  const tiling::TiledGroup& tiled_;
  std::vector<int> base_;  ///< per node: its first element, -1 for edges
  std::vector<std::int64_t> size_, class_size_;
  std::vector<int> parent_;
  std::vector<std::vector<std::size_t>> readers_;  ///< per tensor: the indexed nodes reading it
};

}  // namespace reference_a3

SteadyState with_reference_memory_tiles(SteadyState ss, const tiling::TiledGroup& tiled) {
  const reference_a3::SteadyDims dims(ss, tiled);
  for (std::size_t t = 0; t < ss.tensors.size(); ++t) {
    const int p = ss.tensors[t].producer;
    if (p >= 0 && dims.indexed(static_cast<std::size_t>(p))) ss.tensors[t].capacity_tile_bits = dims.tile_bits(t);
  }
  return ss;
}

}  // namespace stream::schedule
