#include "stream/pipeline/group_mapping.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <numeric>
#include <set>
#include <sstream>

#include "stream/error.hpp"
#include "stream/ir/iteration_space.hpp"

namespace stream::pipeline {

namespace {

int parse_dim(const std::string& text, const Location& where) {
  if (text.size() < 2 || text[0] != 'D' ||
      !std::all_of(text.begin() + 1, text.end(), [](char c) { return c >= '0' && c <= '9'; }))
    throw Error("dimension '" + text + "' is not of the form D<n>", where);
  return std::stoi(text.substr(1));
}

}  // namespace

std::vector<tiling::IntraCoreTile> parse_intra_core_tiling(const std::string& spec) {
  std::vector<tiling::IntraCoreTile> out;
  std::stringstream ss(spec);
  std::string item;
  while (std::getline(ss, item, ',')) {
    if (item.empty()) continue;
    const auto eq = item.find('=');
    const auto dot = item.rfind('.', eq);
    if (eq == std::string::npos || dot == std::string::npos)
      throw Error("intra-core tiling entry '" + item + "' is not of the form Node.D<n>=<tile>", Location{});
    tiling::IntraCoreTile t;
    t.node = item.substr(0, dot);
    t.dim = parse_dim(item.substr(dot + 1, eq - dot - 1), Location{});
    try {
      t.tile = std::stoll(item.substr(eq + 1));
    } catch (const std::exception&) {
      throw Error("intra-core tiling entry '" + item + "' has no integer tile", Location{});
    }
    if (t.tile <= 0) throw Error("intra-core tiling entry '" + item + "': the tile must be positive", Location{});
    out.push_back(t);
  }
  return out;
}

tiling::GroupMapping automatic_mapping(const Workload& group, const hardware::Accelerator& acc,
                                       const std::vector<tiling::IntraCoreTile>& user_tiling) {
  tiling::GroupMapping m;
  m.nodes.resize(group.size());
  std::vector<int> candidates;
  for (int c : acc.graph_cores()) {
    const auto k = acc.core(c).kind();
    if (k == hardware::CoreKind::Offchip || k == hardware::CoreKind::Shim || k == hardware::CoreKind::Memory) continue;
    candidates.push_back(c);
  }
  std::set<int> used_by_group;
  for (std::size_t i : group.computation_nodes()) {
    const Node& n = group.node(i);
    std::vector<int> special, generic;
    for (int c : candidates) {
      const auto& core = acc.core(c);
      if (core.operator_types && std::find(core.operator_types->begin(), core.operator_types->end(), n.type) != core.operator_types->end())
        special.push_back(c);
      else if (!core.operator_types)
        generic.push_back(c);
    }
    std::vector<int> cores = !special.empty() ? special : !generic.empty() ? generic : std::vector<int>{};
    if (cores.empty())
      for (int c : candidates)
        if (acc.core(c).kind() == hardware::CoreKind::Compute) cores.push_back(c);
    if (cores.empty())
      throw Error("no compute core can run node '" + n.name + "' (" + n.type + ")", Location{"", 0, 0, n.name, ""});
    auto& nm = m.nodes[i];
    if (cores.size() > 1) {
      const auto sizes = group.loop_sizes(i);
      const auto kinds = iterator_kinds(n);
      std::vector<int> dims;
      for (int d = 0; d < n.num_dims(); ++d) {
        const bool nonlinear = n.kind == NodeKind::Normalization &&
                               std::find(n.reduction_axes.begin(), n.reduction_axes.end(), d) != n.reduction_axes.end();
        if (kinds[static_cast<std::size_t>(d)] == IteratorKind::Sequential || nonlinear) continue;
        dims.push_back(d);
      }
      std::stable_sort(dims.begin(), dims.end(), [&](int a, int b) {
        const bool pa = kinds[static_cast<std::size_t>(a)] == IteratorKind::Parallel;
        const bool pb = kinds[static_cast<std::size_t>(b)] == IteratorKind::Parallel;
        if (pa != pb) return pa;
        return sizes[static_cast<std::size_t>(a)] > sizes[static_cast<std::size_t>(b)];
      });
      std::int64_t remaining = static_cast<std::int64_t>(cores.size());
      std::int64_t prod = 1;
      for (int d : dims) {
        if (remaining == 1) break;
        const std::int64_t f = std::gcd(remaining, sizes[static_cast<std::size_t>(d)]);
        if (f > 1) {
          nm.inter_core_tiling.emplace_back(d, f);
          remaining /= f;
          prod *= f;
        }
      }
      if (prod < static_cast<std::int64_t>(cores.size())) {
        std::vector<int> free;
        for (int c : cores)
          if (!used_by_group.count(c)) free.push_back(c);
        const auto& pool = static_cast<std::int64_t>(free.size()) >= prod ? free : cores;
        cores.assign(pool.begin(), pool.begin() + prod);
      }
    }
    nm.cores = cores;
    used_by_group.insert(cores.begin(), cores.end());
  }
  for (const auto& t : user_tiling) {
    bool known = false;
    for (std::size_t i : group.computation_nodes()) known |= group.node(i).name == t.node;
    if (known) m.intra_core_tiling.push_back(t);
  }
  if (m.intra_core_tiling.empty()) {
    const auto comp = group.computation_nodes();
    // Whole-layer tile: one steady-state iteration (first node in dataflow order, D0).
    std::size_t first = comp.front();
    for (std::size_t i : group.dataflow_order())
      if (group.node(i).has_iteration_space()) {
        first = i;
        break;
      }
    std::int64_t unroll = 1;
    for (const auto& [d, f] : m.nodes[first].inter_core_tiling)
      if (d == 0) unroll = f;
    m.intra_core_tiling.push_back({group.node(first).name, 0, group.loop_sizes(first).at(0) / unroll});
  }
  return m;
}

tiling::GroupMapping read_mapping(const std::filesystem::path& file, const Workload& group,
                                  const hardware::Accelerator& acc) {
  YAML::Node root;
  try {
    root = YAML::LoadFile(file.string());
  } catch (const YAML::Exception& e) {
    throw Error(std::string("cannot read mapping: ") + e.what(), Location{file.string(), e.mark.line + 1, e.mark.column + 1, "", ""});
  }
  auto where = [&](const YAML::Node& n) { return Location{file.string(), n.Mark().line + 1, n.Mark().column + 1, "", ""}; };
  YAML::Node layers;
  if (root.IsSequence())
    layers = root;
  else if (root.IsMap()) {
    if (!root["layers"]) throw Error("Mapping file must contain a 'layers' entry.", where(root));
    layers = root["layers"];
  } else {
    throw Error("Mapping file must be a mapping with a top-level 'layers' list.", Location{file.string(), 1, 1, "", ""});
  }
  tiling::GroupMapping m;
  m.nodes.resize(group.size());
  for (std::size_t i : group.computation_nodes()) {
    const Node& n = group.node(i);
    bool found = false;
    for (const auto& entry : layers) {
      const auto name = entry["name"].as<std::string>("");
      if (name != n.name && name != n.type) continue;
      found = true;
      const auto alloc = entry["core_allocation"];
      if (!alloc || !alloc.IsSequence() || alloc.size() != 1)
        throw Error("layer '" + name + "': core_allocation must hold exactly one core group", where(entry));
      for (const auto& c : alloc[0]) {
        const int id = c.as<int>();
        (void)acc.core(id);
        m.nodes[i].cores.push_back(id);
      }
      if (const auto ict = entry["inter_core_tiling"]; ict && ict.size() > 0) {
        for (const auto& s : ict[0]) {
          const int d = parse_dim(s["dim"].as<std::string>(), where(s));
          const auto f = s["split"].as<std::int64_t>();
          if (f <= 0) throw Error("Layer '" + name + "' split must be a positive integer; got " + std::to_string(f) + ".", where(s));
          m.nodes[i].inter_core_tiling.emplace_back(d, f);
        }
      }
      break;
    }
    if (!found) throw Error("No mapping data found for node " + n.name, Location{file.string(), 0, 0, n.name, ""});
  }
  if (root.IsMap() && root["fused_groups"])
    for (const auto& fg : root["fused_groups"])
      for (const auto& t : fg["intra_core_tiling"]) {
        const auto dim = t["dim"].as<std::string>();
        const auto dot = dim.rfind('.');
        if (dot == std::string::npos) throw Error("intra_core_tiling dim '" + dim + "' is not Node.D<n>", where(t));
        tiling::IntraCoreTile it{dim.substr(0, dot), parse_dim(dim.substr(dot + 1), where(t)), t["tile"].as<std::int64_t>()};
        if (it.tile <= 0) throw Error("Fused group tile must be a positive integer; got " + std::to_string(it.tile) + ".", where(t));
        m.intra_core_tiling.push_back(it);
      }
  if (m.intra_core_tiling.empty()) m = [&] {
    auto a = automatic_mapping(group, acc);
    a.nodes = m.nodes;
    std::int64_t unroll = 1;
    const std::size_t first = group.index_of(a.intra_core_tiling.front().node);
    for (const auto& [d, f] : m.nodes[first].inter_core_tiling)
      if (d == 0) unroll = f;
    a.intra_core_tiling.front().tile = group.loop_sizes(first).at(0) / unroll;
    return a;
  }();
  return m;
}

std::string mapping_yaml(const Workload& group, const tiling::GroupMapping& m) {
  YAML::Emitter out;
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

}  // namespace stream::pipeline
