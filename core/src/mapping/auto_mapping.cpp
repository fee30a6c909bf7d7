#include "stream/mapping/auto_mapping.hpp"

#include <algorithm>
#include <map>
#include <numeric>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "stream/ir/dimensions.hpp"
#include "stream/ir/iteration_space.hpp"
#include "stream/mapping/capacity_tiler.hpp"
#include "stream/mapping/node_choice.hpp"
#include "stream/numeric/uneven_split.hpp"
#include "reference_tiling.hpp"

namespace stream::mapping {

using hardware::Accelerator;
using hardware::CoreKind;

namespace {

struct CoreClasses {
  std::vector<int> specialised, generic, compute;
};

/// The compute cores in graph order (cores outside the graph after, by id), by how they match
/// `node`, leaving out `excluded`.
CoreClasses classify_cores(const Node& node, const Accelerator& accelerator, const std::vector<int>& excluded) {
  std::vector<int> order = accelerator.graph_cores();
  for (std::size_t id = 0; id < accelerator.size(); ++id)
    if (!accelerator.in_graph(static_cast<int>(id))) order.push_back(static_cast<int>(id));
  CoreClasses out;
  for (int id : order) {
    const auto& core = accelerator.core(id);
    if (core.kind() == CoreKind::Offchip || core.kind() == CoreKind::Shim || core.kind() == CoreKind::Memory) continue;
    if (std::find(excluded.begin(), excluded.end(), id) != excluded.end()) continue;
    out.compute.push_back(id);
    if (!core.operator_types) out.generic.push_back(id);
    else if (core.accepts(node.type)) out.specialised.push_back(id);
  }
  return out;
}

}  // namespace

std::vector<int> select_cores(const Node& node, const Accelerator& accelerator, bool* fallback,
                              const std::vector<int>& excluded) {
  auto matching = [](const CoreClasses& c) { return c.specialised.empty() ? c.generic : c.specialised; };
  if (fallback) *fallback = false;
  // Without the excluded cores a node falls through to the next class (generic after specialised)
  // as if they did not exist; a node that only an excluded core can run keeps it.
  const CoreClasses kept = classify_cores(node, accelerator, excluded);
  if (auto cores = matching(kept); !cores.empty()) return cores;
  const CoreClasses all = excluded.empty() ? kept : classify_cores(node, accelerator, {});
  if (auto cores = matching(all); !cores.empty()) return cores;
  if (fallback) *fallback = true;
  return kept.compute.empty() ? all.compute : kept.compute;
}

std::vector<int> allowed_cores(const Node& node, const Accelerator& accelerator) {
  const CoreClasses c = classify_cores(node, accelerator, {});
  std::vector<int> out = c.specialised;
  out.insert(out.end(), c.generic.begin(), c.generic.end());
  if (out.empty()) out = c.compute;
  std::sort(out.begin(), out.end());
  return out;
}

namespace {

// The unified dims no node may split: sequential ones, and the reductions of fused kernels and
// normalisations (Generator::collect's rule, over every node of the workload).
std::set<int> protected_dims(const Workload& wl, const UnifiedDimensions& ud) {
  std::set<int> out;
  for (std::size_t index : wl.computation_nodes()) {
    const Node& n = wl.node(index);
    const auto kinds = iterator_kinds(n);
    const auto global = ud.dims_of(index, n.num_dims());
    for (std::size_t d = 0; d < kinds.size() && d < global.size(); ++d)
      if (kinds[d] == IteratorKind::Sequential || (n.fused_kernel && kinds[d] == IteratorKind::Reduction)) out.insert(global[d]);
    for (int axis : n.reduction_axes)
      if (axis >= 0 && static_cast<std::size_t>(axis) < global.size()) out.insert(global[static_cast<std::size_t>(axis)]);
  }
  return out;
}

}  // namespace

std::vector<bool> splittable_dims(const Workload& workload, std::size_t index) {
  const UnifiedDimensions& ud = workload.unified_dimensions();
  const std::set<int> prot = protected_dims(workload, ud);
  const Node& n = workload.node(index);
  const auto kinds = iterator_kinds(n);
  const auto sizes = loop_sizes(n);
  const auto global = ud.dims_of(index, n.num_dims());
  std::vector<bool> out(kinds.size(), false);
  for (std::size_t d = 0; d < kinds.size() && d < global.size(); ++d)
    out[d] = kinds[d] == IteratorKind::Parallel && sizes[d] > 1 && !prot.count(global[d]);
  return out;
}

std::vector<DimSplit> factor_split(const std::vector<std::int64_t>& sizes, const std::vector<bool>& parallel,
                                   const std::vector<bool>& protected_dims, std::int64_t n_cores) {
  std::vector<int> candidates;
  for (std::size_t d = 0; d < sizes.size(); ++d)
    if (d >= protected_dims.size() || !protected_dims[d]) candidates.push_back(static_cast<int>(d));
  // Stable sort by (parallel, size) descending: ties keep dim order.
  std::stable_sort(candidates.begin(), candidates.end(), [&](int a, int b) {
    const bool pa = static_cast<std::size_t>(a) < parallel.size() && parallel[static_cast<std::size_t>(a)];
    const bool pb = static_cast<std::size_t>(b) < parallel.size() && parallel[static_cast<std::size_t>(b)];
    if (pa != pb) return pa;
    return sizes[static_cast<std::size_t>(a)] > sizes[static_cast<std::size_t>(b)];
  });
  std::vector<DimSplit> out;
  std::int64_t remaining = n_cores;
  for (int d : candidates) {
    if (remaining <= 1) break;
    const std::int64_t f = std::gcd(remaining, sizes[static_cast<std::size_t>(d)]);
    if (f > 1) {
      out.push_back(DimSplit{d, f});
      remaining /= f;
    }
  }
  return out;
}

namespace {

struct NodeInfo {
  std::size_t index = 0;
  const Node* node = nullptr;
  std::vector<std::int64_t> sizes;
  std::vector<IteratorKind> kinds;
  std::vector<int> global;  ///< unified dim per local dim
};

/// Unified dims indexed by operand `op` of a node (any use), and those indexed as a bare dim.
void operand_dims(const NodeInfo& info, std::size_t op, std::set<int>& any, std::set<int>* bare) {
  const AffineMap& map = info.node->operand_mapping.at(op);
  for (const auto& e : map.results()) {
    for (int d : e.dims())
      if (static_cast<std::size_t>(d) < info.global.size()) any.insert(info.global[static_cast<std::size_t>(d)]);
    if (bare && e.is_dim() && static_cast<std::size_t>(e.position()) < info.global.size())
      bare->insert(info.global[static_cast<std::size_t>(e.position())]);
  }
}

std::vector<std::int64_t> divisors_descending(std::int64_t n) {
  std::vector<std::int64_t> out;
  for (std::int64_t d = 1; d * d <= n; ++d)
    if (n % d == 0) {
      out.push_back(d);
      if (d != n / d) out.push_back(n / d);
    }
  std::sort(out.rbegin(), out.rend());
  return out;
}

class Generator {
 public:
  Generator(const Workload& wl, const Accelerator& acc, const AutoMappingOptions& opt, Diagnostics* diag)
      : wl_(wl), acc_(acc), opt_(opt), diag_(diag), ud_(wl.unified_dimensions()) {}

  Mapping run() {
    collect();
    Mapping m;
    std::set<int> used;
    for (const auto& info : nodes_) {
      const NodeChoice* chosen = choice_of(*info.node);
      bool fallback = false;
      std::vector<int> cores = chosen ? chosen->cores : select_cores(*info.node, acc_, &fallback, opt_.excluded_cores);
      if (fallback) warn("node '" + info.node->name + "' (" + info.node->type +
                         "): no core lists this op type and no generic core exists; using every compute core");
      if (cores.empty())
        throw Error("the accelerator has no core that can compute node '" + info.node->name + "' (" + info.node->type + ")",
                    Location{.file = acc_.source_file});
      candidates_.push_back(cores);
      std::vector<DimSplit> splits;
      if (chosen) {
        splits = chosen->splits;
      } else if (cores.size() > 1) {
        std::vector<bool> parallel, prot;
        for (std::size_t d = 0; d < info.sizes.size(); ++d) {
          parallel.push_back(info.kinds[d] == IteratorKind::Parallel);
          prot.push_back(protected_.count(info.global[d]) > 0);
        }
        splits = factor_split(info.sizes, parallel, prot, static_cast<std::int64_t>(cores.size()));
        std::int64_t prod = 1;
        for (const auto& s : splits) prod *= s.split;
        if (prod < static_cast<std::int64_t>(cores.size())) {
          std::vector<int> free;
          for (int c : cores)
            if (!used.count(c)) free.push_back(c);
          const std::vector<int>& from = static_cast<std::int64_t>(free.size()) >= prod ? free : cores;
          cores.assign(from.begin(), from.begin() + prod);
        }
      }
      used.insert(cores.begin(), cores.end());
      LayerMapping layer;
      layer.name = info.node->name;
      layer.core_allocation = {cores};
      if (!splits.empty()) layer.inter_core_tiling = {splits};
      std::map<int, std::int64_t> own;
      for (const auto& s : splits) {
        auto& best = max_split_[info.global[static_cast<std::size_t>(s.dim)]];
        best = std::max(best, s.split);
        own[info.global[static_cast<std::size_t>(s.dim)]] = s.split;
      }
      own_split_.push_back(std::move(own));
      first_core_.push_back(cores.front());
      cores_of_.push_back(cores);
      m.layers.push_back(std::move(layer));
    }
    FusedGroup group;
    group.name = "Fused_Group_1";
    for (const auto& info : nodes_) group.layers.push_back(info.node->name);
    group.intra_core_tiling = tiling();
    m.fused_groups.push_back(std::move(group));
    return m;
  }

  [[nodiscard]] bool tile_cap_reached() const { return tile_cap_reached_; }

 private:
  const NodeChoice* choice_of(const Node& node) const {
    if (!opt_.choices) return nullptr;
    auto it = opt_.choices->find(node.name);
    return it == opt_.choices->end() ? nullptr : &it->second;
  }

  void warn(const std::string& message) {
    if (diag_) diag_->warning(Location{}, message);
  }

  void collect() {
    for (std::size_t index : wl_.computation_nodes()) {
      const Node& n = wl_.node(index);
      NodeInfo info;
      info.index = index;
      info.node = &n;
      info.sizes = loop_sizes(n);
      info.kinds = iterator_kinds(n);
      info.global = ud_.dims_of(index, n.num_dims());
      for (std::size_t d = 0; d < info.kinds.size(); ++d) {
        if (info.kinds[d] == IteratorKind::Sequential) {
          protected_.insert(info.global[d]);
          recurrence_.insert(info.global[d]);
        }
        // Reductions of a fused kernel are nonlinear (softmax, norms): not spatially unrollable.
        if (n.fused_kernel && info.kinds[d] == IteratorKind::Reduction) {
          protected_.insert(info.global[d]);
          nonlinear_.insert(info.global[d]);
        }
      }
      for (int axis : n.reduction_axes)
        if (axis >= 0 && static_cast<std::size_t>(axis) < info.global.size()) {
          protected_.insert(info.global[static_cast<std::size_t>(axis)]);
          nonlinear_.insert(info.global[static_cast<std::size_t>(axis)]);
        }
      nodes_.push_back(std::move(info));
    }
  }

  std::int64_t dim_size(int g) const {
    return g >= 0 && static_cast<std::size_t>(g) < ud_.dim_size.size() ? ud_.dim_size[static_cast<std::size_t>(g)] : 1;
  }
  std::int64_t split_of(int g) const {
    auto it = max_split_.find(g);
    return it == max_split_.end() ? 1 : it->second;
  }
  // The longest core's share: a split that does not divide the dim leaves the last core less.
  std::int64_t per_core(int g) const { return std::max<std::int64_t>(1, numeric::ceil_div(dim_size(g), split_of(g))); }

  /// "<first node having g>.D<pos>".
  TileEntry entry_for(int g, std::int64_t tile) const {
    for (const auto& info : nodes_)
      for (std::size_t d = 0; d < info.global.size(); ++d)
        if (info.global[d] == g) return TileEntry{info.node->name, static_cast<int>(d), tile};
    return TileEntry{nodes_.front().node->name, 0, tile};
  }

  struct TensorUse {
    const Tensor* tensor = nullptr;
    std::set<int> dims;              ///< unified dims indexing it
    double per_core_bits = 0.0;      ///< bits / product of the inter-core splits of its dims (own or group max)
  };

  /// Distinct tensors of node k (first access defines the dims).
  std::vector<TensorUse> tensors_of(std::size_t k, bool own_share) const {
    std::vector<TensorUse> out;
    const NodeInfo& info = nodes_[k];
    for (std::size_t op = 0; op < info.node->num_operands(); ++op) {
      const Tensor* t = info.node->operand(op).get();
      if (std::any_of(out.begin(), out.end(), [&](const TensorUse& u) { return u.tensor == t; })) continue;
      TensorUse u;
      u.tensor = t;
      operand_dims(info, op, u.dims, nullptr);
      // A core holds the node's own share of the tensor: a node on one core (e.g. a Relu on the SIMD
      // core next to k-split convolutions) keeps every channel, however other nodes split the dim.
      double splits = 1.0;
      for (int g : u.dims) {
        if (!own_share) {
          splits *= static_cast<double>(split_of(g));
          continue;
        }
        auto it = own_split_[k].find(g);
        if (it != own_split_[k].end()) splits *= static_cast<double>(it->second);
      }
      u.per_core_bits = static_cast<double>(t->size_bits()) / splits;
      out.push_back(std::move(u));
    }
    return out;
  }

  std::vector<TileEntry> tiling() {
    std::set<std::string> names;
    for (const auto& info : nodes_) names.insert(info.node->name);
    std::vector<TileEntry> caller;
    for (const auto& t : opt_.intra_core_tiling)
      if (names.count(t.node)) caller.push_back(t);
    if (!caller.empty()) return caller;
    if (opt_.compat == Compat::Stream113) return reference_tiling(acc_, reference_group(), tile_cap_reached_);
    std::vector<TileEntry> seed = fusion_tiling();
    if (seed.empty()) seed = whole_layer_tiling();
    std::vector<TileEntry> refined = capacity_refine(seed);
    return refined.empty() ? seed : refined;
  }

  // The group as the reference's tiler sees it (reference_tiling.hpp).
  ReferenceGroup reference_group() const {
    ReferenceGroup g;
    for (std::size_t k = 0; k < nodes_.size(); ++k)
      g.members.push_back({nodes_[k].node, nodes_[k].global, nodes_[k].kinds, candidates_[k]});
    g.dim_size = ud_.dim_size;
    g.unroll = max_split_;
    g.recurrence = recurrence_;
    g.nonlinear = nonlinear_;
    g.fill_fraction = opt_.fill_fraction;
    g.max_tiles = opt_.max_steady_state_tiles;
    return g;
  }

  std::vector<TileEntry> whole_layer_tiling() const {
    const NodeInfo& first = nodes_.front();
    if (first.global.empty()) return {};  // a scalar node (a Pow of two constants): one iteration, no tile
    return {TileEntry{first.node->name, 0, per_core(first.global[0])}};
  }

  std::vector<TileEntry> fusion_tiling() const {
    if (nodes_.size() < 2) return {};
    std::set<std::string> group_names;
    for (const auto& info : nodes_) group_names.insert(info.node->name);
    // Intermediates: produced by one node of the group and read by another.
    std::unordered_set<const Tensor*> intermediates;
    std::set<int> indexed;
    for (std::size_t k = 0; k < nodes_.size(); ++k) {
      const NodeInfo& info = nodes_[k];
      for (std::size_t i = 0; i < info.node->inputs.size(); ++i) {
        const std::size_t p = wl_.producer_of(info.node->inputs[i]->name);
        if (p == Workload::npos || !group_names.count(wl_.node(p).name) || !wl_.node(p).has_iteration_space()) continue;
        const Tensor* t = info.node->inputs[i].get();
        intermediates.insert(t);
        std::set<int> any;
        operand_dims(info, i, any, &indexed);
      }
    }
    if (intermediates.empty()) return {};
    // Parallel for every node using the dim.
    std::map<int, bool> all_parallel;
    for (const auto& info : nodes_)
      for (std::size_t d = 0; d < info.global.size(); ++d) {
        auto [it, added] = all_parallel.emplace(info.global[d], true);
        it->second = it->second && info.kinds[d] == IteratorKind::Parallel;
        (void)added;
      }
    auto pick = [&](const std::set<int>& pool) {
      int best = -1;
      for (int g : pool) {
        if (!indexed.count(g) || dim_size(g) <= 1) continue;
        // Largest size, then the larger name "z<g>" (string order, as the reference's tuple max).
        if (best < 0 || dim_size(g) > dim_size(best) ||
            (dim_size(g) == dim_size(best) && "z" + std::to_string(g) > "z" + std::to_string(best)))
          best = g;
      }
      return best;
    };
    int axis = pick(recurrence_);
    if (axis < 0) {
      std::set<int> fusible;
      for (const auto& [g, par] : all_parallel)
        if (par) fusible.insert(g);
      axis = pick(fusible);
    }
    if (axis < 0) return {};
    const std::int64_t pc = per_core(axis);
    std::int64_t budget = -1;
    for (int c : first_core_) {
      const std::int64_t cap = acc_.core(c).memory_capacity() / 2;
      budget = budget < 0 ? cap : std::min(budget, cap);
    }
    // The largest streamed intermediate, per core.
    double largest = 0.0;
    for (std::size_t k = 0; k < nodes_.size(); ++k)
      for (const auto& u : tensors_of(k, false))
        if (u.dims.count(axis) && intermediates.count(u.tensor))
          largest = std::max(largest, u.per_core_bits);
    if (largest <= static_cast<double>(budget)) return {};
    for (std::int64_t tile : divisors_descending(pc))
      if (largest * static_cast<double>(tile) / static_cast<double>(pc) <= static_cast<double>(budget))
        return {entry_for(axis, tile)};
    return {entry_for(axis, 1)};
  }

  /// Per physical core (ascending id): the distinct tensors of every node it may run, each with the
  /// first such node's own share.
  std::map<int, std::vector<TensorUse>> per_core_tensors() const {
    std::map<int, std::vector<TensorUse>> out;
    std::map<int, std::unordered_set<const Tensor*>> seen;
    for (std::size_t k = 0; k < nodes_.size(); ++k)
      for (int c : cores_of_[k]) {
        auto& list = out[c];
        auto& held = seen[c];
        for (auto& u : tensors_of(k, true))
          if (held.insert(u.tensor).second) list.push_back(std::move(u));
      }
    return out;
  }

  /// The capacity tiler's input on dense ids: dims in ascending unified order, tensors by first
  /// access. A tensor's steady-state extent along an axis is the largest over the nodes reading or
  /// writing it (the tiled workload's shape rule), so a tensor read through two unrelated dim
  /// families (a block input feeding a 3x3 conv and a residual Add) only shrinks along an axis
  /// when every accessor's dims for that axis shrink.
  CapacityProblem capacity_problem(const std::vector<TileEntry>& seed, std::vector<int>& dims) const {
    CapacityProblem p;
    std::set<int> all;
    for (const auto& info : nodes_) all.insert(info.global.begin(), info.global.end());
    dims.assign(all.begin(), all.end());
    std::map<int, int> dense;
    for (int g : dims) {
      dense.emplace(g, static_cast<int>(p.per_core.size()));
      p.per_core.push_back(per_core(g));
    }
    p.resident = p.per_core;
    for (const auto& t : seed)
      for (const auto& info : nodes_)
        if (info.node->name == t.node && t.dim >= 0 && static_cast<std::size_t>(t.dim) < info.global.size()) {
          const int g = info.global[static_cast<std::size_t>(t.dim)];
          p.resident[static_cast<std::size_t>(dense.at(g))] = std::clamp<std::int64_t>(t.tile, 1, per_core(g));
        }
    std::unordered_map<const Tensor*, int> tensor_id;
    for (const auto& info : nodes_)
      for (std::size_t op = 0; op < info.node->num_operands(); ++op) {
        auto [it, fresh] = tensor_id.try_emplace(info.node->operand(op).get(), static_cast<int>(p.axes.size()));
        if (fresh) p.axes.emplace_back();
        auto& axes = p.axes[static_cast<std::size_t>(it->second)];
        const auto& results = info.node->operand_mapping.at(op).results();
        if (axes.size() < results.size()) axes.resize(results.size());
        for (std::size_t a = 0; a < results.size(); ++a) {
          std::set<int> ds;
          for (int d : results[a].dims())
            if (static_cast<std::size_t>(d) < info.global.size()) ds.insert(dense.at(info.global[static_cast<std::size_t>(d)]));
          axes[a].emplace_back(ds.begin(), ds.end());
        }
      }
    for (const auto& [c, tensors] : per_core_tensors()) {
      CapacityProblem::Core core;
      core.budget = opt_.fill_fraction * static_cast<double>(acc_.core(c).memory_capacity());
      for (const auto& u : tensors) core.tensors.emplace_back(tensor_id.at(u.tensor), u.per_core_bits);
      p.cores.push_back(std::move(core));
    }
    p.max_tiles = opt_.max_steady_state_tiles;
    p.by_tile_cost_past_cap = opt_.by_tile_cost_past_cap;
    return p;
  }

  /// Starts from the seed tiling; returns [] when it already fits (keep the seed), else the shrunk
  /// resident tiles.
  std::vector<TileEntry> capacity_refine(const std::vector<TileEntry>& seed) {
    std::vector<int> dims;
    const CapacityResult result = refine_capacity(capacity_problem(seed, dims));
    if (result.fitted_at_start) return {};
    if (result.tile_cap_reached) {
      tile_cap_reached_ = true;
      warn("capacity tiler: the tensors do not fit in " + std::to_string(static_cast<int>(opt_.fill_fraction * 100)) +
           "% of a core's memory within " + std::to_string(opt_.max_steady_state_tiles) + " steady-state tiles");
    }
    // Entry order is the temporal loop order, innermost first. Reduction dims go innermost: an output
    // is irrelevant to them, and the forced-reuse rule keeps an intermediate resident across every
    // loop inside its last irrelevant one, so an outer reduction loop would pin whole activations.
    std::set<int> reductions;
    for (const auto& info : nodes_)
      for (std::size_t d = 0; d < info.global.size() && d < info.kinds.size(); ++d)
        if (info.kinds[d] != IteratorKind::Parallel) reductions.insert(info.global[d]);
    std::vector<TileEntry> out;
    for (bool inner : {true, false})
      for (std::size_t j = 0; j < dims.size(); ++j) {
        const int g = dims[j];
        const std::int64_t r = result.resident[j];
        if (r < per_core(g) && reductions.count(g) == (inner ? 1u : 0u)) out.push_back(entry_for(g, r));
      }
    return out;
  }

  const Workload& wl_;
  const Accelerator& acc_;
  const AutoMappingOptions& opt_;
  Diagnostics* diag_;
  const UnifiedDimensions& ud_;
  std::vector<NodeInfo> nodes_;
  std::set<int> protected_, recurrence_, nonlinear_;
  std::map<int, std::int64_t> max_split_;
  std::vector<int> first_core_;
  std::vector<std::vector<int>> cores_of_;
  std::vector<std::vector<int>> candidates_;  ///< per node: select_cores' list, before the split picks
  std::vector<std::map<int, std::int64_t>> own_split_;  ///< per node: global dim -> its inter-core split
  bool tile_cap_reached_ = false;
};

}  // namespace

Mapping generate_mapping(const Workload& workload, const Accelerator& accelerator, const AutoMappingOptions& options,
                         Diagnostics* diagnostics, bool* tile_cap_reached) {
  if (workload.computation_nodes().empty()) throw Error("the workload has no computation node to map");
  Generator g(workload, accelerator, options, diagnostics);
  Mapping m = g.run();
  if (tile_cap_reached) *tile_cap_reached = g.tile_cap_reached();
  return m;
}

}  // namespace stream::mapping
