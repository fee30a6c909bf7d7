#include "memory_fallback.hpp"

#include <algorithm>
#include <chrono>
#include <sstream>

#include "stream/pipeline/fusion_groups.hpp"
#include "stream/mapping/group_mapping.hpp"

namespace stream::pipeline {

namespace {

constexpr double kSmallestFill = 0.125;  // two halvings: transfer copies and double buffering

bool same_mapping(const mapping::GroupMapping& a, const mapping::GroupMapping& b) {
  if (a.nodes.size() != b.nodes.size() || a.intra_core_tiling.size() != b.intra_core_tiling.size()) return false;
  for (std::size_t i = 0; i < a.nodes.size(); ++i)
    if (a.nodes[i].cores != b.nodes[i].cores || a.nodes[i].inter_core_tiling != b.nodes[i].inter_core_tiling)
      return false;
  for (std::size_t i = 0; i < a.intra_core_tiling.size(); ++i) {
    const auto &x = a.intra_core_tiling[i], &y = b.intra_core_tiling[i];
    if (x.node != y.node || x.dim != y.dim || x.tile != y.tile) return false;
  }
  return true;
}

std::string finer_tiling(Remap& r) {
  r.fill_fraction /= 2;
  std::ostringstream line;
  line << "tiling finer (capacity tiler fill " << r.fill_fraction * 100 << "%)";
  return line.str();
}

// Takes the specialised blocking cores out; false when none is left to take out.
bool without_blocking_cores(Remap& r, const hardware::Accelerator& acc, const allocate::Allocation& allocation) {
  const auto before = r.excluded_cores;
  for (int c : allocation.blocking_cores)
    if (acc.core(c).operator_types &&
        std::find(r.excluded_cores.begin(), r.excluded_cores.end(), c) == r.excluded_cores.end())
      r.excluded_cores.push_back(c);
  if (r.excluded_cores == before) return false;
  r.fill_fraction = mapping::kDefaultFillFraction;
  std::string cores;
  for (int c : r.excluded_cores) cores += (cores.empty() ? "" : ", ") + std::to_string(c);
  r.change = "mapping again without core(s) " + cores;
  return true;
}

}  // namespace

// Past the tile cap, a group the fallback cannot cut (one compute node, or a part of a cut group)
// is tiled by tile cost (capacity_tiler.hpp), once, from the default fill; a fused group is cut
// instead, its layers then tiled alone (inception_v3 and vgg11 in bf16 ran 8 % and 3.5 % slower
// fused by tile cost than cut).
bool MemoryFallback::by_tile_cost(Remap& r, const GroupResult& g, bool tile_cap_reached) {
  if (by_tile_cost_ || !tile_cap_reached || (g.split_from < 0 && g.workload.computation_nodes().size() > 1)) return false;
  by_tile_cost_ = true;
  r.fill_fraction = mapping::kDefaultFillFraction;
  r.change = "tiling by tile cost past the tile cap (capacity tiler fill " + std::to_string(static_cast<int>(r.fill_fraction * 100)) + "%)";
  return true;
}

bool failed_on_memory(const allocate::Allocation& a) {
  return !a.solved() &&
         std::find(a.culprit_families.begin(), a.culprit_families.end(), "memory_capacity") != a.culprit_families.end();
}

std::optional<Remap> MemoryFallback::next(const GroupResult& g, bool tile_cap_reached) {
  tried_.push_back(g.mapping);
  Remap r;
  r.fill_fraction = g.fill_fraction;
  r.excluded_cores = g.excluded_cores;
  for (;;) {
    if (r.fill_fraction > kSmallestFill && !tile_cap_reached)
      r.change = finer_tiling(r);
    else if (!without_blocking_cores(r, acc_, g.allocation) && !by_tile_cost(r, g, tile_cap_reached))
      return std::nullopt;
    const auto t0 = std::chrono::steady_clock::now();
    mapping::AutoMappingOptions o;
    o.excluded_cores = r.excluded_cores;
    o.fill_fraction = r.fill_fraction;
    o.by_tile_cost_past_cap = by_tile_cost_;
    o.compat = compat_;
    o.choices = choices_;
    r.mapping = mapping::automatic_mapping(g.workload, acc_, o, &tile_cap_reached);
    r.mapping_time_s += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    r.tile_cap_reached = tile_cap_reached;
    if (std::none_of(tried_.begin(), tried_.end(), [&](const auto& t) { return same_mapping(r.mapping, t); }))
      return r;
  }
}

std::optional<std::vector<Workload>> per_layer_groups(const Workload& group) {
  auto parts = split_fusion_groups(group, per_layer_cut_points(group));
  if (parts.size() <= 1) return std::nullopt;
  return parts;
}

}  // namespace stream::pipeline
