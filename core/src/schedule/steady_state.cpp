#include "stream/schedule/steady_state.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <optional>
#include <queue>
#include <set>

#include "stream/error.hpp"
#include "stream/ir/dimensions.hpp"
#include "stream/numeric/rounding.hpp"
#include "stream/schedule/group_structure.hpp"
#include "stream/schedule/transfer_cost.hpp"

namespace stream::schedule {

const char* name(SsKind k) {
  switch (k) {
    case SsKind::InEdge: return "in_edge";
    case SsKind::OutEdge: return "out_edge";
    case SsKind::Compute: return "computation";
    case SsKind::Transfer: return "transfer";
  }
  return "?";
}
const char* name(TransferType t) {
  switch (t) {
    case TransferType::MemToCompute: return "MEM_TO_COMPUTE";
    case TransferType::ComputeToCompute: return "COMPUTE_TO_COMPUTE";
    case TransferType::ComputeToMem: return "COMPUTE_TO_MEM";
    case TransferType::MemToMem: return "MEM_TO_MEM";
  }
  return "?";
}
const char* name(LoopEffect e) {
  switch (e) {
    case LoopEffect::Varying: return "VARYING";
    case LoopEffect::Invariant: return "INVARIANT";
    case LoopEffect::Absent: return "ABSENT";
  }
  return "?";
}

int SteadyState::tensor_index(const std::string& n) const {
  for (std::size_t i = 0; i < tensors.size(); ++i)
    if (tensors[i].name == n) return static_cast<int>(i);
  return -1;
}
int SteadyState::node_index(const std::string& n) const {
  for (std::size_t i = 0; i < nodes.size(); ++i)
    if (nodes[i].name == n) return static_cast<int>(i);
  return -1;
}

std::int64_t active_latency(const std::vector<TemporalLoop>& loops, double x) {
  double all = 1, present = 1;
  for (const auto& l : loops) {
    all *= static_cast<double>(l.size);
    if (l.effect != LoopEffect::Absent) present *= static_cast<double>(l.size);
  }
  return numeric::round_half_even_int(x * present / all);  // int(round(...)), pipeline-spec §4.8
}

namespace {

bool contains(const std::vector<int>& v, int x) { return std::find(v.begin(), v.end(), x) != v.end(); }

std::int64_t product(const std::vector<std::int64_t>& v) {
  std::int64_t p = 1;
  for (auto x : v) p *= x;
  return p;
}

// Unified dims indexing `tensor` through `map` of node `node_index`.
std::vector<int> tensor_dims(const AffineMap& map, const std::vector<int>& node_dims) {
  std::set<int> out;
  for (int d : map.used_dims()) out.insert(node_dims.at(static_cast<std::size_t>(d)));
  return {out.begin(), out.end()};
}

}  // namespace

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

SteadyState add_transfers(const tiling::TiledGroup& tiled, const hardware::Accelerator& acc, int nb_cols_to_use,
                          Router* shared_router) {
  const Workload& w = tiled.workload;
  check_group_structure(w);
  const auto& ud = w.unified_dimensions();
  std::optional<Router> own_router;
  if (!shared_router) own_router.emplace(acc);
  Router& router = shared_router ? *shared_router : *own_router;
  SteadyState ss;
  ss.fusion_splits = tiled.fusion_splits;
  ss.offchip_core = acc.offchip_core_id;
  const std::vector<int> offchip{acc.offchip_core_id};
  const std::vector<int> mem_cores = staging_memory_cores(acc, nb_cols_to_use);

  std::map<std::string, int> tensor_id;
  auto add_tensor = [&](const Tensor& t) {
    SsTensor st;
    st.name = t.name;
    st.bits = t.size_bits();
    st.shape = t.shape;
    st.origin = t.name;
    auto whole = tiled.untiled_shapes.find(t.name);
    st.frame = whole != tiled.untiled_shapes.end() ? whole->second : t.shape;
    st.layout = t.layout;
    st.element_bits = bits(t.dtype);
    ss.tensors.push_back(std::move(st));
    tensor_id[t.name] = static_cast<int>(ss.tensors.size()) - 1;
  };
  for (const auto& t : w.tensors()) add_tensor(*t);

  // Original nodes, in insertion order.
  for (std::size_t i = 0; i < w.size(); ++i) {
    const Node& n = w.node(i);
    SsNode sn;
    sn.name = n.name;
    sn.op_type = n.type;
    sn.source = static_cast<int>(i);
    switch (n.kind) {
      case NodeKind::InEdge: sn.kind = SsKind::InEdge; break;
      case NodeKind::OutEdge: sn.kind = SsKind::OutEdge; break;
      case NodeKind::Computation:
      case NodeKind::Normalization: sn.kind = SsKind::Compute; break;
      case NodeKind::FusionEdge: break;  // check_group_structure() rejected it above
    }
    for (const auto& t : n.inputs) sn.inputs.push_back(tensor_id.at(t->name));
    for (const auto& t : n.outputs) sn.outputs.push_back(tensor_id.at(t->name));
    if (sn.kind == SsKind::Compute) {
      sn.dims = ud.dims_of(i, n.num_dims());
      const auto& m = tiled.mapping.at(i);
      if (m.cores.empty())
        throw Error("compute node '" + n.name + "' has no core allocation", Location{.node = n.name});
      sn.cores = m.cores;
      for (const auto& [local, f] : m.inter_core_tiling)
        sn.inter_core_tiling.emplace_back(sn.dims.at(static_cast<std::size_t>(local)), f);
    } else {
      sn.cores = offchip;
    }
    ss.nodes.push_back(std::move(sn));
  }

  // Per original tensor: dims, producer, placement and per-core tile.
  auto local_split_sizes = [&](std::size_t node) {
    std::vector<std::int64_t> sizes = w.loop_sizes(node);
    for (const auto& [local, f] : tiled.mapping.at(node).inter_core_tiling) {
      auto& s = sizes.at(static_cast<std::size_t>(local));
      if (s % f == 0) s /= f;
    }
    return sizes;
  };
  for (auto& st : ss.tensors) {
    const std::size_t prod = w.producer_of(st.name);
    st.producer = static_cast<int>(prod);
    const Node& pn = w.node(prod);
    std::size_t accessor = Workload::npos;
    if (pn.has_iteration_space()) {
      accessor = prod;
    } else {
      for (std::size_t c : w.successors(prod))
        if (w.node(c).has_iteration_space() && w.node(c).mapping_of(*w.node(prod).outputs.front()) != nullptr) {
          accessor = c;
          break;
        }
    }
    if (accessor != Workload::npos) {
      const Node& an = w.node(accessor);
      const Tensor* tp = nullptr;
      for (const auto& t : an.inputs)
        if (t->name == st.name) tp = t.get();
      for (const auto& t : an.outputs)
        if (t->name == st.name) tp = t.get();
      if (tp != nullptr) st.dims = tensor_dims(*an.mapping_of(*tp), ud.dims_of(accessor, an.num_dims()));
    }
    const SsNode& psn = ss.nodes[prod];
    st.placements = {psn.cores};
    if (psn.kind == SsKind::Compute) {
      const Node& an = w.node(prod);
      for (const auto& t : an.outputs)
        if (t->name == st.name)
          st.tile_bits = product(tiling::tensor_shape_for_node(w, prod, *t, local_split_sizes(prod))) * bits(t->dtype);
    } else {
      st.tile_bits = st.bits;
    }
  }

  // Transfer creation order: tensors of iteration-space nodes, node order, inputs then outputs.
  // (A set of names seen and a readers index: searching the lists per tensor was quadratic in a
  // fused group's size.)
  std::vector<std::string> order;
  std::set<std::string> ordered;
  for (std::size_t i = 0; i < w.size(); ++i) {
    const Node& n = w.node(i);
    if (!n.has_iteration_space()) continue;
    for (const auto& t : n.inputs)
      if (ordered.insert(t->name).second) order.push_back(t->name);
    for (const auto& t : n.outputs)
      if (ordered.insert(t->name).second) order.push_back(t->name);
  }
  // Every node reading each tensor, ascending, each once.
  std::map<std::string, std::vector<std::size_t>> readers;
  for (std::size_t i = 0; i < w.size(); ++i)
    for (const auto& t : w.node(i).inputs) {
      auto& r = readers[t->name];
      if (r.empty() || r.back() != i) r.push_back(i);
    }

  for (const auto& tname : order) {
    const int tid = tensor_id.at(tname);
    const std::size_t src = w.producer_of(tname);
    std::vector<std::size_t> dsts;
    if (auto it = readers.find(tname); it != readers.end()) dsts = it->second;
    if (dsts.empty()) continue;
    const bool src_in = w.node(src).kind == NodeKind::InEdge;
    const bool to_out = std::any_of(dsts.begin(), dsts.end(), [&](std::size_t d) { return w.node(d).kind == NodeKind::OutEdge; });

    SsNode tr;
    tr.kind = SsKind::Transfer;
    tr.dims = ss.tensors[static_cast<std::size_t>(tid)].dims;
    const std::int64_t tbits = ss.tensors[static_cast<std::size_t>(tid)].bits;
    auto copy_tensor = [&](int from, const std::string& new_name) {
      SsTensor c = ss.tensors[static_cast<std::size_t>(from)];
      c.name = new_name;
      ss.tensors.push_back(std::move(c));
      return static_cast<int>(ss.tensors.size()) - 1;
    };
    // Unrolling of the source's inter-core split over the moved tensor's dims.
    auto unrolling_of = [&](std::size_t node, const std::vector<int>& dims) {
      std::int64_t u = 1;
      for (const auto& [d, f] : ss.nodes[node].inter_core_tiling)
        if (contains(dims, d)) u *= f;
      return u;
    };
    // A tensor held by k memory cores: each keeps an equal share.
    auto memory_tile = [&](const std::vector<std::vector<int>>& groups) {
      const auto k = static_cast<std::int64_t>(groups.front().size());
      return (tbits + k - 1) / k;
    };
    auto plans_between = [&](const std::vector<std::vector<int>>& from, const std::vector<std::vector<int>>& to) {
      std::vector<TransferPlan> plans;
      const SsTensor& moved = ss.tensors[static_cast<std::size_t>(tid)];
      const TransferBox box{moved.shape, moved.frame, moved.layout, moved.element_bits};
      for (const auto& s_group : from)
        for (const auto& d_group : to) {
          plans.push_back(router.plan(s_group, d_group, tbits));
          price_plan(plans.back(), acc, box, tbits);
        }
      return plans;
    };
    auto union_of = [](const std::vector<std::vector<int>>& groups) {
      std::set<int> u;
      for (const auto& g : groups) u.insert(g.begin(), g.end());
      return std::vector<int>(u.begin(), u.end());
    };
    // Appends "Transfer(<name>)" moving tensor `in` from the `from` core groups into tensor `out`,
    // which lands on one of the `to` groups with `tile_bits` per core.
    auto add_transfer = [&](const std::string& name, TransferType type, int in, int out,
                            const std::vector<std::vector<int>>& from, const std::vector<std::vector<int>>& to,
                            std::int64_t tile_bits) {
      SsNode t = tr;
      t.name = "Transfer(" + name + ")";
      t.transfer_type = type;
      t.inputs = {in};
      t.outputs = {out};
      t.cores = union_of(to);
      t.plans = plans_between(from, to);
      auto& ot = ss.tensors[static_cast<std::size_t>(out)];
      ot.producer = static_cast<int>(ss.nodes.size());
      ot.placements = to;
      ot.tile_bits = tile_bits;
      ss.nodes.push_back(std::move(t));
    };

    // Moves `moved` (on the `from` groups) to the compute consumers `to` in one transfer named
    // `name`, whose outputs `<out_base>` (one consumer) or `<out_base>.<k>` replace the original
    // tensor in their inputs. The per-core tile is what the widest consumer's split receives.
    auto to_consumers = [&](const std::vector<std::size_t>& to, int moved, const std::vector<std::vector<int>>& from,
                            const std::string& name, TransferType type, const std::string& out_base) {
      std::set<int> dst_cores;
      std::size_t widest = to.front();
      for (std::size_t d : to) {
        for (int c : ss.nodes[d].cores) dst_cores.insert(c);
        if (ss.nodes[d].cores.size() > ss.nodes[widest].cores.size()) widest = d;
      }
      std::int64_t consumer_tile = tbits;
      if (dst_cores.size() > 1 && w.node(widest).has_iteration_space()) {
        for (const auto& t : w.node(widest).inputs)
          if (t->name == tname)
            consumer_tile = product(tiling::tensor_shape_for_node(w, widest, *t, local_split_sizes(widest))) * bits(t->dtype);
      }
      const int tr_index = static_cast<int>(ss.nodes.size());
      SsNode t = tr;
      t.name = name;
      t.transfer_type = type;
      t.inputs = {moved};
      t.cores.assign(dst_cores.begin(), dst_cores.end());
      for (std::size_t k = 0; k < to.size(); ++k) {
        const std::string oname = to.size() == 1 ? out_base : out_base + "." + std::to_string(k);
        const int o = copy_tensor(tid, oname);
        auto& ot = ss.tensors[static_cast<std::size_t>(o)];
        ot.producer = tr_index;
        ot.placements = {t.cores};
        ot.tile_bits = consumer_tile;
        t.outputs.push_back(o);
        auto& ins = ss.nodes[to[k]].inputs;
        std::replace(ins.begin(), ins.end(), tid, o);
      }
      t.plans = plans_between(from, {t.cores});
      ss.nodes.push_back(std::move(t));
    };

    if (to_out && !src_in) {
      // A group output: the producer now writes `<t>_1`; the transfer(s) move it to the off-chip
      // `<t>`, which every OutEdge reads (one off-chip copy however many groups read it).
      const int renamed = copy_tensor(tid, tname + "_1");
      auto& outs = ss.nodes[src].outputs;
      std::replace(outs.begin(), outs.end(), tid, renamed);
      ss.tensors[static_cast<std::size_t>(renamed)].producer = static_cast<int>(src);
      const std::vector<std::vector<int>> src_groups{ss.nodes[src].cores};
      if (mem_cores.empty()) {
        add_transfer(tname + "_1", TransferType::ComputeToMem, renamed, tid, src_groups, {offchip}, tbits);
      } else {
        // Gathered into memory cores first (COMPUTE_TO_MEM to `<t>_2`), then written off-chip.
        const auto groups = memory_core_combinations(acc, mem_cores, ss.nodes[src].cores,
                                                     unrolling_of(src, tr.dims), TransferType::ComputeToMem);
        const int staged = copy_tensor(tid, tname + "_2");
        add_transfer(tname + "_1", TransferType::ComputeToMem, renamed, staged, src_groups, groups, memory_tile(groups));
        add_transfer(tname + "_2", TransferType::MemToMem, staged, tid, groups, {offchip}, tbits);
      }
      // Read inside the group too (a skip crossing a cut point, a returned KV cache): those
      // consumers take the producer's on-chip `<t>_1` directly, with no off-chip round trip.
      std::vector<std::size_t> in_group;
      for (std::size_t d : dsts)
        if (w.node(d).kind != NodeKind::OutEdge) in_group.push_back(d);
      if (!in_group.empty())
        to_consumers(in_group, renamed, src_groups, "Transfer(" + tname + "_1 in group)",
                     TransferType::ComputeToCompute, tname + "_1.in");
      continue;
    }

    // A graph input that is also a graph output: its OutEdge reads the off-chip tensor itself.
    std::erase_if(dsts, [&](std::size_t d) { return w.node(d).kind == NodeKind::OutEdge; });
    if (dsts.empty()) continue;

    // Reused on chip: some consumer has a dim the tensor does not span, so a memory core can keep
    // it while the consumers walk that dim. Its size in this tile does not matter: a dim tiled
    // down to 1 here is still walked across the steady-state iterations.
    bool reused_on_chip = false;
    for (std::size_t d : dsts)
      if (ss.nodes[d].kind == SsKind::Compute)
        for (int dim : ss.nodes[d].dims)
          if (!contains(tr.dims, dim)) reused_on_chip = true;
    const bool stage = src_in && !mem_cores.empty() && reused_on_chip;

    int moved = tid;                  // the tensor the transfer to the consumers reads
    std::string moved_name = tname;   // its name
    std::vector<std::vector<int>> src_groups{ss.nodes[src].cores};
    if (stage) {
      // Off-chip -> memory cores: `<t>` becomes `<t>_1`, placed on one memory-core combination.
      // The count follows the consumer with the largest core group (the reference's
      // get_node_with_largest_resource_allocation over the transfer's compute successors, first
      // one on a tie): its columns and its split of the tensor's dims, not the off-chip source's.
      std::size_t widest = src;
      for (std::size_t d : dsts)
        if (ss.nodes[d].kind == SsKind::Compute && (widest == src || ss.nodes[d].cores.size() > ss.nodes[widest].cores.size()))
          widest = d;
      const auto groups = memory_core_combinations(acc, mem_cores, ss.nodes[widest].cores, unrolling_of(widest, tr.dims),
                                                   TransferType::MemToMem);
      const int staged = copy_tensor(tid, tname + "_1");
      add_transfer(tname, TransferType::MemToMem, tid, staged, src_groups, groups, memory_tile(groups));
      moved = staged;
      moved_name = tname + "_1";
      src_groups = groups;
    }
    // Output names count the hops from the source: `<t>_1` direct, `<t>_2` after staging.
    to_consumers(dsts, moved, src_groups, "Transfer(" + moved_name + ")",
                 src_in ? TransferType::MemToCompute : TransferType::ComputeToCompute, tname + (stage ? "_2" : "_1"));
  }
  return ss;
}

namespace {

// Producer/consumer adjacency of the steady-state graph.
struct Graph {
  std::vector<std::vector<int>> preds, succs;
};

Graph graph_of(const SteadyState& ss) {
  Graph g;
  g.preds.resize(ss.nodes.size());
  g.succs.resize(ss.nodes.size());
  for (std::size_t i = 0; i < ss.nodes.size(); ++i)
    for (int t : ss.nodes[i].inputs) {
      const int p = ss.tensors[static_cast<std::size_t>(t)].producer;
      if (p < 0 || contains(g.preds[i], p)) continue;
      g.preds[i].push_back(p);
      g.succs[static_cast<std::size_t>(p)].push_back(static_cast<int>(i));
    }
  return g;
}

}  // namespace

SteadyState add_iteration_spaces(SteadyState ss) {
  const Graph g = graph_of(ss);
  ss.iterations = 1;
  for (const auto& [d, n] : ss.fusion_splits) ss.iterations *= n;

  // Dims of compute nodes reachable from a transfer through chains of transfers.
  auto neighbour_compute_dims = [&](int start) {
    std::set<int> dims, seen{start};
    std::vector<int> stack{start};
    while (!stack.empty()) {
      const int n = stack.back();
      stack.pop_back();
      for (const auto* adj : {&g.preds[static_cast<std::size_t>(n)], &g.succs[static_cast<std::size_t>(n)]})
        for (int m : *adj) {
          if (!seen.insert(m).second) continue;
          const auto& mn = ss.nodes[static_cast<std::size_t>(m)];
          if (mn.kind == SsKind::Compute) dims.insert(mn.dims.begin(), mn.dims.end());
          if (mn.kind == SsKind::Transfer) stack.push_back(m);
        }
    }
    return dims;
  };

  for (std::size_t i = 0; i < ss.nodes.size(); ++i) {
    auto& n = ss.nodes[i];
    n.loops.clear();
    if (n.kind == SsKind::Compute) {
      for (const auto& [d, s] : ss.fusion_splits)
        n.loops.push_back({d, s, contains(n.dims, d) ? LoopEffect::Varying : LoopEffect::Absent});
    } else if (n.kind == SsKind::Transfer) {
      const auto near = neighbour_compute_dims(static_cast<int>(i));
      for (const auto& [d, s] : ss.fusion_splits) {
        LoopEffect e = contains(n.dims, d) ? LoopEffect::Varying
                       : near.count(d)    ? LoopEffect::Invariant
                                          : LoopEffect::Absent;
        n.loops.push_back({d, s, e});
      }
    }
  }
  for (auto& t : ss.tensors) {
    t.loops.clear();
    if (t.producer < 0) continue;
    const auto& p = ss.nodes[static_cast<std::size_t>(t.producer)];
    const SsNode* from = &p;
    if (p.kind == SsKind::InEdge) {
      const auto& succ = g.succs[static_cast<std::size_t>(t.producer)];
      if (succ.empty()) continue;
      from = &ss.nodes[static_cast<std::size_t>(succ.front())];
    }
    for (const auto& l : from->loops) {
      LoopEffect e = contains(t.dims, l.dim)            ? LoopEffect::Varying
                     : l.effect == LoopEffect::Absent ? LoopEffect::Absent
                                                      : LoopEffect::Invariant;
      t.loops.push_back({l.dim, l.size, e});
    }
  }
  return ss;
}

namespace {

int class_rank(SsKind k) {
  switch (k) {
    case SsKind::Compute: return 0;
    case SsKind::Transfer: return 1;
    case SsKind::InEdge: return 3;
    case SsKind::OutEdge: return 4;
  }
  return 5;
}

// Can every node of the bucket pick one option so that all picks are pairwise disjoint?
bool disjoint_choice(const std::vector<const std::vector<std::vector<int>>*>& options) {
  std::vector<int> used;
  std::function<bool(std::size_t)> rec = [&](std::size_t k) {
    if (k == options.size()) return true;
    for (const auto& opt : *options[k]) {
      if (std::any_of(opt.begin(), opt.end(), [&](int r) { return contains(used, r); })) continue;
      const auto mark = used.size();
      used.insert(used.end(), opt.begin(), opt.end());
      if (rec(k + 1)) return true;
      used.resize(mark);
    }
    return false;
  };
  return rec(0);
}

}  // namespace

SteadyState assign_time_slots(SteadyState ss) {
  const Graph g = graph_of(ss);
  const std::size_t n = ss.nodes.size();
  std::vector<std::vector<std::vector<int>>> options(n);
  for (std::size_t i = 0; i < n; ++i) {
    const auto& nd = ss.nodes[i];
    if (nd.kind == SsKind::Compute) options[i] = {nd.cores};
    if (nd.kind == SsKind::Transfer)
      for (const auto& p : nd.plans) options[i].push_back(p.links);
  }
  using Key = std::pair<int, std::size_t>;
  std::priority_queue<Key, std::vector<Key>, std::greater<>> ready;
  std::vector<std::size_t> pending(n);
  for (std::size_t i = 0; i < n; ++i) {
    pending[i] = g.preds[i].size();
    if (pending[i] == 0) ready.push({class_rank(ss.nodes[i].kind), i});
  }
  std::map<int, std::vector<std::size_t>> compute_bucket, transfer_bucket;
  ss.max_slot = -1;
  while (!ready.empty()) {
    const std::size_t i = ready.top().second;
    ready.pop();
    auto& nd = ss.nodes[i];
    int earliest = 0;
    for (int p : g.preds[i]) earliest = std::max(earliest, ss.nodes[static_cast<std::size_t>(p)].slot + 1);
    int slot = earliest;
    if (nd.kind == SsKind::Compute || nd.kind == SsKind::Transfer) {
      auto& buckets = nd.kind == SsKind::Compute ? compute_bucket : transfer_bucket;
      for (;; ++slot) {
        std::vector<const std::vector<std::vector<int>>*> opts;
        for (std::size_t m : buckets[slot]) opts.push_back(&options[m]);
        opts.push_back(&options[i]);
        if (disjoint_choice(opts)) break;
      }
      buckets[slot].push_back(i);
    }
    nd.slot = slot;
    ss.max_slot = std::max(ss.max_slot, slot);
    for (int s : g.succs[i])
      if (--pending[static_cast<std::size_t>(s)] == 0) ready.push({class_rank(ss.nodes[static_cast<std::size_t>(s)].kind), static_cast<std::size_t>(s)});
  }
  return ss;
}

SteadyState add_compute_latencies(SteadyState ss, const NodeCosts& costs) {
  for (auto& n : ss.nodes) {
    if (n.kind != SsKind::Compute) continue;
    auto it = costs.find(n.name);
    if (it == costs.end() || it->second.empty())
      throw Error("no cost entry for compute node '" + n.name + "'", Location{.node = n.name});
    double mx = 0;
    for (const auto& e : it->second) mx = std::max(mx, e.latency_total);
    n.lut_latency = std::ceil(mx);
    n.active_latency = active_latency(n.loops, n.lut_latency);
  }
  return ss;
}

SteadyState steady_state(const tiling::TiledGroup& tiled, const NodeCosts& costs, const hardware::Accelerator& acc,
                         Router* router, int nb_cols_to_use) {
  return add_compute_latencies(assign_time_slots(add_iteration_spaces(add_transfers(tiled, acc, nb_cols_to_use, router))), costs);
}

}  // namespace stream::schedule
