#include "stream/hardware/accelerator_reader.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <set>

#include "accelerator_tree.hpp"
#include "array_expansion.hpp"
#include "core_reader_internal.hpp"
#include "stream/hardware/core_reader.hpp"
#include "stream/yaml/yaml_reader.hpp"

namespace stream::hardware {

namespace fs = std::filesystem;

namespace {

using detail::kMaxDirectedPairs;

/// ^(?:\./)?(?:[A-Za-z0-9_\-]+/)*[A-Za-z0-9_\-]+(?:\.ya?ml)?$
bool is_core_reference(std::string_view s) {
  if (s.substr(0, 2) == "./") s.remove_prefix(2);
  if (s.size() >= 5 && s.substr(s.size() - 5) == ".yaml") s.remove_suffix(5);
  else if (s.size() >= 4 && s.substr(s.size() - 4) == ".yml") s.remove_suffix(4);
  if (s.empty()) return false;
  std::size_t start = 0;
  while (true) {
    const std::size_t slash = s.find('/', start);
    const std::string_view part = s.substr(start, slash == std::string_view::npos ? std::string_view::npos : slash - start);
    if (part.empty()) return false;
    for (char c : part)
      if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-')) return false;
    if (slash == std::string_view::npos) return true;
    start = slash + 1;
  }
}

bool has_yaml_extension(const std::string& s) {
  return (s.size() >= 5 && s.compare(s.size() - 5, 5, ".yaml") == 0) ||
         (s.size() >= 4 && s.compare(s.size() - 4, 4, ".yml") == 0);
}

bool is_file(const fs::path& p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec);
}

/// Folders named like *hardware* under `root` (depth-limited, sorted for determinism).
void hardware_dirs(const fs::path& root, int depth, std::vector<fs::path>& out) {
  if (depth < 0) return;
  std::error_code ec;
  std::vector<fs::path> children;
  for (fs::directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code ec2;
    const std::string leaf = it->path().filename().string();
    if (leaf.empty() || leaf[0] == '.' || leaf == "build") continue;
    if (it->is_directory(ec2) && !it->is_symlink(ec2)) children.push_back(it->path());
  }
  std::sort(children.begin(), children.end());
  for (const auto& c : children) {
    if (c.filename().string().find("hardware") != std::string::npos) out.push_back(c);
    hardware_dirs(c, depth - 1, out);
  }
}

}  // namespace

std::optional<fs::path> resolve_core_reference(const std::string& reference, const fs::path& accelerator_dir,
                                               std::vector<fs::path>* searched, bool* by_search) {
  if (by_search) *by_search = false;
  std::vector<std::string> names{reference};
  if (!has_yaml_extension(reference)) {
    names.push_back(reference + ".yaml");
    names.push_back(reference + ".yml");
  }
  std::vector<fs::path> candidates;
  const bool has_slash = reference.find('/') != std::string::npos;
  for (const auto& n : names) {
    if (has_slash) {
      candidates.push_back(accelerator_dir / n);
      candidates.push_back(accelerator_dir / "cores" / n);
      if (fs::path(n).is_relative()) candidates.push_back(fs::path(n));  // the reference: relative to the CWD
    } else {
      candidates.push_back(accelerator_dir / "cores" / n);
      candidates.push_back(accelerator_dir / n);
    }
  }
  for (const auto& n : names) {
    const fs::path base = fs::path(n).filename();
    if (base.empty()) continue;
    candidates.push_back(accelerator_dir / base);
    candidates.push_back(accelerator_dir / "cores" / base);
  }
  std::vector<fs::path> tried;
  for (const auto& raw : candidates) {
    const fs::path c = raw.lexically_normal();
    if (std::find(tried.begin(), tried.end(), c) != tried.end()) continue;
    tried.push_back(c);
    if (searched) searched->push_back(c);
    if (is_file(c)) return c;
  }
  // Legacy walk (with a warning by the caller): *hardware* folders under the accelerator's
  // parent and grandparent (the reference walks its inputs root), nearest ancestor first.
  std::error_code ec;
  fs::path dir = fs::absolute(accelerator_dir, ec);
  if (ec) return std::nullopt;
  for (int up = 0; up < 2 && dir.has_parent_path() && dir.parent_path() != dir; ++up) {
    dir = dir.parent_path();
    if (dir == dir.root_path()) break;  // never scan a whole file system
    std::vector<fs::path> dirs;
    hardware_dirs(dir, 3, dirs);
    for (const auto& d : dirs)
      for (const auto& n : names) {
        const fs::path base = fs::path(n).filename();
        for (const fs::path& c : {d / base, d / "cores" / base}) {
          if (is_file(c)) {
            if (by_search) *by_search = true;
            return c.lexically_normal();
          }
        }
      }
    if (searched) searched->push_back(dir / "**" / "*hardware*");
  }
  return std::nullopt;
}

namespace {

using yamlx::Ctx;
using yamlx::MapReader;

struct CoreCache {
  std::map<std::string, std::optional<Core>> by_path;
};

std::string ids_text(const std::vector<int>& ids) {
  std::string out = "[";
  for (std::size_t i = 0; i < ids.size(); ++i) out += (i ? ", " : "") + std::to_string(ids[i]);
  return out + "]";
}

/// Reads an int list; errors recorded; nullopt when any entry was bad.
std::optional<std::vector<int>> int_list(const Ctx& ctx, const YAML::Node& n, const std::string& what) {
  if (!n.IsSequence()) {
    ctx.diag.error(yamlx::loc(ctx, n), what + " must be a list of core ids, got " + yamlx::describe(n));
    return std::nullopt;
  }
  std::vector<int> out;
  bool good = true;
  for (const auto& item : n) {
    auto v = yamlx::to_int(item);
    if (!v || *v < 0 || *v > 1'000'000) {
      ctx.diag.error(yamlx::loc(ctx, item), what + " entries must be core ids (integers >= 0), got " + yamlx::describe(item));
      good = false;
      continue;
    }
    out.push_back(static_cast<int>(*v));
  }
  if (!good) return std::nullopt;
  return out;
}

struct Reader {
  const Ctx& ctx;
  fs::path base_dir;
  Accelerator acc;
  std::map<int, Location> core_where;  // id -> location of its entry
  CoreCache cache;
  bool cores_ok = false;  ///< every core entry loaded
  std::set<std::string> warned_search;

  bool ids_known = true;  ///< false when a `cores` key was not an id: then do not cascade
  /// Declared in `cores` (whether or not its description loaded).
  bool known(int id) const { return !ids_known || core_where.count(id) > 0; }

  std::optional<Core> load_core_reference(const std::string& ref, const Location& where, int id) {
    std::vector<fs::path> searched;
    bool by_search = false;
    auto path = resolve_core_reference(ref, base_dir, &searched, &by_search);
    if (!path) {
      std::string looked;
      for (const auto& p : searched) looked += (looked.empty() ? "" : ", ") + p.string();
      ctx.diag.error(where, "Core with filename `" + ref + "` not found (core " + std::to_string(id) +
                                "). Looked in: " + looked);
      return std::nullopt;
    }
    if (by_search && warned_search.insert(ref).second)
      ctx.diag.warning(where, "core " + std::to_string(id) + " (and any other core naming it): `" + ref + "` is not next to the accelerator file; using " +
                                  path->string() + " found by searching the inputs tree (write the path explicitly)");
    const std::string key = path->string();
    auto it = cache.by_path.find(key);
    if (it == cache.by_path.end()) {
      Diagnostics local(ctx.diag.echoes_warnings());
      auto core = read_core_file(*path, local);
      ctx.diag.merge(local);
      it = cache.by_path.emplace(key, std::move(core)).first;
    }
    return it->second;
  }

  void read_cores(MapReader& top) {
    auto node = top.node("cores", true);
    if (!node) return;
    MapReader cores(ctx, *node, "cores");
    if (!cores.ok()) return;
    std::map<int, std::pair<const yamlx::Entry*, Location>> by_id;
    for (const auto& e : cores.items()) {
      auto id = yamlx::to_int(e.key_node);
      const Location where = yamlx::loc(ctx, e.key_node);
      if (!id || *id < 0 || *id > 1'000'000) {
        ctx.diag.error(where, "Invalid core id in `cores`: id is not a positive integer (got '" + e.key + "').");
        ids_known = false;
        continue;
      }
      if (by_id.count(static_cast<int>(*id))) {
        ctx.diag.warning(where, "core id " + std::to_string(*id) + " given twice in `cores`; the later entry wins");
      }
      by_id[static_cast<int>(*id)] = {&e, where};
      core_where[static_cast<int>(*id)] = where;
    }
    if (by_id.empty()) {
      cores.error("an accelerator needs at least one core");
      return;
    }
    const int n = static_cast<int>(by_id.size());
    std::vector<int> missing;
    for (int i = 0; i < n; ++i)
      if (!by_id.count(i)) missing.push_back(i);
    if (!missing.empty()) {
      ctx.diag.error(cores.where(), "Invalid core id in `cores`: not all core ids in range are in use (ids must be 0.." +
                                        std::to_string(n - 1) + "; missing " + ids_text(missing) + ").");
      return;
    }
    acc.cores.resize(static_cast<std::size_t>(n));
    std::vector<bool> good(static_cast<std::size_t>(n), false);
    for (const auto& [id, entry] : by_id) {
      const auto& e = entry.first;
      std::optional<Core> core;
      if (e->value.IsMap()) {
        core = detail::read_core_node(e->value, ctx, "core " + std::to_string(id));
      } else {
        auto ref = yamlx::to_text(e->value);
        if (!ref || yamlx::is_null(e->value)) {
          ctx.diag.error(yamlx::loc(ctx, e->value), "core " + std::to_string(id) +
                                                        ": must be a core file reference or an inline core, got " +
                                                        yamlx::describe(e->value));
          continue;
        }
        if (!is_core_reference(*ref)) {
          ctx.diag.error(yamlx::loc(ctx, e->value),
                         "core " + std::to_string(id) + ": core file reference '" + *ref +
                             "' is not a relative path of letters, digits, '_', '-' and '/' (optionally ./ and .yaml)");
          continue;
        }
        core = load_core_reference(*ref, yamlx::loc(ctx, e->value), id);
      }
      if (!core) continue;
      core->id = id;
      acc.cores[static_cast<std::size_t>(id)] = std::move(*core);
      good[static_cast<std::size_t>(id)] = true;
    }
    // One namespace per accelerator (checked among the cores that did load).
    int first = -1;
    for (int id = 0; id < n; ++id) {
      if (!good[static_cast<std::size_t>(id)]) continue;
      const Core& c = acc.cores[static_cast<std::size_t>(id)];
      if (first < 0) {
        first = id;
        continue;
      }
      const Core& f = acc.cores[static_cast<std::size_t>(first)];
      if (c.type.ns != f.type.ns)
        ctx.diag.error(core_where[id], "All cores in an accelerator must share the same namespace: core " +
                                           std::to_string(id) + " is " + c.type.str() + " but core " +
                                           std::to_string(first) + " is " + f.type.str() + ".");
    }
  }

  // `<what>.dma`: {burst_bits >= 1, setup_cycles >= 0, max_strides >= 0, setup_energy >= 0}, each
  // optional (defaults 1, 0, 0, 0) but the mapping not empty. nullopt after recording its errors.
  std::optional<DmaModel> read_dma(MapReader& parent, const std::string& what) {
    auto node = parent.node("dma", false);
    if (!node) return std::nullopt;
    MapReader r(ctx, *node, what + ".dma");
    if (!r.ok()) return std::nullopt;
    const std::size_t before = ctx.diag.error_count();
    r.reject_unknown({"burst_bits", "setup_cycles", "max_strides", "setup_energy"});
    if (r.items().empty())
      r.error("`" + what + ".dma` is empty; give at least one of burst_bits, setup_cycles, max_strides, setup_energy");
    DmaModel d;
    d.where = r.where();
    if (auto v = r.integer("burst_bits", false, 1)) d.burst_bits = *v;
    if (auto v = r.integer("setup_cycles", false, 0)) d.setup_cycles = *v;
    if (auto v = r.integer("max_strides", false, 0)) {
      if (*v > 64) r.error("max_strides", "`" + what + ".dma.max_strides` must be at most 64, got " + std::to_string(*v));
      else d.max_strides = static_cast<int>(*v);
    }
    if (auto v = r.number("setup_energy", false, 0.0)) d.setup_energy = *v;
    if (ctx.diag.error_count() != before) return std::nullopt;
    return d;
  }

  void read_connectivity(MapReader& top) {
    auto node = top.node("core_connectivity", true);
    if (!node) return;
    if (yamlx::is_null(*node)) {
      top.error("core_connectivity", "'core_connectivity' must be a list (use [] for none), got null");
      return;
    }
    if (!node->IsSequence()) {
      top.error("core_connectivity", "'core_connectivity' must be a list, got " + yamlx::describe(*node));
      return;
    }
    std::size_t i = 0;
    std::uint64_t pairs = 0;
    for (const auto& item : *node) {
      const std::string what = "core_connectivity[" + std::to_string(i++) + "]";
      MapReader r(ctx, item, what);
      if (!r.ok()) continue;
      r.reject_unknown({"type", "cores", "bandwidth", "unit_energy_cost", "dma"});
      Connection c;
      c.where = r.where();
      c.unit_energy_cost = acc.unit_energy_cost;
      c.dma = acc.dma;
      bool good = true;
      if (r.has("dma")) {
        c.dma = read_dma(r, what);
        if (!c.dma) good = false;
      }
      // Every field is read, so that one entry reports all of its errors.
      good = read_connection_type(r, c) && good;
      good = read_connection_cores(r, what, c) && good;
      good = read_connection_bandwidth(r, what, c) && good;
      good = read_connection_energy(r, what, c) && good;
      if (good && !within_pair_limit(c, pairs, r)) good = false;
      if (good) acc.connectivity.push_back(std::move(c));
      else acc.connectivity.push_back(Connection{ConnectionType::Bus, {}, 0, 0, r.where()});  // keeps indices aligned
    }
  }

  static bool read_connection_type(MapReader& r, Connection& c) {
    auto t = r.text("type", false);
    if (!t) return true;
    if (*t == "link") c.type = ConnectionType::Link;
    else if (*t == "bus") c.type = ConnectionType::Bus;
    else {
      r.error("type", "'type' must be link or bus, got '" + *t + "'");
      return false;
    }
    return true;
  }

  bool read_connection_cores(MapReader& r, const std::string& what, Connection& c) {
    auto cn = r.node("cores", true);
    if (!cn) return false;
    auto ids = int_list(ctx, *cn, "`" + what + ".cores`");
    if (!ids) return false;
    c.cores = *ids;
    bool good = true;
    std::set<int> distinct(ids->begin(), ids->end());
    if (distinct.size() != ids->size()) {
      r.error("cores", "`" + what + ".cores` lists a core more than once: " + ids_text(*ids));
      good = false;
    }
    for (int id : *ids)
      if (!known(id)) {
        r.error("cores", "`" + what + ".cores` contains unknown core id " + std::to_string(id) + ".");
        good = false;
      }
    if (c.type == ConnectionType::Link && ids->size() != 2) {
      r.error("cores", "Expected exactly 2 cores for a link, got " + std::to_string(ids->size()) + " " +
                           ids_text(*ids) + " (use type: bus for more).");
      good = false;
    } else if (c.type == ConnectionType::Bus && ids->size() < 2) {
      r.error("cores", "a bus needs at least 2 cores, got " + ids_text(*ids) + ".");
      good = false;
    }
    return good;
  }

  static bool read_connection_bandwidth(MapReader& r, const std::string& what, Connection& c) {
    auto b = r.node("bandwidth", true);
    if (!b) return false;
    auto v = yamlx::to_number(*b);
    if (!v) {
      r.error("bandwidth", "`" + what + ".bandwidth` must be a number, got " + yamlx::describe(*b));
      return false;
    }
    if (!(*v > 0) || std::isinf(*v)) {
      r.error("bandwidth", "`" + what + ".bandwidth` must be > 0 and finite.");
      return false;
    }
    c.bandwidth = *v;
    return true;
  }

  static bool read_connection_energy(MapReader& r, const std::string& what, Connection& c) {
    auto e = r.node("unit_energy_cost", false);
    if (!e) return true;
    auto v = yamlx::to_number(*e);
    if (!v) {
      r.error("unit_energy_cost", "`" + what + ".unit_energy_cost` must be a number, got " + yamlx::describe(*e));
      return false;
    }
    if (*v < 0) {
      r.error("unit_energy_cost", "`" + what + ".unit_energy_cost` must be >= 0.");
      return false;
    }
    c.unit_energy_cost = *v;
    return true;
  }

  // The graph holds one edge per ordered core pair (a bus of n cores gives n(n-1)); `pairs` counts
  // them before replacement, an upper bound of what build_interconnect() stores.
  bool within_pair_limit(const Connection& c, std::uint64_t& pairs, MapReader& r) {
    const auto k = static_cast<std::uint64_t>(c.cores.size());
    const bool reported = pairs > kMaxDirectedPairs;
    pairs += k * (k - 1);
    if (pairs <= kMaxDirectedPairs) return true;
    if (!reported)
      r.error("cores", "`core_connectivity` lists more than " + std::to_string(kMaxDirectedPairs) +
                           " directed core pairs by this entry (a bus of n cores has n(n-1)); that many cannot be "
                           "routed");
    return false;
  }

  void read_memory_sharing(MapReader& top) {
    auto node = top.node("core_memory_sharing", false);
    if (!node || yamlx::is_null(*node)) return;
    if (!node->IsSequence()) {
      top.error("core_memory_sharing", "'core_memory_sharing' must be a list of \"<id>, <id>, ...\" strings");
      return;
    }
    std::size_t i = 0;
    for (const auto& item : *node) {
      const std::string what = "core_memory_sharing[" + std::to_string(i++) + "]";
      const Location where = yamlx::loc(ctx, item);
      std::vector<int> ids;
      bool good = true;
      if (item.IsSequence()) {
        auto list = int_list(ctx, item, what);
        if (!list) continue;
        ids = *list;
      } else if (auto text = yamlx::to_text(item); text && !yamlx::is_null(item)) {
        // ^\d+(?:\s*,\s*\d+){1,}$
        std::string s = *text;
        std::size_t pos = 0;
        while (pos <= s.size() && good) {
          const std::size_t comma = s.find(',', pos);
          std::string part = s.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
          part.erase(0, part.find_first_not_of(" \t"));
          part.erase(part.find_last_not_of(" \t") + 1);
          const bool digits = !part.empty() && std::all_of(part.begin(), part.end(), [](char ch) {
            return ch >= '0' && ch <= '9';
          });
          if (!digits || part.size() > 7) good = false;
          else ids.push_back(std::stoi(part));
          if (comma == std::string::npos) break;
          pos = comma + 1;
        }
        if (!good) {
          ctx.diag.error(where, what + ": '" + s + "' is not a comma-separated list of core ids (e.g. \"0, 1\")");
          continue;
        }
      } else {
        ctx.diag.error(where, what + " must be a string such as \"0, 1\", got " + yamlx::describe(item));
        continue;
      }
      if (ids.size() < 2) {
        ctx.diag.error(where, "Shared memory connection should contain at least 2 core ids (" + what + " has " +
                                  std::to_string(ids.size()) + ").");
        continue;
      }
      for (int id : ids)
        if (!known(id)) {
          ctx.diag.error(where, "`core_memory_sharing` contains unknown core id " + std::to_string(id) + " (" + what + ").");
          good = false;
        }
      if (good) acc.memory_sharing.push_back(MemorySharingGroup{ids, where});
    }
  }

  void check_memory_sharing() {
    for (const auto& g : acc.memory_sharing) {
      // Two cores of a group may not appear together in any connection.
      for (std::size_t ci = 0; ci < acc.connectivity.size(); ++ci) {
        const auto& c = acc.connectivity[ci];
        std::vector<int> both;
        for (int id : g.cores)
          if (std::find(c.cores.begin(), c.cores.end(), id) != c.cores.end()) both.push_back(id);
        if (both.size() >= 2)
          ctx.diag.error(c.where, "Cores that share memory should must not be explicitly connected in "
                                  "`core_connectivity`: core_connectivity[" + std::to_string(ci) + "] connects " +
                                      ids_text(both) + ", which share memory (" + ids_text(g.cores) + ").");
      }
      // The factory requires equal top-memory capacity.
      const std::int64_t cap0 = acc.cores[static_cast<std::size_t>(g.cores[0])].memory_capacity();
      for (int id : g.cores) {
        const std::int64_t cap = acc.cores[static_cast<std::size_t>(id)].memory_capacity();
        if (cap != cap0)
          ctx.diag.error(g.where, "cores sharing memory must have top memories of equal capacity: core " +
                                      std::to_string(g.cores[0]) + " has " + std::to_string(cap0) + " bits, core " +
                                      std::to_string(id) + " has " + std::to_string(cap) + " bits.");
      }
    }
  }

  void read_coordinates(MapReader& top) {
    auto node = top.node("core_coordinates", false);
    if (!node || yamlx::is_null(*node)) return;
    MapReader r(ctx, *node, "core_coordinates");
    if (!r.ok()) return;
    for (const auto& e : r.items()) {
      const Location where = yamlx::loc(ctx, e.key_node);
      auto id = yamlx::to_int(e.key_node);
      if (!id || *id < 0) {
        ctx.diag.error(where, "Invalid core id in core_coordinates: '" + e.key + "' is not an integer >= 0.");
        continue;
      }
      if (!known(static_cast<int>(*id))) {
        ctx.diag.error(where, "Core id " + std::to_string(*id) + " in core_coordinates does not exist in cores.");
        continue;
      }
      std::optional<std::int64_t> col, row;
      if (e.value.IsSequence() && e.value.size() == 2) {
        col = yamlx::to_int(e.value[0]);
        row = yamlx::to_int(e.value[1]);
      }
      if (!col || !row || *col < 0 || *row < 0 || *col > 1'000'000 || *row > 1'000'000) {
        ctx.diag.error(yamlx::loc(ctx, e.value), "Invalid coordinates for core id " + std::to_string(*id) +
                                                     ": expected [col, row] (two integers >= 0), got " +
                                                     yamlx::describe(e.value) + ".");
        continue;
      }
      acc.coordinates[static_cast<int>(*id)] = {static_cast<int>(*col), static_cast<int>(*row)};
    }
  }

  void read_memory_aliases(MapReader& top) {
    auto node = top.node("memory_aliases", false);
    if (!node || yamlx::is_null(*node)) return;
    if (!node->IsSequence()) {
      top.error("memory_aliases", "'memory_aliases' must be a list of lists of \"<core id>.<memory name>\"");
      return;
    }
    std::size_t i = 0;
    for (const auto& group : *node) {
      const std::string what = "memory_aliases[" + std::to_string(i++) + "]";
      const Location where = yamlx::loc(ctx, group);
      if (!group.IsSequence() || group.size() < 2) {
        ctx.diag.error(where, what + " must be a list of at least 2 \"<core id>.<memory name>\" entries, got " +
                                  yamlx::describe(group));
        continue;
      }
      MemoryAlias alias{{}, where};
      bool good = true;
      for (const auto& item : group) {
        auto text = yamlx::to_text(item);
        const std::size_t dot = text ? text->find('.') : std::string::npos;
        const std::int64_t id_value =
            dot != std::string::npos ? yamlx::parse_int(text->substr(0, dot)).value_or(-1) : std::int64_t{-1};
        const int id = id_value > 1'000'000 ? -1 : static_cast<int>(id_value);
        const std::string mem = dot != std::string::npos ? text->substr(dot + 1) : "";
        const bool mem_ok = !mem.empty() && std::all_of(mem.begin(), mem.end(), [](char c) {
          return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
        });
        if (id < 0 || !mem_ok) {
          ctx.diag.error(yamlx::loc(ctx, item), what + ": entry " + yamlx::describe(item) +
                                                    " does not match \"<core id>.<memory name>\"");
          good = false;
          continue;
        }
        if (!known(id)) {
          ctx.diag.error(yamlx::loc(ctx, item), what + ": unknown core id " + std::to_string(id) + ".");
          good = false;
          continue;
        }
        if (cores_ok) {
          const Core& c = acc.cores[static_cast<std::size_t>(id)];
          const bool has = std::any_of(c.memories.begin(), c.memories.end(), [&](const Memory& m) { return m.name == mem; });
          if (!has && c.is_zigzag()) {
            ctx.diag.error(yamlx::loc(ctx, item), what + ": core " + std::to_string(id) + " has no memory named '" +
                                                      mem + "'.");
            good = false;
            continue;
          }
        }
        alias.members.emplace_back(id, mem);
      }
      if (good) acc.memory_aliases.push_back(std::move(alias));
    }
  }

  void read(const YAML::Node& root) {
    MapReader top(ctx, root, "accelerator");
    if (!top.ok()) return;
    top.reject_unknown({"name", "cores", "offchip_core_id", "unit_energy_cost", "core_connectivity",
                        "core_memory_sharing", "core_coordinates", "technology_node", "memory_aliases", "dma"});
    if (auto v = top.text("name", true)) acc.name = *v;
    if (auto v = top.number("unit_energy_cost", false, 0.0)) acc.unit_energy_cost = *v;
    acc.dma = read_dma(top, "accelerator");
    if (auto v = top.text("technology_node", false)) acc.technology_node = *v;
    const std::size_t before_cores = ctx.diag.error_count();
    read_cores(top);
    cores_ok = ctx.diag.error_count() == before_cores && !acc.cores.empty();
    if (auto v = top.integer("offchip_core_id", true, 0)) {
      if (!known(static_cast<int>(*v)))
        top.error("offchip_core_id", "offchip_core_id does not correspond to any entry in `cores` (got " +
                                         std::to_string(*v) + ").");
      acc.offchip_core_id = static_cast<int>(*v);
    }
    read_connectivity(top);
    read_memory_sharing(top);
    read_coordinates(top);
    read_memory_aliases(top);
    if (cores_ok) {
      check_memory_sharing();
      if (!acc.cores.empty() && acc.core_namespace() == Namespace::Aie2 && acc.coordinates.empty())
        top.error("aie2 accelerators require `core_coordinates` (one [col, row] per tile).");
    }
  }
};

// Reads a parsed tree; `ctx.diag` gets every problem, and the accelerator keeps its warnings.
std::optional<Accelerator> read_tree(const YAML::Node& root, const Ctx& ctx, const fs::path& base_dir) {
  std::optional<Accelerator> result;
  try {
    const auto errors = ctx.diag.error_count();
    const YAML::Node tree = detail::expand_array(root, ctx);
    if (ctx.diag.error_count() != errors) return result;  // the array's own errors say it all
    Reader reader{ctx, base_dir, {}, {}, {}, false, {}, true};
    reader.acc.source_file = ctx.file;
    reader.read(tree);
    if (!ctx.diag.has_errors()) {
      reader.acc.build_interconnect(/*warn_replacements=*/!detail::has_array(root));
      result = std::move(reader.acc);
    }
  } catch (const YAML::Exception& e) {
    ctx.diag.error(file_location(ctx.file), std::string("YAML error: ") + e.what());
    result.reset();
  }
  if (result) {
    for (const auto& d : result->warnings) ctx.diag.warning(d.where, d.message);
    result->warnings = ctx.diag.warnings();
  }
  return result;
}

std::optional<Accelerator> read_impl(const std::string& text, const std::string& label, const fs::path& base_dir,
                                     Diagnostics& diag) {
  Diagnostics local(diag.echoes_warnings());
  const Ctx ctx{label, local};
  std::optional<Accelerator> result;
  try {
    if (auto root = yamlx::parse(text, ctx)) result = read_tree(*root, ctx, base_dir);
  } catch (const YAML::Exception& e) {
    local.error(file_location(label), std::string("YAML error: ") + e.what());
  }
  diag.merge(local);
  return result;
}

}  // namespace

std::optional<Accelerator> read_accelerator(const fs::path& path, Diagnostics& diagnostics) {
  const std::string label = path.string();
  Diagnostics local(diagnostics.echoes_warnings());
  auto text = yamlx::read_text(path, label, local);
  diagnostics.merge(local);
  if (!text) return std::nullopt;
  return read_impl(*text, label, path.parent_path().empty() ? fs::path(".") : path.parent_path(), diagnostics);
}

Accelerator load_accelerator(const fs::path& path, Diagnostics* diagnostics) {
  Diagnostics local;
  auto acc = read_accelerator(path, local);
  if (diagnostics) diagnostics->merge(local);
  local.throw_if_errors("invalid accelerator", path.string());
  return std::move(*acc);
}

Accelerator detail::read_accelerator_tree(const YAML::Node& root, const std::string& file_label,
                                          const fs::path& base_dir, Diagnostics& diagnostics) {
  Diagnostics local(diagnostics.echoes_warnings());
  auto acc = read_tree(root, Ctx{file_label, local}, base_dir);
  diagnostics.merge(local);
  local.throw_if_errors("invalid accelerator", file_label);
  return std::move(*acc);
}

Accelerator parse_accelerator_text(const std::string& text, const std::string& file_label, const fs::path& base_dir,
                                   Diagnostics* diagnostics) {
  Diagnostics local(diagnostics == nullptr || diagnostics->echoes_warnings());
  auto acc = read_impl(text, file_label, base_dir, local);
  if (diagnostics) diagnostics->merge(local);
  local.throw_if_errors("invalid accelerator", file_label);
  return std::move(*acc);
}

std::vector<fs::path> core_files_of(const fs::path& accelerator) {
  std::vector<fs::path> files;
  try {
    for (const auto& reference : detail::core_references(yamlx::load_file(accelerator)))
      if (auto file = resolve_core_reference(reference.Scalar(), accelerator.parent_path());
          file && std::find(files.begin(), files.end(), *file) == files.end())
        files.push_back(std::move(*file));
  } catch (const YAML::Exception&) {
  }
  return files;
}

}  // namespace stream::hardware
