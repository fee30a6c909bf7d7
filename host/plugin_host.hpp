// The plugin host: discovery through manifests, lazy loading, and the rules that keep a broken
// plugin from breaking the run.
//
// Discovery reads `*.stream-plugin.json` manifests, without opening any library, from the bundled
// plugin directory (next to the executable: ../lib/stream/plugins, in the build tree and in an
// install alike), then each directory of STREAM_PLUGIN_PATH (colon-separated), then each
// --plugin-dir, in that order; files within a directory in name order. STREAM_PLUGINS, when set,
// is a comma-separated allow-list of non-bundled plugin ids (empty: bundled only), matched against
// the manifest's file name (`<id>.stream-plugin.json`) so that a manifest outside it is never
// opened; an allowed manifest must declare the id of its file name. A manifest must be a regular
// file, its numbers in range, and its library a plain file name beside it. A library is opened
// only when the registries need something its manifest declares (or on load_all()), after its ELF
// headers were checked against its size (elf_check.hpp). Loading checks the entry symbol and the
// descriptor (plugin_descriptor.hpp: ABI version, size, standard library, id), and runs the
// registration into a staging area; any failure marks the plugin rejected with the reason, and
// nothing it registered is kept. A registration the manifest does not declare, and a declaration
// never registered, are warnings kept with the plugin's record. Conflicting registrations are
// resolved by priority, then by discovery order (later wins), with a warning naming the winner
// and the losers.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <stream/registry/registries.hpp>

#include "plugin_descriptor.hpp"

namespace boost::dll {
class shared_library;
}

namespace stream::host {

struct FrontendDecl {
  std::string name;
  std::vector<std::string> extensions;  ///< suffixes the frontend claims, e.g. ".onnx"; empty: any file
};

/// `{"name": "aie", "core_types": ["aie2.compute"]}` in "provides.cost_backends".
struct CostBackendDecl {
  std::string name;
  std::vector<std::string> core_types;  ///< informative: what the backend says it costs
};

struct PluginManifest {
  std::string id;
  std::string version;
  std::uint32_t abi_version = 0;  ///< the major
  std::uint32_t abi_minor = 0;    ///< absent from the manifest: 0
  std::string library;  ///< file name, relative to the manifest's directory
  std::int64_t priority = 0;
  std::string description;
  std::vector<FrontendDecl> frontends;
  std::vector<std::string> onnx_ops, blocks, decompositions;
  std::vector<CostBackendDecl> cost_backends;
};

/// Parses a manifest; throws stream::Error naming the file and the problem.
[[nodiscard]] PluginManifest read_manifest(const std::filesystem::path& file);

enum class PluginStatus { Discovered, Loaded, Rejected, Disabled };
[[nodiscard]] std::string_view name(PluginStatus s);

struct PluginRecord {
  std::filesystem::path manifest_path;
  PluginManifest manifest;  ///< partially filled when the manifest itself was rejected
  bool bundled = false;
  std::int64_t discovery = 0;
  PluginStatus status = PluginStatus::Discovered;
  std::string reason;  ///< why rejected or disabled
  PluginBuild build;   ///< from the descriptor, once the library was opened
  std::vector<std::string> warnings;  ///< what loading found odd but not fatal, in order
  std::shared_ptr<boost::dll::shared_library> library;

  [[nodiscard]] bool declares(Category c, const std::string& key) const;
};

struct PluginHostOptions {
  std::vector<std::filesystem::path> bundled_dirs;
  std::vector<std::filesystem::path> extra_dirs;  ///< STREAM_PLUGIN_PATH entries, then --plugin-dir
  std::optional<std::set<std::string>> allow;     ///< unset: every plugin; set: these non-bundled ids

  /// The bundled directory next to the running executable plus the environment's settings.
  static PluginHostOptions from_environment(const std::vector<std::filesystem::path>& plugin_dirs);
};

class PluginHost {
 public:
  explicit PluginHost(PluginHostOptions options);
  ~PluginHost();
  PluginHost(const PluginHost&) = delete;
  PluginHost& operator=(const PluginHost&) = delete;

  [[nodiscard]] Registries& registries() { return *registries_; }
  [[nodiscard]] const std::vector<PluginRecord>& plugins() const { return records_; }
  /// Loads every discovered, allowed plugin (for `stream plugins --load`).
  void load_all();
  /// Loads the plugins declaring (category, key); key "" means any key of the category.
  void resolve(Category category, const std::string& key);

 private:
  void discover(const std::filesystem::path& dir, bool bundled);
  void load(PluginRecord& record);
  [[nodiscard]] std::string register_staged(PluginRecord& record, const StreamPluginDescriptor& d);
  [[nodiscard]] std::string why_absent(Category category, const std::string& key) const;
  [[nodiscard]] std::string known_frontends() const;
  void warn_conflicts();

  PluginHostOptions options_;
  std::vector<PluginRecord> records_;  // declared before registries_: libraries outlive what they registered
  std::unique_ptr<Registries> registries_;
  std::set<std::string> warned_;
};

}  // namespace stream::host
