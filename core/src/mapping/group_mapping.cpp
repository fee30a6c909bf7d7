#include "stream/mapping/group_mapping.hpp"

#include <algorithm>
#include <numeric>
#include <set>
#include <sstream>

#include "stream/diagnostics/diagnostics.hpp"
#include "stream/error.hpp"
#include "stream/mapping/auto_mapping.hpp"
#include "stream/mapping/mapping.hpp"
#include "stream/numeric/uneven_split.hpp"
#include "stream/yaml/yaml_text.hpp"

namespace stream::mapping {

GroupMapping to_group_mapping(const Mapping& m, const Workload& group) {
  GroupMapping g;
  g.nodes.resize(group.size());
  const LayerLookup lookup(m);
  for (std::size_t i : group.computation_nodes()) {
    const auto& lm = lookup.for_node(group.node(i));
    g.nodes[i].cores = lm.cores();
    g.nodes[i].inter_core_tiling = lm.splits();
    if (lm.kernel) g.nodes[i].kernel_utilization = lm.kernel->utilization;
  }
  for (const auto& fg : m.fused_groups)
    g.intra_core_tiling.insert(g.intra_core_tiling.end(), fg.intra_core_tiling.begin(), fg.intra_core_tiling.end());
  return g;
}

GroupMapping automatic_mapping(const Workload& group, const hardware::Accelerator& acc, const AutoMappingOptions& options,
                               bool* tile_cap_reached) {
  return to_group_mapping(generate_mapping(group, acc, options, nullptr, tile_cap_reached), group);
}

Mapping for_group(const Mapping& m, const Workload& group) {
  if (m.fused_groups.size() < 2) return m;
  std::set<std::string> names;
  for (std::size_t i : group.computation_nodes()) names.insert(group.node(i).name);
  Mapping out = m;
  out.fused_groups.clear();
  for (const auto& fg : m.fused_groups)
    if (std::any_of(fg.layers.begin(), fg.layers.end(), [&](const std::string& l) { return names.count(l) > 0; }))
      out.fused_groups.push_back(fg);
  return out;
}

Mapping as_mapping(const Workload& group, const GroupMapping& gm, const std::string& name) {
  Mapping m;
  FusedGroup fg;
  fg.name = name;
  for (std::size_t i : group.computation_nodes()) {
    LayerMapping layer;
    layer.name = group.node(i).name;
    layer.core_allocation = {gm.nodes[i].cores};
    if (!gm.nodes[i].inter_core_tiling.empty()) layer.inter_core_tiling = {gm.nodes[i].inter_core_tiling};
    fg.layers.push_back(layer.name);
    m.layers.push_back(std::move(layer));
  }
  fg.intra_core_tiling = gm.intra_core_tiling;
  m.fused_groups.push_back(std::move(fg));
  return m;
}

GroupMapping automatic_mapping(const Workload& group, const hardware::Accelerator& acc,
                                       const std::vector<TileEntry>& user_tiling,
                                       const std::vector<int>& excluded_cores, double fill_fraction,
                                       bool* tile_cap_reached, bool by_tile_cost_past_cap, Compat compat) {
  AutoMappingOptions o;
  o.by_tile_cost_past_cap = by_tile_cost_past_cap;
  o.compat = compat;
  o.excluded_cores = excluded_cores;
  o.fill_fraction = fill_fraction;
  o.intra_core_tiling = user_tiling;
  return to_group_mapping(generate_mapping(group, acc, o, nullptr, tile_cap_reached), group);
}

GroupMapping read_mapping(const std::filesystem::path& file, const Workload& group,
                                  const hardware::Accelerator& acc) {
  auto m = load_mapping_file(file);
  m.source_file = file.string();
  return read_mapping(m, group, acc);
}

GroupMapping read_mapping(const Mapping& whole, const Workload& group, const hardware::Accelerator& acc) {
  const Mapping m = for_group(whole, group);
  Diagnostics diag;
  check_mapping(m, group, acc, diag);
  diag.throw_if_errors("invalid mapping for this workload and accelerator", m.source_file);
  auto g = to_group_mapping(m, group);
  if (g.intra_core_tiling.empty()) {
    // No fused group: one whole-layer tile on the first node's D0, one steady-state iteration.
    for (std::size_t i : group.dataflow_order()) {
      if (!group.node(i).has_iteration_space()) continue;
      std::int64_t unroll = 1;
      for (const auto& [d, f] : g.nodes[i].inter_core_tiling)
        if (d == 0) unroll = f;
      // The longest core's share, so the tile covers the dim in one iteration even when the
      // split does not divide it.
      g.intra_core_tiling.push_back({group.node(i).name, 0, numeric::ceil_div(group.loop_sizes(i).at(0), unroll)});
      break;
    }
  }
  return g;
}

std::string mapping_yaml(const Workload& group, const GroupMapping& m) {
  yamlx::YamlText out;
  out << YAML::BeginMap << YAML::Key << "layers" << YAML::Value << YAML::BeginSeq;
  std::vector<std::string> names;
  for (std::size_t i : group.computation_nodes()) {
    const auto& nm = m.nodes[i];
    names.push_back(group.node(i).name);
    out << YAML::BeginMap << YAML::Key << "name" << YAML::Value << group.node(i).name;
    out << YAML::Key << "core_allocation" << YAML::Value << YAML::BeginSeq << YAML::Flow << nm.cores << YAML::EndSeq;
    if (!nm.inter_core_tiling.empty()) {
      out << YAML::Key << "inter_core_tiling" << YAML::Value << YAML::BeginSeq << YAML::BeginSeq;
      for (const auto& [d, f] : nm.inter_core_tiling)
        out << YAML::Flow << YAML::BeginMap << YAML::Key << "dim" << YAML::Value << ("D" + std::to_string(d)) << YAML::Key
            << "split" << YAML::Value << f << YAML::EndMap;
      out << YAML::EndSeq << YAML::EndSeq;
    }
    out << YAML::EndMap;
  }
  out << YAML::EndSeq << YAML::Key << "fused_groups" << YAML::Value << YAML::BeginSeq << YAML::BeginMap;
  out << YAML::Key << "name" << YAML::Value << "Fused_Group_1";
  out << YAML::Key << "layers" << YAML::Value << YAML::Flow << names;
  out << YAML::Key << "intra_core_tiling" << YAML::Value << YAML::BeginSeq;
  for (const auto& t : m.intra_core_tiling)
    out << YAML::Flow << YAML::BeginMap << YAML::Key << "dim" << YAML::Value << (t.node + ".D" + std::to_string(t.dim))
        << YAML::Key << "tile" << YAML::Value << t.tile << YAML::EndMap;
  out << YAML::EndSeq << YAML::EndMap << YAML::EndSeq << YAML::EndMap;
  return std::string(out.c_str()) + "\n";
}

}  // namespace stream::mapping
