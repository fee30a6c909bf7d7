#include "stream/pipeline/group_mapping.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <numeric>
#include <set>
#include <sstream>

#include "stream/error.hpp"
#include "stream/ir/dimensions.hpp"
#include "stream/ir/iteration_space.hpp"

namespace stream::pipeline {

namespace {

int parse_dim(const std::string& text, const Location& where) {
  if (text.size() < 2 || text[0] != 'D' ||
      !std::all_of(text.begin() + 1, text.end(), [](char c) { return c >= '0' && c <= '9'; }))
    throw Error("dimension '" + text + "' is not of the form D<n>", where);
  return std::stoi(text.substr(1));
}

// The capacity tiler (spec §3.2 step 4, CapacityTiler(fill_fraction=0.5, max 1024 tiles)): while
// some core's resident bits (every distinct tensor of the nodes it may run, at the resident dim
// sizes) exceed half its capacity, shrink the dim that lowers the worst overflow most to its next
// smaller divisor. Only dims that are parallel in every node using them are shrunk, so that every
// steady-state iteration produces finished outputs. Returns the tiles of shrunk dims (ascending
// unified dim), or nothing when everything fits.
std::vector<tiling::IntraCoreTile> capacity_refine(const Workload& w, const hardware::Accelerator& acc,
                                                   const std::vector<tiling::NodeMapping>& nodes) {
  const auto& ud = w.unified_dimensions();
  const std::size_t nz = ud.num_unique();
  std::vector<std::int64_t> unroll(nz, 1);
  std::vector<bool> parallel(nz, true), used(nz, false);
  std::vector<std::pair<std::size_t, int>> first_use(nz, {Workload::npos, 0});
  for (std::size_t i : w.dataflow_order()) {
    const Node& n = w.node(i);
    if (!n.has_iteration_space()) continue;
    const auto dims = ud.dims_of(i, n.num_dims());
    const auto kinds = iterator_kinds(n);
    for (int d = 0; d < n.num_dims(); ++d) {
      const auto z = static_cast<std::size_t>(dims[static_cast<std::size_t>(d)]);
      used[z] = true;
      if (kinds[static_cast<std::size_t>(d)] != IteratorKind::Parallel) parallel[z] = false;
      if (first_use[z].first == Workload::npos) first_use[z] = {i, d};
    }
    for (const auto& [d, f] : nodes[i].inter_core_tiling) {
      const auto z = static_cast<std::size_t>(dims.at(static_cast<std::size_t>(d)));
      unroll[z] = std::max(unroll[z], f);
    }
  }
  std::vector<std::int64_t> per_core(nz), resident(nz);
  for (std::size_t z = 0; z < nz; ++z) {
    per_core[z] = std::max<std::int64_t>(ud.dim_size[z] / unroll[z], 1);
    resident[z] = per_core[z];
  }
  std::set<int> cores;
  for (const auto& m : nodes) cores.insert(m.cores.begin(), m.cores.end());
  const auto tensors = w.tensors();
  auto worst_overflow = [&](const std::vector<std::int64_t>& r) {
    double worst = -1e300;
    for (int c : cores) {
      std::set<std::string> seen;
      double load = 0;
      for (std::size_t i : w.computation_nodes()) {
        if (std::find(nodes[i].cores.begin(), nodes[i].cores.end(), c) == nodes[i].cores.end()) continue;
        const Node& n = w.node(i);
        // One steady-state iteration spans resident x unroll; this node's core holds its own
        // share of that (divided by its own split only).
        std::vector<std::int64_t> sz(nz);
        for (std::size_t z = 0; z < nz; ++z) sz[z] = r[z] * unroll[z];
        const auto dims = ud.dims_of(i, n.num_dims());
        for (const auto& [d, f] : nodes[i].inter_core_tiling) {
          auto& v = sz[static_cast<std::size_t>(dims.at(static_cast<std::size_t>(d)))];
          v = std::max<std::int64_t>(v / f, 1);
        }
        for (std::size_t op = 0; op < n.num_operands(); ++op) {
          const auto& t = n.operand(op);
          if (!seen.insert(t->name).second) continue;
          std::int64_t elems = 1;
          for (auto e : tiling::tiled_tensor_shape(w, *t, sz)) elems *= e;
          load += static_cast<double>(elems) * bits(t->dtype);
        }
      }
      worst = std::max(worst, load - 0.5 * static_cast<double>(acc.core(c).memory_capacity()));
    }
    return worst;
  };
  // A candidate must give a well-formed tiled workload (windowed reads may need more rows than a
  // producer tile has; such tilings are skipped).
  auto consistent = [&](const std::vector<std::int64_t>& r) {
    tiling::GroupMapping gm;
    gm.nodes = nodes;
    for (std::size_t z = 0; z < nz; ++z)
      if (r[z] < per_core[z]) gm.intra_core_tiling.push_back({w.node(first_use[z].first).name, first_use[z].second, r[z]});
    try {
      (void)tiling::tile(w, gm);
      return true;
    } catch (const Error&) {
      return false;
    }
  };
  double worst = worst_overflow(resident);
  if (worst <= 0) return {};
  while (worst > 0) {
    int best = -1;
    double best_worst = worst;
    std::vector<std::int64_t> best_r;
    for (std::size_t z = 0; z < nz; ++z) {
      if (!used[z] || !parallel[z] || resident[z] <= 1) continue;
      std::int64_t next = resident[z] - 1;
      while (next > 1 && per_core[z] % next != 0) --next;
      std::vector<std::int64_t> r = resident;
      r[z] = next;
      std::int64_t tiles = 1;
      for (std::size_t k = 0; k < nz; ++k) tiles *= per_core[k] / r[k];
      if (tiles > 1024) continue;
      if (!consistent(r)) continue;
      const double ow = worst_overflow(r);
      if (ow < best_worst) {
        best_worst = ow;
        best = static_cast<int>(z);
        best_r = r;
      }
    }
    if (best < 0) break;
    resident = best_r;
    worst = best_worst;
  }
  std::vector<tiling::IntraCoreTile> out;
  for (std::size_t z = 0; z < nz; ++z)
    if (resident[z] < per_core[z])
      out.push_back({w.node(first_use[z].first).name, first_use[z].second, resident[z]});
  return out;
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
    if (auto refined = capacity_refine(group, acc, m.nodes); !refined.empty()) m.intra_core_tiling = std::move(refined);
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
