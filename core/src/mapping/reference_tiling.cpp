#include "reference_tiling.hpp"

#include <algorithm>
#include <string>
#include <unordered_map>

#include "stream/mapping/capacity_tiler.hpp"

namespace stream::mapping {

// A named namespace, not an anonymous one: the library builds in unity batches, where two files'
// anonymous helpers of one name would clash.
namespace reference_a2 {

using Group = ReferenceGroup;

std::int64_t size_of(const Group& g, int d) {
  return d >= 0 && static_cast<std::size_t>(d) < g.dim_size.size() ? g.dim_size[static_cast<std::size_t>(d)] : 1;
}

std::int64_t unroll_of(const Group& g, int d) {
  auto it = g.unroll.find(d);
  return it == g.unroll.end() ? 1 : it->second;
}

// The reference's per-core extent: size / unroll when the unroll divides it, else the whole dim.
std::int64_t per_core(const Group& g, int d) {
  const std::int64_t s = size_of(g, d), u = unroll_of(g, d);
  return u > 1 && s % u == 0 ? s / u : s;
}

// Unified dims an operand's map uses (any use), ascending.
std::set<int> operand_dims(const Group::Member& m, std::size_t op) {
  std::set<int> out;
  for (const auto& e : m.node->operand_mapping.at(op).results())
    for (int d : e.dims())
      if (static_cast<std::size_t>(d) < m.global.size()) out.insert(m.global[static_cast<std::size_t>(d)]);
  return out;
}

// "<first node having d>.D<position>".
TileEntry entry_for(const Group& g, int d, std::int64_t tile) {
  for (const auto& m : g.members)
    for (std::size_t k = 0; k < m.global.size(); ++k)
      if (m.global[k] == d) return TileEntry{m.node->name, static_cast<int>(k), tile};
  return TileEntry{g.members.front().node->name, 0, tile};
}

std::vector<std::int64_t> divisors_descending(std::int64_t n) {
  std::vector<std::int64_t> out;
  for (std::int64_t d = n; d >= 1; --d)
    if (n % d == 0) out.push_back(d);
  return out;
}

std::int64_t bits_of_shape(const std::vector<std::int64_t>& shape, const Tensor& t) {
  std::int64_t n = 1;
  for (auto s : shape) n *= s;
  return n * static_cast<std::int64_t>(bits(t.dtype));
}

// A tensor's shape when the unified dims take `sizes`: per axis the widest range over the group's
// nodes accessing it, clipped to the shape (the reference's get_tensor_shape_with_dimension_sizes).
std::vector<std::int64_t> shape_with_sizes(const Group& g, const Tensor& t, const std::vector<std::int64_t>& sizes) {
  std::vector<std::int64_t> out(t.shape.size(), 0);
  for (const auto& m : g.members)
    for (std::size_t op = 0; op < m.node->num_operands(); ++op) {
      if (m.node->operand(op).get() != &t) continue;
      std::vector<std::int64_t> local;
      for (int d : m.global) local.push_back(sizes.at(static_cast<std::size_t>(d)));
      const auto& results = m.node->operand_mapping.at(op).results();
      for (std::size_t a = 0; a < results.size() && a < out.size(); ++a)
        out[a] = std::max(out[a], results[a].range(local).size());
    }
  for (std::size_t a = 0; a < out.size(); ++a) out[a] = out[a] == 0 ? t.shape[a] : std::min(out[a], t.shape[a]);
  return out;
}

// Outputs of a group node read by another group node, in node order, with the dims their
// producer's output map uses.
struct Intermediates {
  std::vector<const Tensor*> tensors;
  std::set<int> indexed;
};

Intermediates intermediates_of(const Group& g) {
  std::unordered_map<const Tensor*, std::size_t> readers;
  for (const auto& m : g.members)
    for (const auto& t : m.node->inputs) ++readers[t.get()];
  Intermediates out;
  for (const auto& m : g.members)
    for (std::size_t o = 0; o < m.node->outputs.size(); ++o) {
      const Tensor* t = m.node->outputs[o].get();
      if (!readers.count(t)) continue;
      out.tensors.push_back(t);
      const auto ds = operand_dims(m, m.node->inputs.size() + o);
      out.indexed.insert(ds.begin(), ds.end());
    }
  return out;
}

// The largest dim of size > 1 in `pool` ∩ `indexed`, ties to the larger name "z<d>" (the
// reference's max over (size, str(dim))).
int largest_dim(const Group& g, const std::set<int>& pool, const std::set<int>& indexed) {
  int best = -1;
  for (int d : pool) {
    if (!indexed.count(d) || size_of(g, d) <= 1) continue;
    if (best < 0 || size_of(g, d) > size_of(g, best) ||
        (size_of(g, d) == size_of(g, best) && "z" + std::to_string(d) > "z" + std::to_string(best)))
      best = d;
  }
  return best;
}

int fusion_dim(const Group& g, const std::set<int>& indexed) {
  if (int d = largest_dim(g, g.recurrence, indexed); d >= 0) return d;
  std::map<int, bool> parallel;  // parallel for every node using it, and no nonlinear reduction
  for (const auto& m : g.members)
    for (std::size_t k = 0; k < m.global.size(); ++k) {
      auto [it, added] = parallel.emplace(m.global[k], true);
      (void)added;
      it->second = it->second && m.kinds[k] == IteratorKind::Parallel && !g.nonlinear.count(m.global[k]);
    }
  std::set<int> pool;
  for (const auto& [d, ok] : parallel)
    if (ok) pool.insert(d);
  return largest_dim(g, pool, indexed);
}

// _auto_fusion_tiling: a tile of the fusion dim when the largest streamed intermediate, with
// only that dim shrunk, overflows half the smallest first-candidate memory; else none.
std::vector<TileEntry> fusion_tiling(const hardware::Accelerator& acc, const Group& g) {
  if (g.members.size() < 2) return {};
  const Intermediates im = intermediates_of(g);
  if (im.tensors.empty()) return {};
  const int axis = fusion_dim(g, im.indexed);
  if (axis < 0) return {};
  const std::int64_t size = size_of(g, axis);
  auto shape_at = [&](const Tensor& t, std::int64_t extent) {
    std::vector<std::int64_t> sizes = g.dim_size;
    sizes[static_cast<std::size_t>(axis)] = extent;
    return shape_with_sizes(g, t, sizes);
  };
  std::vector<const Tensor*> streamed;
  for (const Tensor* t : im.tensors)
    if (shape_at(*t, 1) != t->shape) streamed.push_back(t);
  if (streamed.empty()) return {};
  std::int64_t budget = -1;
  for (const auto& m : g.members)
    if (!m.candidates.empty()) {
      const std::int64_t half = acc.core(m.candidates.front()).memory_capacity() / 2;
      budget = budget < 0 ? half : std::min(budget, half);
    }
  // The fusion dim split by size // tile: each part size / (size // tile) elements long.
  auto resident = [&](std::int64_t tile) {
    std::int64_t worst = 0;
    for (const Tensor* t : streamed) worst = std::max(worst, bits_of_shape(shape_at(*t, size / (size / tile)), *t));
    return worst;
  };
  const std::int64_t pc = per_core(g, axis);
  if (budget <= 0 || resident(pc) <= budget) return {};
  for (std::int64_t tile : divisors_descending(pc))
    if (resident(tile) <= budget) return {entry_for(g, axis, tile)};
  return {entry_for(g, axis, 1)};
}

// _whole_layer_tiling: the first node with dims, its D0, one steady-state iteration.
std::vector<TileEntry> whole_layer_tiling(const Group& g) {
  for (const auto& m : g.members)
    if (!m.global.empty()) return {TileEntry{m.node->name, 0, per_core(g, m.global.front())}};
  return {};
}

// The capacity tiler's input: one axis per tensor holding the dims of the first node listing it,
// each tensor at full size over the unrolling of those dims, on every candidate core of every
// node that lists it.
CapacityProblem capacity_problem(const hardware::Accelerator& acc, const Group& g, const std::vector<TileEntry>& seed,
                                 std::vector<int>& dims) {
  struct Listed {
    const Tensor* tensor;
    std::set<int> dims;
  };
  std::vector<Listed> tensors;  // by first listing
  std::unordered_map<const Tensor*, int> id;
  std::map<int, std::vector<int>> on_core;  // core -> tensor ids, in listing order
  std::vector<int> core_order;
  for (const auto& m : g.members) {
    std::vector<int> own;
    for (std::size_t op = 0; op < m.node->num_operands(); ++op) {
      const Tensor* t = m.node->operand(op).get();
      auto [it, fresh] = id.try_emplace(t, static_cast<int>(tensors.size()));
      if (fresh) tensors.push_back({t, operand_dims(m, op)});
      if (std::find(own.begin(), own.end(), it->second) == own.end()) own.push_back(it->second);
    }
    for (int c : m.candidates) {
      auto [it, fresh] = on_core.try_emplace(c);
      if (fresh) core_order.push_back(c);
      for (int t : own)
        if (std::find(it->second.begin(), it->second.end(), t) == it->second.end()) it->second.push_back(t);
    }
  }
  std::set<int> kept;
  for (const auto& l : tensors)
    for (int d : l.dims)
      if (!g.nonlinear.count(d) && per_core(g, d) > 1) kept.insert(d);
  dims.assign(kept.begin(), kept.end());
  CapacityProblem p;
  std::map<int, int> dense;
  for (int d : dims) {
    dense.emplace(d, static_cast<int>(p.per_core.size()));
    p.per_core.push_back(per_core(g, d));
  }
  p.resident = p.per_core;
  for (const auto& e : seed)
    for (const auto& m : g.members)
      if (m.node->name == e.node && e.dim >= 0 && static_cast<std::size_t>(e.dim) < m.global.size())
        if (auto it = dense.find(m.global[static_cast<std::size_t>(e.dim)]); it != dense.end())
          p.resident[static_cast<std::size_t>(it->second)] = std::clamp<std::int64_t>(e.tile, 1, p.per_core[static_cast<std::size_t>(it->second)]);
  std::vector<double> base;
  for (const auto& l : tensors) {
    double u = 1.0;
    std::vector<int> axis;
    for (int d : l.dims) {
      if (unroll_of(g, d) > 1) u *= static_cast<double>(unroll_of(g, d));
      if (auto it = dense.find(d); it != dense.end()) axis.push_back(it->second);
    }
    base.push_back(static_cast<double>(l.tensor->size_bits()) / u);
    p.axes.push_back({{axis}});
  }
  for (int c : core_order) {
    CapacityProblem::Core core;
    core.budget = static_cast<double>(static_cast<std::int64_t>(static_cast<double>(acc.core(c).memory_capacity()) * g.fill_fraction));
    if (core.budget <= 0) continue;  // a core without memory bounds nothing
    for (int t : on_core.at(c)) core.tensors.emplace_back(t, base[static_cast<std::size_t>(t)]);
    p.cores.push_back(std::move(core));
  }
  p.max_tiles = g.max_tiles;
  p.strict_descent = true;
  return p;
}

}  // namespace reference_a2

std::vector<TileEntry> reference_tiling(const hardware::Accelerator& accelerator, const ReferenceGroup& group,
                                        bool& tile_cap_reached) {
  using namespace reference_a2;
  if (group.members.empty()) return {};
  std::vector<TileEntry> seed = fusion_tiling(accelerator, group);
  if (seed.empty()) seed = whole_layer_tiling(group);
  std::vector<int> dims;
  const CapacityResult r = refine_capacity(capacity_problem(accelerator, group, seed, dims));
  if (r.fitted_at_start) return seed;
  if (r.tile_cap_reached) {  // the reference keeps the seed when its search stops short
    tile_cap_reached = true;
    return seed;
  }
  std::vector<TileEntry> out;
  for (std::size_t j = 0; j < dims.size(); ++j)
    if (r.resident[j] < per_core(group, dims[j])) out.push_back(entry_for(group, dims[j], r.resident[j]));
  return out.empty() ? seed : out;
}

}  // namespace stream::mapping
