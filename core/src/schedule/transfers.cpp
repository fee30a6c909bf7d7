// Spec §4.5: the steady state's original nodes and tensors, then its transfers: per tensor that
// crosses cores, the transfer nodes, the tensors they produce, their placements and routing plans.
#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "stream/error.hpp"
#include "stream/ir/dimensions.hpp"
#include "stream/schedule/group_structure.hpp"
#include "stream/schedule/steady_state.hpp"
#include "stream/schedule/transfer_cost.hpp"
#include "stream/numeric/uneven_split.hpp"
#include "steady_state_util.hpp"

namespace stream::schedule {

using detail::contains;
using detail::product;
using detail::tensor_dims;

std::vector<int> staging_memory_cores(const hardware::Accelerator& acc, int nb_cols_to_use) {
  std::vector<int> out;
  for (const auto& c : acc.cores) {
    if (c.kind() != hardware::CoreKind::Memory || c.id == acc.offchip_core_id) continue;
    auto it = acc.coordinates.find(c.id);
    if (it != acc.coordinates.end() && it->second[0] >= nb_cols_to_use) continue;
    out.push_back(c.id);
  }
  return out;
}

std::vector<std::vector<int>> memory_core_combinations(const hardware::Accelerator& acc, const std::vector<int>& mem,
                                                       const std::vector<int>& src_cores, std::int64_t unrolling,
                                                       TransferType type) {
  if (mem.empty()) return {};
  unrolling = std::max<std::int64_t>(unrolling, 1);
  std::set<int> columns;
  bool coordinates = !src_cores.empty();
  for (int c : src_cores) {
    auto it = acc.coordinates.find(c);
    if (it == acc.coordinates.end()) {
      coordinates = false;
      break;
    }
    columns.insert(it->second[0]);
  }
  std::int64_t required = 0;
  if (coordinates) {
    required = std::min<std::int64_t>(static_cast<std::int64_t>(columns.size()), unrolling);
  } else {
    const std::int64_t per = type == TransferType::ComputeToMem ? 4 : 1;
    required = (unrolling + per - 1) / per;
  }
  required = std::clamp<std::int64_t>(required, 1, static_cast<std::int64_t>(mem.size()));
  while (unrolling % required != 0) --required;  // a divisor, so each core holds an equal share
  const auto k = static_cast<std::size_t>(required);

  // itertools.combinations order: indices advance rightmost first.
  std::vector<std::vector<int>> out;
  std::vector<std::size_t> idx(k);
  for (std::size_t i = 0; i < k; ++i) idx[i] = i;
  for (;;) {
    auto& g = out.emplace_back();
    for (std::size_t i : idx) g.push_back(mem[i]);
    std::size_t i = k;
    while (i > 0 && idx[i - 1] == i - 1 + mem.size() - k) --i;
    if (i == 0) break;
    ++idx[i - 1];
    for (std::size_t j = i; j < k; ++j) idx[j] = idx[j - 1] + 1;
  }
  return out;
}

namespace {

std::vector<int> union_of(const std::vector<std::vector<int>>& groups) {
  std::set<int> u;
  for (const auto& g : groups) u.insert(g.begin(), g.end());
  return {u.begin(), u.end()};
}

// One tensor being moved: its name, index and size, and the transfer node every transfer of it
// starts from (its dims).
struct Moved {
  std::string name;
  int id = 0;
  std::int64_t bits = 0;
  SsNode proto;
};

class TransferBuilder {
 public:
  TransferBuilder(const tiling::TiledGroup& tiled, const hardware::Accelerator& acc, int nb_cols_to_use, Router& router)
      : tiled_(tiled), w_(tiled.workload), ud_(w_.unified_dimensions()), acc_(acc), router_(router),
        offchip_{acc.offchip_core_id}, mem_cores_(staging_memory_cores(acc, nb_cols_to_use)) {
    ss_.fusion_splits = tiled.fusion_splits;
    ss_.offchip_core = acc.offchip_core_id;
  }

  SteadyState build() {
    for (const auto& t : w_.tensors()) add_tensor(*t);
    for (std::size_t i = 0; i < w_.size(); ++i) add_original_node(i);
    for (auto& st : ss_.tensors) place(st);
    index_readers();
    for (const auto& tname : transfer_order()) add_transfers_of(tname);
    return std::move(ss_);
  }

 private:
  void add_tensor(const Tensor& t) {
    SsTensor st;
    st.name = t.name;
    st.bits = t.size_bits();
    st.shape = t.shape;
    st.origin = t.name;
    auto whole = tiled_.untiled_shapes.find(t.name);
    st.frame = whole != tiled_.untiled_shapes.end() ? whole->second : t.shape;
    st.layout = t.layout;
    st.element_bits = bits(t.dtype);
    ss_.tensors.push_back(std::move(st));
    tensor_id_[t.name] = static_cast<int>(ss_.tensors.size()) - 1;
  }

  // The original nodes, in insertion order (a steady-state node's index is its workload index).
  void add_original_node(std::size_t i) {
    const Node& n = w_.node(i);
    SsNode sn;
    sn.name = n.name;
    sn.op_type = n.type;
    sn.source = static_cast<int>(i);
    switch (n.kind) {
      case NodeKind::InEdge: sn.kind = SsKind::InEdge; break;
      case NodeKind::OutEdge: sn.kind = SsKind::OutEdge; break;
      case NodeKind::Computation:
      case NodeKind::Normalization: sn.kind = SsKind::Compute; break;
      case NodeKind::FusionEdge: break;  // check_group_structure() rejected it
    }
    for (const auto& t : n.inputs) sn.inputs.push_back(tensor_id_.at(t->name));
    for (const auto& t : n.outputs) sn.outputs.push_back(tensor_id_.at(t->name));
    if (sn.kind == SsKind::Compute) {
      sn.dims = ud_.dims_of(i, n.num_dims());
      const auto& m = tiled_.mapping.at(i);
      if (m.cores.empty())
        throw Error("compute node '" + n.name + "' has no core allocation", Location{.node = n.name});
      sn.cores = m.cores;
      for (const auto& [local, f] : m.inter_core_tiling)
        sn.inter_core_tiling.emplace_back(sn.dims.at(static_cast<std::size_t>(local)), f);
    } else {
      sn.cores = offchip_;
    }
    ss_.nodes.push_back(std::move(sn));
  }

  std::vector<std::int64_t> local_split_sizes(std::size_t node) const {
    std::vector<std::int64_t> sizes = w_.loop_sizes(node);
    for (const auto& [local, f] : tiled_.mapping.at(node).inter_core_tiling) {
      auto& s = sizes.at(static_cast<std::size_t>(local));
      s = numeric::ceil_div(s, f);  // the longest core's share when f does not divide s
    }
    return sizes;
  }

  // An original tensor's dims, producer, placement and per-core tile.
  void place(SsTensor& st) const {
    const std::size_t prod = w_.producer_of(st.name);
    st.producer = static_cast<int>(prod);
    const Node& pn = w_.node(prod);
    std::size_t accessor = Workload::npos;
    if (pn.has_iteration_space()) {
      accessor = prod;
    } else {
      for (std::size_t c : w_.successors(prod))
        if (w_.node(c).has_iteration_space() && w_.node(c).mapping_of(*w_.node(prod).outputs.front()) != nullptr) {
          accessor = c;
          break;
        }
    }
    if (accessor != Workload::npos) {
      const Node& an = w_.node(accessor);
      const Tensor* tp = nullptr;
      for (const auto& t : an.inputs)
        if (t->name == st.name) tp = t.get();
      for (const auto& t : an.outputs)
        if (t->name == st.name) tp = t.get();
      if (tp != nullptr) st.dims = tensor_dims(*an.mapping_of(*tp), ud_.dims_of(accessor, an.num_dims()));
    }
    const SsNode& psn = ss_.nodes[prod];
    st.placements = {psn.cores};
    if (psn.kind == SsKind::Compute) {
      for (const auto& t : pn.outputs)
        if (t->name == st.name)
          st.tile_bits = product(tiling::tensor_shape_for_node(w_, prod, *t, local_split_sizes(prod))) * bits(t->dtype);
    } else {
      st.tile_bits = st.bits;
    }
  }

  // Every node reading each tensor, ascending, each once (searching the node lists per tensor was
  // quadratic in a fused group's size).
  void index_readers() {
    for (std::size_t i = 0; i < w_.size(); ++i)
      for (const auto& t : w_.node(i).inputs) {
        auto& r = readers_[t->name];
        if (r.empty() || r.back() != i) r.push_back(i);
      }
  }

  // Transfer creation order: tensors of iteration-space nodes, node order, inputs then outputs.
  std::vector<std::string> transfer_order() const {
    std::vector<std::string> order;
    std::set<std::string> ordered;
    for (std::size_t i = 0; i < w_.size(); ++i) {
      const Node& n = w_.node(i);
      if (!n.has_iteration_space()) continue;
      for (const auto& t : n.inputs)
        if (ordered.insert(t->name).second) order.push_back(t->name);
      for (const auto& t : n.outputs)
        if (ordered.insert(t->name).second) order.push_back(t->name);
    }
    return order;
  }

  int copy_tensor(int from, const std::string& new_name) {
    SsTensor c = ss_.tensors[static_cast<std::size_t>(from)];
    c.name = new_name;
    ss_.tensors.push_back(std::move(c));
    return static_cast<int>(ss_.tensors.size()) - 1;
  }

  // Unrolling of a node's inter-core split over the moved tensor's dims.
  std::int64_t unrolling_of(std::size_t node, const std::vector<int>& dims) const {
    std::int64_t u = 1;
    for (const auto& [d, f] : ss_.nodes[node].inter_core_tiling)
      if (contains(dims, d)) u *= f;
    return u;
  }

  // A tensor held by k memory cores: each keeps an equal share.
  static std::int64_t memory_tile(const Moved& m, const std::vector<std::vector<int>>& groups) {
    const auto k = static_cast<std::int64_t>(groups.front().size());
    return (m.bits + k - 1) / k;
  }

  std::vector<TransferPlan> plans_between(const Moved& m, const std::vector<std::vector<int>>& from,
                                          const std::vector<std::vector<int>>& to) {
    std::vector<TransferPlan> plans;
    const SsTensor& moved = ss_.tensors[static_cast<std::size_t>(m.id)];
    const TransferBox box{moved.shape, moved.frame, moved.layout, moved.element_bits};
    for (const auto& s_group : from)
      for (const auto& d_group : to) {
        plans.push_back(router_.plan(s_group, d_group, m.bits));
        price_plan(plans.back(), acc_, box, m.bits);
      }
    return plans;
  }

  // Appends "Transfer(<name>)" moving tensor `in` from the `from` core groups into tensor `out`,
  // which lands on one of the `to` groups with `tile_bits` per core.
  void add_transfer(const Moved& m, const std::string& name, TransferType type, int in, int out,
                    const std::vector<std::vector<int>>& from, const std::vector<std::vector<int>>& to,
                    std::int64_t tile_bits) {
    SsNode t = m.proto;
    t.name = "Transfer(" + name + ")";
    t.transfer_type = type;
    t.inputs = {in};
    t.outputs = {out};
    t.cores = union_of(to);
    t.plans = plans_between(m, from, to);
    auto& ot = ss_.tensors[static_cast<std::size_t>(out)];
    ot.producer = static_cast<int>(ss_.nodes.size());
    ot.placements = to;
    ot.tile_bits = tile_bits;
    ss_.nodes.push_back(std::move(t));
  }

  // The per-core tile of a tensor that consumers on `cores` receive: what the widest consumer's
  // split reads of it (the whole tensor for one core).
  std::int64_t consumer_tile(const Moved& m, std::size_t widest, std::size_t cores) const {
    std::int64_t tile = m.bits;
    if (cores > 1 && w_.node(widest).has_iteration_space())
      for (const auto& t : w_.node(widest).inputs)
        if (t->name == m.name)
          tile = product(tiling::tensor_shape_for_node(w_, widest, *t, local_split_sizes(widest))) * bits(t->dtype);
    return tile;
  }

  // Moves `moved` (on the `from` groups) to the compute consumers `to` in one transfer named
  // `name`, whose outputs `<out_base>` (one consumer) or `<out_base>.<k>` replace the original
  // tensor in their inputs.
  void to_consumers(const Moved& m, const std::vector<std::size_t>& to, int moved,
                    const std::vector<std::vector<int>>& from, const std::string& name, TransferType type,
                    const std::string& out_base) {
    std::set<int> dst_cores;
    std::size_t widest = to.front();
    for (std::size_t d : to) {
      for (int c : ss_.nodes[d].cores) dst_cores.insert(c);
      if (ss_.nodes[d].cores.size() > ss_.nodes[widest].cores.size()) widest = d;
    }
    const std::int64_t tile = consumer_tile(m, widest, dst_cores.size());
    const int tr_index = static_cast<int>(ss_.nodes.size());
    SsNode t = m.proto;
    t.name = name;
    t.transfer_type = type;
    t.inputs = {moved};
    t.cores.assign(dst_cores.begin(), dst_cores.end());
    for (std::size_t k = 0; k < to.size(); ++k) {
      const std::string oname = to.size() == 1 ? out_base : out_base + "." + std::to_string(k);
      const int o = copy_tensor(m.id, oname);
      auto& ot = ss_.tensors[static_cast<std::size_t>(o)];
      ot.producer = tr_index;
      ot.placements = {t.cores};
      ot.tile_bits = tile;
      t.outputs.push_back(o);
      auto& ins = ss_.nodes[to[k]].inputs;
      std::replace(ins.begin(), ins.end(), m.id, o);
    }
    t.plans = plans_between(m, from, {t.cores});
    ss_.nodes.push_back(std::move(t));
  }

  // A group output: the producer now writes `<t>_1`; the transfer(s) move it to the off-chip
  // `<t>`, which every OutEdge reads (one off-chip copy however many groups read it).
  void add_group_output(const Moved& m, std::size_t src, const std::vector<std::size_t>& dsts) {
    const int renamed = copy_tensor(m.id, m.name + "_1");
    auto& outs = ss_.nodes[src].outputs;
    std::replace(outs.begin(), outs.end(), m.id, renamed);
    ss_.tensors[static_cast<std::size_t>(renamed)].producer = static_cast<int>(src);
    const std::vector<std::vector<int>> src_groups{ss_.nodes[src].cores};
    if (mem_cores_.empty()) {
      add_transfer(m, m.name + "_1", TransferType::ComputeToMem, renamed, m.id, src_groups, {offchip_}, m.bits);
    } else {
      // Gathered into memory cores first (COMPUTE_TO_MEM to `<t>_2`), then written off-chip.
      const auto groups = memory_core_combinations(acc_, mem_cores_, ss_.nodes[src].cores,
                                                   unrolling_of(src, m.proto.dims), TransferType::ComputeToMem);
      const int staged = copy_tensor(m.id, m.name + "_2");
      add_transfer(m, m.name + "_1", TransferType::ComputeToMem, renamed, staged, src_groups, groups, memory_tile(m, groups));
      add_transfer(m, m.name + "_2", TransferType::MemToMem, staged, m.id, groups, {offchip_}, m.bits);
    }
    // Read inside the group too (a skip crossing a cut point, a returned KV cache): those
    // consumers take the producer's on-chip `<t>_1` directly, with no off-chip round trip.
    std::vector<std::size_t> in_group;
    for (std::size_t d : dsts)
      if (w_.node(d).kind != NodeKind::OutEdge) in_group.push_back(d);
    if (!in_group.empty())
      to_consumers(m, in_group, renamed, src_groups, "Transfer(" + m.name + "_1 in group)",
                   TransferType::ComputeToCompute, m.name + "_1.in");
  }

  // Reused on chip: some consumer has a dim the tensor does not span, so a memory core can keep it
  // while the consumers walk that dim. Its size in this tile does not matter: a dim tiled down to 1
  // here is still walked across the steady-state iterations.
  bool reused_on_chip(const Moved& m, const std::vector<std::size_t>& dsts) const {
    for (std::size_t d : dsts)
      if (ss_.nodes[d].kind == SsKind::Compute)
        for (int dim : ss_.nodes[d].dims)
          if (!contains(m.proto.dims, dim)) return true;
    return false;
  }

  // A tensor read by compute consumers: one transfer to them, after staging a graph input that is
  // reused on chip in memory cores.
  void add_consumer_transfers(const Moved& m, std::size_t src, const std::vector<std::size_t>& dsts) {
    const bool src_in = w_.node(src).kind == NodeKind::InEdge;
    const bool stage = src_in && !mem_cores_.empty() && reused_on_chip(m, dsts);
    int moved = m.id;                 // the tensor the transfer to the consumers reads
    std::string moved_name = m.name;  // its name
    std::vector<std::vector<int>> src_groups{ss_.nodes[src].cores};
    if (stage) {
      // Off-chip -> memory cores: `<t>` becomes `<t>_1`, placed on one memory-core combination.
      // The count follows the consumer with the largest core group (the reference's
      // get_node_with_largest_resource_allocation over the transfer's compute successors, first
      // one on a tie): its columns and its split of the tensor's dims, not the off-chip source's.
      std::size_t widest = src;
      for (std::size_t d : dsts)
        if (ss_.nodes[d].kind == SsKind::Compute && (widest == src || ss_.nodes[d].cores.size() > ss_.nodes[widest].cores.size()))
          widest = d;
      const auto groups = memory_core_combinations(acc_, mem_cores_, ss_.nodes[widest].cores,
                                                   unrolling_of(widest, m.proto.dims), TransferType::MemToMem);
      const int staged = copy_tensor(m.id, m.name + "_1");
      add_transfer(m, m.name, TransferType::MemToMem, m.id, staged, src_groups, groups, memory_tile(m, groups));
      moved = staged;
      moved_name = m.name + "_1";
      src_groups = groups;
    }
    // Output names count the hops from the source: `<t>_1` direct, `<t>_2` after staging.
    to_consumers(m, dsts, moved, src_groups, "Transfer(" + moved_name + ")",
                 src_in ? TransferType::MemToCompute : TransferType::ComputeToCompute, m.name + (stage ? "_2" : "_1"));
  }

  void add_transfers_of(const std::string& tname) {
    auto it = readers_.find(tname);
    if (it == readers_.end() || it->second.empty()) return;
    std::vector<std::size_t> dsts = it->second;
    Moved m;
    m.name = tname;
    m.id = tensor_id_.at(tname);
    m.bits = ss_.tensors[static_cast<std::size_t>(m.id)].bits;
    m.proto.kind = SsKind::Transfer;
    m.proto.dims = ss_.tensors[static_cast<std::size_t>(m.id)].dims;
    const std::size_t src = w_.producer_of(tname);
    const bool src_in = w_.node(src).kind == NodeKind::InEdge;
    const auto is_out = [&](std::size_t d) { return w_.node(d).kind == NodeKind::OutEdge; };
    if (!src_in && std::any_of(dsts.begin(), dsts.end(), is_out)) {
      add_group_output(m, src, dsts);
      return;
    }
    // A graph input that is also a graph output: its OutEdge reads the off-chip tensor itself.
    std::erase_if(dsts, is_out);
    if (!dsts.empty()) add_consumer_transfers(m, src, dsts);
  }

  const tiling::TiledGroup& tiled_;
  const Workload& w_;
  const UnifiedDimensions& ud_;
  const hardware::Accelerator& acc_;
  Router& router_;
  const std::vector<int> offchip_;
  const std::vector<int> mem_cores_;
  SteadyState ss_;
  std::map<std::string, int> tensor_id_;
  std::map<std::string, std::vector<std::size_t>> readers_;
};

}  // namespace

SteadyState add_transfers(const tiling::TiledGroup& tiled, const hardware::Accelerator& acc, int nb_cols_to_use,
                          Router* shared_router) {
  check_group_structure(tiled.workload);
  std::optional<Router> own_router;
  if (!shared_router) own_router.emplace(acc);
  return TransferBuilder(tiled, acc, nb_cols_to_use, shared_router ? *shared_router : *own_router).build();
}

}  // namespace stream::schedule
