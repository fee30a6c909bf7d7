#include "plugin_host.hpp"

#include <dlfcn.h>

#include "elf_check.hpp"
#include "host_prefix.hpp"
#include "plugin_errors.hpp"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <sstream>

#include <boost/dll/shared_library.hpp>
#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>
#include <stream/error.hpp>
#include <stream/out_of_memory.hpp>
#include <stream/plugin/plugin.hpp>

namespace stream::host {

namespace fs = std::filesystem;

std::string_view name(PluginStatus s) {
  switch (s) {
    case PluginStatus::Discovered:
      return "discovered";
    case PluginStatus::Loaded:
      return "loaded";
    case PluginStatus::Rejected:
      return "rejected";
    case PluginStatus::Disabled:
      return "disabled";
  }
  return "";
}

namespace {

constexpr std::string_view kManifestSuffix = ".stream-plugin.json";

std::vector<std::string> string_list(const nlohmann::json& j, const char* key, const fs::path& file) {
  std::vector<std::string> out;
  if (!j.contains(key)) return out;
  if (!j[key].is_array()) throw Error(std::string("\"provides.") + key + "\" must be a list of strings", {.file = file.string()});
  for (const auto& v : j[key]) {
    if (!v.is_string()) throw Error(std::string("\"provides.") + key + "\" must be a list of strings", {.file = file.string()});
    out.push_back(v.get<std::string>());
  }
  return out;
}

// A name without a directory part, so that the library sits beside its manifest.
bool is_plain_file_name(const std::string& name) {
  return name != "." && name != ".." && name.find('/') == std::string::npos && name.find('\0') == std::string::npos;
}

// An ABI version field; absent and optional: 0. get<>() would wrap an out-of-range number (2^32 + 1
// becomes ABI version 1).
std::uint32_t abi_field(const nlohmann::json& j, const char* key, const fs::path& file, bool required) {
  if (!required && !j.contains(key)) return 0;
  const auto& v = j.contains(key) ? j[key] : nlohmann::json();
  if (!v.is_number_unsigned() || v.get<std::uint64_t>() > std::numeric_limits<std::uint32_t>::max())
    throw Error(std::string(required ? "missing or invalid \"" : "invalid \"") + key +
                    "\" (an integer from 0 to 2^32 - 1)",
                {.file = file.string()});
  return v.get<std::uint32_t>();
}

// Why this host cannot use a plugin whose manifest declares this ABI, or "".
std::string manifest_abi_defect(const PluginManifest& m) {
  const auto declared = std::to_string(m.abi_version) + "." + std::to_string(m.abi_minor);
  if (m.abi_version != STREAM_PLUGIN_ABI_VERSION)
    return "manifest declares plugin ABI " + declared + ", this host speaks " + host_abi() +
           ": another major version is incompatible";
  if (m.abi_minor > STREAM_PLUGIN_ABI_MINOR)
    return "manifest declares plugin ABI " + declared + ", newer than this host's " + host_abi() +
           ": a host accepts its own or an older minor version";
  return "";
}

// The dynamic loader's own words for a library that does not open (an undefined symbol, a missing
// dependency), which Boost.DLL wraps in text of its own: asked again, dlopen fails the same way.
std::string loader_error(const fs::path& lib, const std::exception& e) {
  dlerror();  // clear
  if (void* handle = dlopen(lib.c_str(), RTLD_NOW | RTLD_LOCAL)) {
    dlclose(handle);
    return e.what();
  }
  const char* text = dlerror();
  return text ? text : e.what();
}

std::string id_from_file_name(const fs::path& manifest) {
  const auto file = manifest.filename().string();
  return file.substr(0, file.size() - kManifestSuffix.size());
}

}  // namespace

PluginManifest read_manifest(const fs::path& file) {
  // Only a regular file: a FIFO would block the open (every command), a directory aborts the parser.
  std::error_code ec;
  if (!fs::is_regular_file(file, ec)) throw Error("a manifest must be a regular file", {.file = file.string()});
  std::ifstream in(file);
  if (!in) throw Error("cannot read the manifest", {.file = file.string()});
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {  // parse_error, and out_of_range for a number like 4E888
    throw Error(std::string("malformed JSON: ") + e.what(), {.file = file.string()});
  }
  if (!j.is_object()) throw Error("a manifest is a JSON object", {.file = file.string()});
  auto need_string = [&](const char* key) {
    if (!j.contains(key) || !j[key].is_string() || j[key].get<std::string>().empty())
      throw Error(std::string("missing or empty string field \"") + key + "\"", {.file = file.string()});
    return j[key].get<std::string>();
  };
  PluginManifest m;
  m.id = need_string("id");
  m.version = need_string("version");
  m.library = need_string("library");
  if (!is_plain_file_name(m.library))
    throw Error("\"library\" must be a file name in the manifest's directory, not '" + m.library + "'",
                {.file = file.string()});
  m.abi_version = abi_field(j, "abi_version", file, true);
  m.abi_minor = abi_field(j, "abi_minor", file, false);
  if (j.contains("priority")) {
    const auto& p = j["priority"];
    if (!p.is_number_integer() ||
        (p.is_number_unsigned() && p.get<std::uint64_t>() > std::uint64_t{std::numeric_limits<std::int64_t>::max()}))
      throw Error("\"priority\" must be an integer from -2^63 to 2^63 - 1", {.file = file.string()});
    m.priority = p.get<std::int64_t>();
  }
  if (j.contains("description") && j["description"].is_string()) m.description = j["description"].get<std::string>();
  if (j.contains("provides")) {
    const auto& p = j["provides"];
    if (!p.is_object()) throw Error("\"provides\" must be an object", {.file = file.string()});
    if (p.contains("frontends")) {
      if (!p["frontends"].is_array()) throw Error("\"provides.frontends\" must be a list", {.file = file.string()});
      for (const auto& f : p["frontends"]) {
        FrontendDecl d;
        if (f.is_string()) {
          d.name = f.get<std::string>();
        } else if (f.is_object() && f.contains("name") && f["name"].is_string()) {
          d.name = f["name"].get<std::string>();
          d.extensions = string_list(f, "extensions", file);
        } else {
          throw Error("each of \"provides.frontends\" is a name or {\"name\", \"extensions\"}", {.file = file.string()});
        }
        m.frontends.push_back(std::move(d));
      }
    }
    m.onnx_ops = string_list(p, "onnx_ops", file);
    m.blocks = string_list(p, "blocks", file);
    m.decompositions = string_list(p, "decompositions", file);
    if (p.contains("cost_backends")) {
      const char* shape = "each of \"provides.cost_backends\" is {\"name\", \"core_types\"}";
      if (!p["cost_backends"].is_array()) throw Error(shape, {.file = file.string()});
      for (const auto& b : p["cost_backends"]) {
        if (!b.is_object() || !b.contains("name") || !b["name"].is_string()) throw Error(shape, {.file = file.string()});
        m.cost_backends.push_back({b["name"].get<std::string>(), string_list(b, "core_types", file)});
      }
    }
  }
  return m;
}

bool PluginRecord::declares(Category c, const std::string& key) const {
  auto in = [&](const std::vector<std::string>& v) {
    return key.empty() ? !v.empty() : std::find(v.begin(), v.end(), key) != v.end();
  };
  switch (c) {
    case Category::Frontend:
      for (const auto& f : manifest.frontends) {
        if (key.empty() || f.extensions.empty() || key == f.name) return true;  // a path, or the frontend's name
        for (const auto& ext : f.extensions)
          if (key.size() >= ext.size() && key.compare(key.size() - ext.size(), ext.size(), ext) == 0) return true;
      }
      return false;
    case Category::OnnxOp:
      return in(manifest.onnx_ops);
    case Category::Block:
      return in(manifest.blocks);
    case Category::Decomposition:
      return in(manifest.decompositions);
    case Category::CostBackend:
      for (const auto& b : manifest.cost_backends)
        if (key.empty() || key == b.name) return true;
      return false;
  }
  return false;
}

PluginHostOptions PluginHostOptions::from_environment(const std::vector<fs::path>& plugin_dirs) {
  PluginHostOptions o;
  o.bundled_dirs.push_back(host_prefix() / "lib" / "stream" / "plugins");
  if (const char* path = std::getenv("STREAM_PLUGIN_PATH")) {
    std::stringstream ss(path);
    std::string dir;
    while (std::getline(ss, dir, ':'))
      if (!dir.empty()) o.extra_dirs.emplace_back(dir);
  }
  o.extra_dirs.insert(o.extra_dirs.end(), plugin_dirs.begin(), plugin_dirs.end());
  if (const char* allow = std::getenv("STREAM_PLUGINS")) {
    std::set<std::string> ids;
    std::stringstream ss(allow);
    std::string id;
    while (std::getline(ss, id, ',')) {
      id.erase(0, id.find_first_not_of(" \t"));
      id.erase(id.find_last_not_of(" \t") + 1);
      if (!id.empty()) ids.insert(id);
    }
    o.allow = std::move(ids);
  }
  return o;
}

PluginHost::PluginHost(PluginHostOptions options)
    : options_(std::move(options)), registries_(std::make_unique<Registries>()) {
  std::set<fs::path> seen;
  auto visit = [&](const fs::path& dir, bool bundled) {
    std::error_code ec;
    auto canonical = fs::weakly_canonical(dir, ec);
    if (!seen.insert(ec ? dir : canonical).second) return;  // the same directory named twice
    discover(dir, bundled);
  };
  for (const auto& d : options_.bundled_dirs) visit(d, true);
  for (const auto& d : options_.extra_dirs) visit(d, false);
  registries_->set_resolver([this](Category c, const std::string& key) { resolve(c, key); });
  registries_->set_absence_explainer([this](Category c, const std::string& key) { return why_absent(c, key); });
}

PluginHost::~PluginHost() = default;

void PluginHost::discover(const fs::path& dir, bool bundled) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    if (!bundled) spdlog::warn("plugin directory {} does not exist", dir.string());
    return;
  }
  std::vector<fs::path> manifests;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const auto file = entry.path().filename().string();
    if (file.size() > kManifestSuffix.size() && file.ends_with(kManifestSuffix)) manifests.push_back(entry.path());
  }
  std::sort(manifests.begin(), manifests.end());
  for (const auto& path : manifests) {
    PluginRecord r;
    r.manifest_path = path;
    r.bundled = bundled;
    r.discovery = static_cast<std::int64_t>(records_.size());
    // Outside the allow-list a manifest is not even read: the file name stands for the id.
    if (!bundled && options_.allow && options_.allow->count(id_from_file_name(path)) == 0) {
      r.manifest.id = id_from_file_name(path);
      r.status = PluginStatus::Disabled;
      r.reason = "not in STREAM_PLUGINS";
      records_.push_back(std::move(r));
      continue;
    }
    try {
      r.manifest = read_manifest(path);
      if (auto why = manifest_abi_defect(r.manifest); !why.empty()) {
        r.status = PluginStatus::Rejected;
        r.reason = std::move(why);
      } else if (!bundled && options_.allow && r.manifest.id != id_from_file_name(path)) {
        r.status = PluginStatus::Rejected;
        r.reason = "manifest id '" + r.manifest.id + "' differs from its file name, which the allow-list matched";
      }
    } catch (const Error& e) {
      r.manifest.id = id_from_file_name(path);
      r.status = PluginStatus::Rejected;
      r.reason = e.what();
    }
    if (r.status == PluginStatus::Rejected) spdlog::warn("plugin {} rejected: {}", path.string(), r.reason);
    records_.push_back(std::move(r));
  }
}

void PluginHost::load_all() {
  for (auto& r : records_)
    if (r.status == PluginStatus::Discovered) load(r);
  warn_conflicts();
}

void PluginHost::resolve(Category category, const std::string& key) {
  bool loaded = false;
  for (auto& r : records_) {
    if (r.status == PluginStatus::Discovered && r.declares(category, key)) {
      load(r);
      loaded = true;
    }
  }
  if (loaded) warn_conflicts();
}

void PluginHost::load(PluginRecord& r) {
  auto reject = [&](std::string why) {
    r.status = PluginStatus::Rejected;
    r.reason = std::move(why);
    // The library, once opened, stays mapped: objects it made (a half-done registration) may
    // still be destroyed after this point, and their code lives in it.
    spdlog::warn("plugin '{}' ({}) rejected: {}", r.manifest.id, r.manifest_path.string(), r.reason);
  };
  const auto lib_path = r.manifest_path.parent_path() / r.manifest.library;
  std::error_code ec;
  if (!fs::exists(lib_path, ec)) return reject("library file not found: " + lib_path.string());
  // The loader trusts the ELF headers: a truncated file would be a SIGBUS, not an error.
  if (const auto defect = elf_defect(lib_path)) return reject("library " + lib_path.string() + ": " + *defect);
  try {
    // RTLD_NODELETE (Boost.DLL passes extra dlopen bits through): a plugin stays mapped until the
    // process exits, so nothing it allocated or registered outlives its code, and LeakSanitizer
    // still sees the memory its statics hold (after a real unload it reported that as leaked).
    const auto mode = boost::dll::load_mode::rtld_now | boost::dll::load_mode::rtld_local |
                      static_cast<boost::dll::load_mode::type>(RTLD_NODELETE);
    r.library = std::make_shared<boost::dll::shared_library>(boost::dll::fs::path(lib_path.string()), mode);
  } catch (const std::exception& e) {
    const auto why = loader_error(lib_path, e);
    // Not the plugin's defect: rejecting it would make its inputs "no frontend can load" (exit 2).
    if (loader_out_of_memory(why)) throw OutOfMemory("loading plugins", "cannot open " + lib_path.string() + ": " + why);
    return reject("cannot open library " + lib_path.string() + ": " + why);
  }
  if (!r.library->has(STREAM_PLUGIN_ENTRY_SYMBOL))
    return reject(std::string("library has no entry symbol '") + STREAM_PLUGIN_ENTRY_SYMBOL +
                  "' (was it built with STREAM_PLUGIN(...)?)");
  const auto entry = r.library->get<const StreamPluginDescriptor*()>(STREAM_PLUGIN_ENTRY_SYMBOL);
  const StreamPluginDescriptor* d = entry();
  auto verdict = check_descriptor(d, r.manifest, r.manifest.library);
  r.build = std::move(verdict.build);
  if (!verdict.defect.empty()) return reject(std::move(verdict.defect));
  if (auto why = register_staged(r, *d); !why.empty()) return reject(std::move(why));
  r.status = PluginStatus::Loaded;
  spdlog::debug("plugin '{}' loaded from {}", r.manifest.id, lib_path.string());
}

namespace {

// Every key the manifest declares, by category, in manifest order.
std::vector<std::pair<Category, std::string>> declared_keys(const PluginManifest& m) {
  std::vector<std::pair<Category, std::string>> out;
  for (const auto& f : m.frontends) out.emplace_back(Category::Frontend, f.name);
  for (const auto& k : m.onnx_ops) out.emplace_back(Category::OnnxOp, k);
  for (const auto& k : m.blocks) out.emplace_back(Category::Block, k);
  for (const auto& k : m.decompositions) out.emplace_back(Category::Decomposition, k);
  for (const auto& b : m.cost_backends) out.emplace_back(Category::CostBackend, b.name);
  return out;
}

void warn(PluginRecord& r, std::string what) {
  spdlog::warn("plugin '{}' ({}): {}", r.manifest.id, r.manifest_path.string(), what);
  r.warnings.push_back(std::move(what));
}

}  // namespace

// Runs the registration into a staging area first, so a registration that throws half-way leaves
// nothing behind, then replays it into the host's registries. Returns why it failed, or "".
std::string PluginHost::register_staged(PluginRecord& r, const StreamPluginDescriptor& d) {
  const Provenance provenance{r.manifest.id, r.manifest.priority, r.discovery};
  Registries staging;
  PluginRegistrar registrar(staging, provenance);
  try {
    d.register_plugin(registrar);
  } catch (const std::exception& e) {
    return std::string("registration failed: ") + e.what();
  } catch (...) {
    return "registration failed with a non-standard exception";
  }
  PluginRegistrar real(*registries_, provenance);
  std::set<std::pair<Category, std::string>> replayed;
  for (const auto& [category, key] : registrar.registered()) {
    if (!replayed.emplace(category, key).second) continue;  // registered twice: the staging winner counts once
    if (!r.declares(category, key))
      warn(r, "registers " + std::string(name(category)) + " '" + key + "' that its manifest does not declare; it " +
                  "is found only once the plugin is loaded for something else");
    // A non-bundled plugin's callables name it in the errors they raise (plugin_errors.hpp).
    auto named = [&](auto value) { return r.bundled ? std::move(value) : naming_errors(std::move(value), r.manifest.id); };
    switch (category) {
      case Category::Frontend:
        real.add_frontend(named(staging.frontends().find(key)->value));
        break;
      case Category::OnnxOp:
        real.add_onnx_parser(key, named(staging.onnx_parsers().find(key)->value));
        break;
      case Category::Block:
        real.add_block(named(staging.blocks().find(key)->value));
        break;
      case Category::Decomposition:
        real.add_decomposition(key, named(staging.decompositions().find(key)->value));
        break;
      case Category::CostBackend:
        real.add_cost_backend(named(staging.cost_backends().find(key)->value));
        break;
    }
  }
  for (const auto& declared : declared_keys(r.manifest))
    if (replayed.count(declared) == 0)
      warn(r, "declares " + std::string(name(declared.first)) + " '" + declared.second +
                  "' in its manifest but does not register it");
  return "";
}

// What the plugins that declare (category, key) did with it, for an error that found no provider.
std::string PluginHost::why_absent(Category category, const std::string& key) const {
  std::string out;
  for (const auto& r : records_) {
    if (!r.declares(category, key)) continue;
    const std::string who = "plugin '" + r.manifest.id + "' (" + r.manifest_path.string() + ") declares it";
    std::string what;
    // A loaded frontend that declined the file (the key is a path) did register itself.
    if (r.status == PluginStatus::Loaded && category != Category::Frontend)
      what = who + " in its manifest but did not register it";
    if (r.status == PluginStatus::Rejected) what = who + " but was rejected: " + r.reason;
    if (!what.empty()) out += (out.empty() ? "" : "; ") + what;
  }
  if (category == Category::Frontend && !key.empty()) {
    const auto known = known_frontends();
    if (!known.empty()) out += (out.empty() ? "" : "; ") + ("frontends that exist: " + known);
  }
  return out;
}

// Every frontend a usable plugin's manifest declares, with what it reads and who provides it:
// `onnx (.onnx; plugin 'onnx-frontend'), ...`. From the manifests, so nothing is loaded for it.
std::string PluginHost::known_frontends() const {
  std::string out;
  for (const auto& r : records_) {
    if (r.status == PluginStatus::Rejected || r.status == PluginStatus::Disabled) continue;
    for (const auto& f : r.manifest.frontends) {
      std::string reads;
      for (const auto& ext : f.extensions) reads += (reads.empty() ? "" : ", ") + ext;
      out += (out.empty() ? "" : ", ") + f.name + " (" + (reads.empty() ? "any file" : reads) + "; plugin '" +
             r.manifest.id + "')";
    }
  }
  return out;
}

void PluginHost::warn_conflicts() {
  for (const auto& [category, c] : registries_->conflicts()) {
    std::string tag = std::string(name(category)) + "/" + c.key + "/" + std::to_string(c.losers.size());
    if (!warned_.insert(tag).second) continue;
    std::string losers;
    for (const auto& l : c.losers)
      losers += (losers.empty() ? "" : ", ") + l.plugin_id + " (priority " + std::to_string(l.priority) + ")";
    spdlog::warn("{}: '{}' is registered by several plugins; {} (priority {}) wins over {}", name(category), c.key,
                 c.winner.plugin_id, c.winner.priority, losers);
  }
}

}  // namespace stream::host
