#include "stream/mapping/mapping.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <set>

#include "stream/hardware/accelerator.hpp"
#include "stream/ir/checked.hpp"
#include "stream/ir/iteration_space.hpp"
#include "stream/ir/workload.hpp"
#include "stream/io/file_output.hpp"
#include "stream/yaml/yaml_reader.hpp"

namespace stream::mapping {

namespace {

using yamlx::Ctx;
using yamlx::MapReader;

const std::vector<int> kNoCores;
const std::vector<DimSplit> kNoSplits;

bool all_digits(std::string_view s) {
  return !s.empty() && s.size() <= 6 &&
         std::all_of(s.begin(), s.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; });
}

/// "D<n>" -> n.
std::optional<int> parse_layer_dim(std::string_view s) {
  if (s.size() < 2 || s[0] != 'D' || !all_digits(s.substr(1))) return std::nullopt;
  return std::stoi(std::string(s.substr(1)));
}

/// "<Node>.D<n>" -> (Node, n); the node name may itself contain dots.
std::optional<std::pair<std::string, int>> parse_node_dim(std::string_view s) {
  const auto dot = s.rfind(".D");
  if (dot == std::string_view::npos || dot == 0) return std::nullopt;
  auto d = parse_layer_dim(s.substr(dot + 1));
  if (!d) return std::nullopt;
  return std::make_pair(std::string(s.substr(0, dot)), *d);
}

std::string scalar_text(const YAML::Node& n) {
  if (yamlx::is_null(n)) return "None";
  if (n.IsScalar()) return n.Scalar();
  return yamlx::describe(n);
}

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& s : items) out += (out.empty() ? "" : ", ") + s;
  return out;
}

struct Reader {
  const Ctx& ctx;
  Mapping m;

  // One entry of layers: its name, then core_allocation, inter_core_tiling and kernel (a step each).
  void read_layer(const YAML::Node& node, std::size_t index) {
    MapReader r(ctx, node, "layers[" + std::to_string(index) + "]");
    if (!r.ok()) return;
    LayerMapping layer;
    layer.where = r.where();
    if (auto n = r.text("name", true)) {
      layer.name = *n;
      r.set_what("layer '" + *n + "'");
    }
    r.reject_unknown({"name", "core_allocation", "inter_core_tiling", "kernel"});
    if (auto ca = r.node("core_allocation", true)) read_core_allocation(r, *ca, layer);
    if (auto it = r.node("inter_core_tiling", false); it && !yamlx::is_null(*it)) read_inter_core_tiling(r, *it, layer);
    if (auto k = r.node("kernel", false); k && !yamlx::is_null(*k)) read_kernel(r, *k, layer);
    m.layers.push_back(std::move(layer));
  }

  // core_allocation: a list of core groups, each a list of core ids; exactly one group is supported.
  void read_core_allocation(MapReader& r, const YAML::Node& ca, LayerMapping& layer) {
    const std::string shape = "'core_allocation' must be a list of core groups (lists of core ids), e.g. [[0, 1, 2, 3]]";
    if (!ca.IsSequence()) {
      r.error("core_allocation", shape + ", got " + yamlx::describe(ca));
      return;
    }
    bool good = true;
    for (const auto& group : ca) {
      if (!group.IsSequence()) {
        ctx.diag.error(yamlx::loc(ctx, group), r.what() + ": " + shape + "; got the entry " + yamlx::describe(group));
        good = false;
        break;
      }
      layer.core_allocation.push_back(read_core_group(r, group, good));
    }
    if (good && layer.core_allocation.size() != 1)
      r.error("core_allocation", "exactly one core group is supported (got " + std::to_string(layer.core_allocation.size()) +
                                     "); write [[...]]");
  }

  // One core group's ids; a bad id or an empty group records an error and clears `good`.
  std::vector<int> read_core_group(const MapReader& r, const YAML::Node& group, bool& good) {
    std::vector<int> ids;
    for (const auto& id : group) {
      auto v = yamlx::to_int(id);
      if (!v || *v < 0 || *v > 1'000'000) {
        ctx.diag.error(yamlx::loc(ctx, id), r.what() + ": core ids must be integers >= 0, got " + yamlx::describe(id));
        good = false;
        continue;
      }
      ids.push_back(static_cast<int>(*v));
    }
    if (ids.empty() && group.size() == 0) {
      ctx.diag.error(yamlx::loc(ctx, group), r.what() + ": a core group must list at least one core");
      good = false;
    }
    return ids;
  }

  // inter_core_tiling: one list of {dim, split} per core group, all equal.
  void read_inter_core_tiling(MapReader& r, const YAML::Node& it, LayerMapping& layer) {
    const std::string shape = "'inter_core_tiling' must be a list of lists of {dim: D<n>, split: <int>}";
    if (!it.IsSequence()) {
      r.error("inter_core_tiling", shape + ", got " + yamlx::describe(it));
      return;
    }
    for (const auto& inner : it) {
      if (!inner.IsSequence()) {
        ctx.diag.error(yamlx::loc(ctx, inner), r.what() + ": " + shape + "; got the entry " + yamlx::describe(inner));
        continue;
      }
      std::vector<DimSplit> splits;
      for (const auto& entry : inner)
        if (auto s = read_dim_split(r, entry, layer.name)) splits.push_back(*s);
      layer.inter_core_tiling.push_back(std::move(splits));
    }
    for (std::size_t k = 1; k < layer.inter_core_tiling.size(); ++k)
      if (layer.inter_core_tiling[k] != layer.inter_core_tiling[0]) {
        r.error("inter_core_tiling", "all inter_core_tiling lists must be equal (one per core group)");
        break;
      }
  }

  // One {dim: D<n>, split: <int>} entry; nullopt (with the errors recorded) when either is bad.
  std::optional<DimSplit> read_dim_split(const MapReader& r, const YAML::Node& entry, const std::string& label) {
    MapReader e(ctx, entry, r.what() + ", inter_core_tiling entry");
    if (!e.ok()) return std::nullopt;
    e.reject_unknown({"dim", "split"});
    DimSplit s;
    bool good = true;
    if (auto d = e.text("dim", true)) {
      if (auto n = parse_layer_dim(*d)) s.dim = *n;
      else {
        e.error("dim", "dim must be D<n> (the node's n-th loop dimension), got '" + *d + "'");
        good = false;
      }
    } else {
      good = false;
    }
    if (auto sn = e.node("split", true)) {
      auto v = yamlx::to_int(*sn);
      if (!v || *v <= 0) {
        ctx.diag.error(yamlx::loc(ctx, *sn),
                       "Layer '" + label + "' split must be a positive integer; got " + scalar_text(*sn) + ".");
        good = false;
      } else {
        s.split = *v;
      }
    } else {
      good = false;
    }
    if (!good) return std::nullopt;
    return s;
  }

  // kernel: {name, kwargs}; the name defaults to the layer's, kwargs.utilization must be a number.
  void read_kernel(const MapReader& r, const YAML::Node& k, LayerMapping& layer) {
    MapReader kr(ctx, k, r.what() + ", kernel");
    if (!kr.ok()) return;
    kr.reject_unknown({"name", "kwargs"});
    Kernel kernel;
    kernel.name = layer.name;
    if (auto n = kr.text("name", false)) kernel.name = *n;
    if (auto kw = kr.node("kwargs", false); kw && !yamlx::is_null(*kw)) {
      MapReader kwr(ctx, *kw, r.what() + ", kernel kwargs");
      if (kwr.ok())
        for (const auto& e : kwr.items()) {
          kernel.kwargs.emplace_back(e.key, scalar_text(e.value));
          if (e.key != "utilization") continue;
          if (auto u = yamlx::to_number(e.value)) kernel.utilization = *u;
          else
            ctx.diag.error(yamlx::loc(ctx, e.value),
                           r.what() + ": kernel utilization must be a number, got " + yamlx::describe(e.value));
        }
    }
    layer.kernel = std::move(kernel);
  }

  void read_group(const YAML::Node& node, std::size_t index) {
    MapReader r(ctx, node, "fused_groups[" + std::to_string(index) + "]");
    if (!r.ok()) return;
    FusedGroup g;
    g.where = r.where();
    if (auto n = r.text("name", true)) {
      g.name = *n;
      r.set_what("fused group '" + *n + "'");
    }
    r.reject_unknown({"name", "layers", "intra_core_tiling"});
    if (auto layers = r.text_list("layers", true)) {
      g.layers = *layers;
      std::vector<std::string> unknown;
      for (const auto& l : g.layers)
        if (std::none_of(m.layers.begin(), m.layers.end(), [&](const LayerMapping& e) { return e.name == l; }))
          unknown.push_back("'" + l + "'");
      if (!unknown.empty())
        r.error("layers", "Fused group '" + g.name + "' references unknown layers [" + join(unknown) + "]");
    }
    if (auto t = r.node("intra_core_tiling", false); t && !yamlx::is_null(*t)) {
      if (!t->IsSequence()) {
        r.error("intra_core_tiling", "'intra_core_tiling' must be a list of {dim: <Node>.D<n>, tile: <int>}, got " +
                                         yamlx::describe(*t));
      } else {
        for (const auto& entry : *t) {
          MapReader e(ctx, entry, r.what() + ", intra_core_tiling entry");
          if (!e.ok()) continue;
          e.reject_unknown({"dim", "tile"});
          TileEntry te;
          bool good = true;
          if (auto d = e.text("dim", true)) {
            if (auto nd = parse_node_dim(*d)) {
              te.node = nd->first;
              te.dim = nd->second;
            } else {
              e.error("dim", "dim must be <Node>.D<n> (node name, then its n-th loop dimension), got '" + *d + "'");
              good = false;
            }
          } else {
            good = false;
          }
          if (auto tn = e.node("tile", true)) {
            auto v = yamlx::to_int(*tn);
            if (!v || *v <= 0) {
              ctx.diag.error(yamlx::loc(ctx, *tn), "Fused group '" + g.name + "' tile must be a positive integer; got " +
                                                       scalar_text(*tn) + ".");
              good = false;
            } else {
              te.tile = *v;
            }
          } else {
            good = false;
          }
          if (good) g.intra_core_tiling.push_back(std::move(te));
        }
      }
    }
    m.fused_groups.push_back(std::move(g));
  }

  void read_runtime_args(const YAML::Node& node) {
    if (yamlx::is_null(node)) return;
    MapReader r(ctx, node, "runtime_args");
    if (!r.ok()) return;
    for (const auto& e : r.items()) {
      RuntimeArg a{e.key, std::nullopt};
      if (e.value.IsMap())
        for (auto it = e.value.begin(); it != e.value.end(); ++it)
          if (it->first.IsScalar() && it->first.Scalar() == "layout" && it->second.IsScalar())
            a.layout = it->second.Scalar();
      m.runtime_args.push_back(std::move(a));
    }
  }

  void read_layers(const YAML::Node& layers) {
    std::size_t i = 0;
    for (const auto& item : layers) read_layer(item, i++);
  }

  void read(const YAML::Node& root) {
    if (root.IsSequence()) {
      m.bare_list = true;
      read_layers(root);
      return;
    }
    if (!root.IsMap()) {
      ctx.diag.error(yamlx::loc(ctx, root), "Mapping file must be a mapping with a top-level 'layers' list.");
      return;
    }
    MapReader top(ctx, root, "mapping");
    const yamlx::Entry* layers = top.find("layers");
    if (layers == nullptr) {
      ctx.diag.error(top.where(), "Mapping file must contain a 'layers' entry.");
      return;
    }
    top.reject_unknown({"layers", "fused_groups", "runtime_args", "workload"});
    if (auto w = top.text("workload", false)) {
      if (*w == "automatic-path") m.workload = MappedWorkload::AutomaticPath;
      else if (*w != "as-loaded")
        top.error("workload", "'workload' must be as-loaded or automatic-path, got '" + *w + "'");
    }
    if (!layers->value.IsSequence()) {
      top.error("layers", "'layers' must be a list of layer entries, got " + yamlx::describe(layers->value));
    } else {
      read_layers(layers->value);
    }
    if (auto groups = top.node("fused_groups", false); groups && !yamlx::is_null(*groups)) {
      if (!groups->IsSequence()) {
        top.error("fused_groups", "'fused_groups' must be a list, got " + yamlx::describe(*groups));
      } else {
        std::size_t i = 0;
        for (const auto& g : *groups) read_group(g, i++);
      }
    }
    if (auto ra = top.node("runtime_args", false)) read_runtime_args(*ra);
  }
};

std::optional<Mapping> read_impl(const std::string& text, const std::string& label, Diagnostics& diag) {
  Diagnostics local;
  Ctx ctx{label, local};
  std::optional<Mapping> result;
  try {
    if (auto root = yamlx::parse(text, ctx)) {
      Reader reader{ctx, {}};
      reader.m.source_file = label;
      reader.read(*root);
      if (!local.has_errors()) {
        result = std::move(reader.m);
        result->warnings = local.warnings();
      }
    }
  } catch (const YAML::Exception& e) {
    local.error(file_location(label), std::string("YAML error: ") + e.what());
    result.reset();
  }
  diag.merge(local);
  return result;
}

}  // namespace

const std::vector<int>& LayerMapping::cores() const { return core_allocation.empty() ? kNoCores : core_allocation.front(); }

const std::vector<DimSplit>& LayerMapping::splits() const {
  return inter_core_tiling.empty() ? kNoSplits : inter_core_tiling.front();
}

std::int64_t LayerMapping::total_split() const {
  std::int64_t p = 1;
  for (const auto& s : splits()) p = checked_mul(p, s.split, [&] { return "layer '" + name + "' (product of its splits)"; });
  return p;
}

std::string TileEntry::dim_text() const { return node + ".D" + std::to_string(dim); }

const LayerMapping* Mapping::find(const Node& node) const { return LayerLookup(*this).find(node); }

const LayerMapping& Mapping::for_node(const Node& node) const { return LayerLookup(*this).for_node(node); }

LayerLookup::LayerLookup(const Mapping& mapping) : mapping_(mapping) {
  for (std::size_t i = 0; i < mapping.layers.size(); ++i) first_.try_emplace(mapping.layers[i].name, i);
}

const LayerMapping* LayerLookup::find(const Node& node) const {
  std::size_t best = mapping_.layers.size();
  for (const std::string* key : {&node.name, &node.type})
    if (auto it = first_.find(*key); it != first_.end()) best = std::min(best, it->second);
  return best < mapping_.layers.size() ? &mapping_.layers[best] : nullptr;
}

const LayerMapping& LayerLookup::for_node(const Node& node) const {
  if (const LayerMapping* l = find(node)) return *l;
  throw Error("No mapping data found for node '" + node.name + "' (type " + node.type +
                  "): add a layer entry named after the node or its op type",
              file_location(mapping_.source_file));
}

std::optional<Mapping> read_mapping_file(const std::filesystem::path& path, Diagnostics& diagnostics) {
  const std::string label = path.string();
  auto text = yamlx::read_text(path, label, diagnostics);
  if (!text) return std::nullopt;
  return read_impl(*text, label, diagnostics);
}

Mapping load_mapping_file(const std::filesystem::path& path, Diagnostics* diagnostics) {
  Diagnostics local;
  auto m = read_mapping_file(path, local);
  if (diagnostics) diagnostics->merge(local);
  local.throw_if_errors("invalid mapping file", path.string());
  return std::move(*m);
}

Mapping parse_mapping_text(const std::string& text, const std::string& file_label, Diagnostics* diagnostics) {
  Diagnostics local;
  auto m = read_impl(text, file_label, local);
  if (diagnostics) diagnostics->merge(local);
  local.throw_if_errors("invalid mapping file", file_label);
  return std::move(*m);
}

void check_mapping_cores(const Mapping& mapping, const hardware::Accelerator& accelerator, Diagnostics& diagnostics) {
  const Location file = file_location(mapping.source_file);
  for (const auto& entry : mapping.layers) {
    const Location where = entry.where.file.empty() ? file : entry.where;
    const std::string who = "layer '" + entry.name + "'";
    for (int id : entry.cores()) {
      if (id < 0 || static_cast<std::size_t>(id) >= accelerator.size()) {
        diagnostics.error(where, who + ": core " + std::to_string(id) + " does not exist (the accelerator has " +
                                     std::to_string(accelerator.size()) + " cores)");
        continue;
      }
      const auto& core = accelerator.core(id);
      if (core.kind() != hardware::CoreKind::Compute)
        diagnostics.error(where, who + ": core " + std::to_string(id) + " (" + std::string(name(core.kind())) +
                                     ") cannot run computations");
    }
  }
}

void check_mapping(const Mapping& mapping, const Workload& workload, const hardware::Accelerator& accelerator,
                   Diagnostics& diagnostics) {
  check_mapping_cores(mapping, accelerator, diagnostics);
  const Location file = file_location(mapping.source_file);
  std::set<const LayerMapping*> used;
  const LayerLookup lookup(mapping);
  for (std::size_t index : workload.computation_nodes()) {
    const Node& node = workload.node(index);
    const LayerMapping* entry = lookup.find(node);
    if (entry == nullptr) {
      diagnostics.error(file, "No mapping data found for node '" + node.name + "' (type " + node.type +
                                  "): add a layer entry named after the node or its op type");
      continue;
    }
    const Location where = entry->where.file.empty() ? file : entry->where;
    const std::string who = "layer '" + entry->name + "' (node '" + node.name + "')";
    const bool first_use = used.insert(entry).second;
    const int num_dims = node.num_dims();
    std::vector<std::int64_t> sizes;
    try {
      sizes = loop_sizes(node);
    } catch (const Error&) {
      sizes.clear();
    }
    for (const auto& s : entry->splits()) {
      if (s.dim >= num_dims) {
        diagnostics.error(where, who + ": D" + std::to_string(s.dim) + " does not exist; the node has " +
                                     std::to_string(num_dims) + " loop dims (D0..D" + std::to_string(num_dims - 1) + ")");
        continue;
      }
      // More parts than iterations leaves cores with empty tiles, and a split such as 2^31
      // drove the tiler into billions of parts: an error, not a warning.
      if (static_cast<std::size_t>(s.dim) < sizes.size() && s.split > sizes[static_cast<std::size_t>(s.dim)])
        diagnostics.error(where, who + ": split " + std::to_string(s.split) + " of D" + std::to_string(s.dim) +
                                     " exceeds its size " + std::to_string(sizes[static_cast<std::size_t>(s.dim)]) +
                                     " (a split is at most the dimension's size)");
    }
    if (first_use && !entry->splits().empty() && entry->total_split() != static_cast<std::int64_t>(entry->cores().size()))
      diagnostics.warning(where, "layer '" + entry->name + "': the splits multiply to " +
                                     std::to_string(entry->total_split()) + " but the core group has " +
                                     std::to_string(entry->cores().size()) + " cores");
  }
  for (const auto& g : mapping.fused_groups) {
    const Location where = g.where.file.empty() ? file : g.where;
    for (const auto& t : g.intra_core_tiling) {
      std::size_t index = Workload::npos;
      for (std::size_t i = 0; i < workload.size(); ++i)
        if (workload.node(i).name == t.node) index = i;
      if (index == Workload::npos) {
        diagnostics.error(where, "fused group '" + g.name + "': '" + t.dim_text() + "' names node '" + t.node +
                                     "', which is not in the workload");
        continue;
      }
      const Node& node = workload.node(index);
      if (!node.has_iteration_space() || t.dim >= node.num_dims())
        diagnostics.error(where, "fused group '" + g.name + "': '" + t.dim_text() + "' does not exist; node '" +
                                     t.node + "' has " + std::to_string(node.num_dims()) + " loop dims");
    }
  }
}

std::string to_yaml(const Mapping& mapping) {
  YAML::Emitter out;
  out << YAML::BeginMap;
  out << YAML::Key << "layers" << YAML::Value << YAML::BeginSeq;
  for (const auto& l : mapping.layers) {
    out << YAML::BeginMap;
    out << YAML::Key << "name" << YAML::Value << l.name;
    out << YAML::Key << "core_allocation" << YAML::Value << YAML::Flow << YAML::BeginSeq;
    for (const auto& g : l.core_allocation) {
      out << YAML::Flow << YAML::BeginSeq;
      for (int id : g) out << id;
      out << YAML::EndSeq;
    }
    out << YAML::EndSeq;
    if (!l.inter_core_tiling.empty()) {
      out << YAML::Key << "inter_core_tiling" << YAML::Value << YAML::BeginSeq;
      for (const auto& inner : l.inter_core_tiling) {
        out << YAML::BeginSeq;
        for (const auto& s : inner)
          out << YAML::Flow << YAML::BeginMap << YAML::Key << "dim" << YAML::Value << ("D" + std::to_string(s.dim))
              << YAML::Key << "split" << YAML::Value << s.split << YAML::EndMap;
        out << YAML::EndSeq;
      }
      out << YAML::EndSeq;
    }
    if (l.kernel) {
      out << YAML::Key << "kernel" << YAML::Value << YAML::BeginMap;
      out << YAML::Key << "name" << YAML::Value << l.kernel->name;
      out << YAML::Key << "kwargs" << YAML::Value << YAML::Flow << YAML::BeginMap;
      for (const auto& [k, v] : l.kernel->kwargs) out << YAML::Key << k << YAML::Value << v;
      out << YAML::EndMap << YAML::EndMap;
    }
    out << YAML::EndMap;
  }
  out << YAML::EndSeq;
  if (!mapping.fused_groups.empty()) {
    out << YAML::Key << "fused_groups" << YAML::Value << YAML::BeginSeq;
    for (const auto& g : mapping.fused_groups) {
      out << YAML::BeginMap;
      out << YAML::Key << "name" << YAML::Value << g.name;
      out << YAML::Key << "layers" << YAML::Value << YAML::BeginSeq;
      for (const auto& l : g.layers) out << l;
      out << YAML::EndSeq;
      out << YAML::Key << "intra_core_tiling" << YAML::Value << YAML::BeginSeq;
      for (const auto& t : g.intra_core_tiling)
        out << YAML::Flow << YAML::BeginMap << YAML::Key << "dim" << YAML::Value << t.dim_text() << YAML::Key << "tile"
            << YAML::Value << t.tile << YAML::EndMap;
      out << YAML::EndSeq;
      out << YAML::EndMap;
    }
    out << YAML::EndSeq;
  }
  if (mapping.workload == MappedWorkload::AutomaticPath) out << YAML::Key << "workload" << YAML::Value << "automatic-path";
  if (!mapping.runtime_args.empty()) {
    out << YAML::Key << "runtime_args" << YAML::Value << YAML::BeginMap;
    for (const auto& a : mapping.runtime_args) {
      out << YAML::Key << a.tensor << YAML::Value << YAML::Flow << YAML::BeginMap;
      if (a.layout) out << YAML::Key << "layout" << YAML::Value << *a.layout;
      out << YAML::EndMap;
    }
    out << YAML::EndMap;
  }
  out << YAML::EndMap;
  return std::string(out.c_str()) + "\n";
}

void write_mapping_file(const Mapping& mapping, const std::filesystem::path& path) {
  io::write_file(path, to_yaml(mapping));
}

std::vector<TileEntry> parse_tiling_spec(const std::string& text) {
  std::vector<TileEntry> out;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    const std::size_t comma = text.find(',', pos);
    std::string item = text.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
    item.erase(0, item.find_first_not_of(" \t"));
    item.erase(item.find_last_not_of(" \t") + 1);
    if (!item.empty()) {
      const std::size_t eq = item.rfind('=');
      auto nd = eq == std::string::npos ? std::nullopt : parse_node_dim(item.substr(0, eq));
      auto tile = eq == std::string::npos ? std::nullopt : yamlx::parse_int(item.substr(eq + 1));
      if (!nd || !tile || *tile <= 0)
        throw Error("intra-core tiling entry '" + item + "' is not <Node>.D<n>=<positive tile> (e.g. Gemm_Left.D1=128)");
      out.push_back(TileEntry{nd->first, nd->second, *tile});
    }
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
  return out;
}

}  // namespace stream::mapping
