#include "array_expansion.hpp"

#include <optional>
#include <string>

namespace stream::hardware::detail {

namespace {

constexpr std::int64_t kMaxArrayCores = 4096;  // a quick bound; the exact one is directed_pairs

struct ArraySpec {
  YAML::Node core, offchip, link_bandwidth, bus_bandwidth;
  std::int64_t count = 0, columns = 0;
  bool mesh = true;
};

// The directed core pairs generate() lists, counted as the reader counts them (a connection of k
// cores k(k-1)): the bus over the cores and the off-chip core, then each mesh link twice.
std::uint64_t directed_pairs(const ArraySpec& s) {
  const auto n = static_cast<std::uint64_t>(s.count), cols = static_cast<std::uint64_t>(s.columns);
  std::uint64_t pairs = (n + 1) * n;
  if (s.mesh)
    for (std::uint64_t i = 0; i < n; ++i) pairs += (i % cols + 1 < cols && i + 1 < n ? 2 : 0) + (i + cols < n ? 2 : 0);
  return pairs;
}

std::int64_t square_columns(std::int64_t count) {
  std::int64_t c = 1;
  while (c * c < count) ++c;
  return c;
}

// A bandwidth as written (its node, so the reader keeps its type and place), checked positive.
std::optional<YAML::Node> bandwidth(yamlx::MapReader& r, const char* key, bool required) {
  auto n = r.node(key, required);
  if (!n) return std::nullopt;
  const auto v = r.number(key, true, 0.0);
  if (!v) return std::nullopt;
  if (*v <= 0) {
    r.error(key, std::string(key) + " must be positive");
    return std::nullopt;
  }
  return n;
}

std::optional<ArraySpec> read_spec(const yamlx::Ctx& ctx, const YAML::Node& node) {
  yamlx::MapReader r(ctx, node, "array");
  if (!r.ok()) return std::nullopt;
  const auto errors = ctx.diag.error_count();
  r.reject_unknown({"core", "count", "columns", "topology", "link_bandwidth", "offchip", "bus_bandwidth"});
  ArraySpec s;
  if (auto n = r.node("core", true)) s.core = *n;
  if (auto n = r.node("offchip", true)) s.offchip = *n;
  if (auto v = r.integer("count", true, 1)) {
    if (*v > kMaxArrayCores) r.error("count", "count must be at most " + std::to_string(kMaxArrayCores));
    s.count = *v;
  }
  s.columns = square_columns(s.count);
  if (auto v = r.integer("columns", false, 1)) s.columns = *v;
  if (auto t = r.text("topology", false)) {
    if (*t != "mesh" && *t != "bus") r.error("topology", "topology must be mesh or bus, got '" + *t + "'");
    s.mesh = *t == "mesh";
  }
  // Before anything is generated: the reader would refuse the expanded file only after building it.
  if (ctx.diag.error_count() == errors && directed_pairs(s) > kMaxDirectedPairs)
    r.error("count", "an array of " + std::to_string(s.count) + " cores (" + (s.mesh ? "mesh" : "bus") + ") lists " +
                         std::to_string(directed_pairs(s)) + " directed core pairs (the bus over every core and the "
                         "off-chip core, and each link both ways); at most " + std::to_string(kMaxDirectedPairs) +
                         " can be routed");
  const bool links = s.mesh && s.count > 1;
  if (auto n = bandwidth(r, "link_bandwidth", links)) s.link_bandwidth = *n;
  if (auto n = bandwidth(r, "bus_bandwidth", true)) s.bus_bandwidth = *n;
  if (ctx.diag.error_count() != errors) return std::nullopt;
  return s;
}

YAML::Node connection(const char* type, std::vector<std::int64_t> cores, const YAML::Node& bandwidth) {
  YAML::Node c;
  c["type"] = type;
  for (auto id : cores) c["cores"].push_back(id);
  c["cores"].SetStyle(YAML::EmitterStyle::Flow);
  c["bandwidth"] = bandwidth;
  return c;
}

YAML::Node coordinate(std::int64_t col, std::int64_t row) {
  YAML::Node c;
  c.push_back(col);
  c.push_back(row);
  return c;
}

// Writes the cores, coordinates and connectivity of `s` into `out`.
void generate(const ArraySpec& s, YAML::Node& out) {
  const std::int64_t n = s.count, cols = s.columns, rows = (n + cols - 1) / cols;
  // Ids as text keys: yaml-cpp turns a null node indexed by 0, 1, ... into a sequence.
  for (std::int64_t i = 0; i < n; ++i) {
    out["cores"][std::to_string(i)] = s.core;
    out["core_coordinates"][std::to_string(i)] = coordinate(i % cols, i / cols);
  }
  out["cores"][std::to_string(n)] = s.offchip;
  out["core_coordinates"][std::to_string(n)] = coordinate(0, rows);
  out["offchip_core_id"] = n;
  // The bus first: a later connection takes over the pairs it shares, so neighbours keep their
  // link and every other pair (the off-chip core's among them) shares the bus.
  YAML::Node connectivity(YAML::NodeType::Sequence);
  std::vector<std::int64_t> all;
  for (std::int64_t i = 0; i <= n; ++i) all.push_back(i);
  connectivity.push_back(connection("bus", all, s.bus_bandwidth));
  if (s.mesh)
    for (std::int64_t i = 0; i < n; ++i) {
      if (i % cols + 1 < cols && i + 1 < n) connectivity.push_back(connection("link", {i, i + 1}, s.link_bandwidth));
      if (i + cols < n) connectivity.push_back(connection("link", {i, i + cols}, s.link_bandwidth));
    }
  out["core_connectivity"] = connectivity;
}

}  // namespace

bool has_array(const YAML::Node& root) {
  if (!root.IsMap()) return false;
  const YAML::Node array = root["array"];
  return array && array.IsMap();
}

std::vector<YAML::Node> core_references(const YAML::Node& root) {
  const bool array = has_array(root);
  const YAML::Node table = root.IsMap() ? root[array ? "array" : "cores"] : YAML::Node();
  std::vector<YAML::Node> out;
  if (!table || !table.IsMap()) return out;
  for (auto it = table.begin(); it != table.end(); ++it)
    if (it->second.IsScalar() && (!array || it->first.Scalar() == "core" || it->first.Scalar() == "offchip"))
      out.push_back(it->second);
  return out;
}

YAML::Node expand_array(const YAML::Node& root, const yamlx::Ctx& ctx) {
  if (!root.IsMap() || !root["array"]) return root;
  bool clash = false;
  for (const char* key : {"cores", "offchip_core_id", "core_connectivity", "core_coordinates"})
    if (root[key]) {
      ctx.diag.error(yamlx::loc(ctx, root[key]), std::string("`") + key + "` cannot be given with `array`, which generates it");
      clash = true;
    }
  const auto spec = read_spec(ctx, root["array"]);
  if (!spec || clash) return root;
  YAML::Node out;
  for (auto it = root.begin(); it != root.end(); ++it)
    if (it->first.Scalar() != "array") out[it->first] = it->second;
  generate(*spec, out);
  return out;
}

}  // namespace stream::hardware::detail
