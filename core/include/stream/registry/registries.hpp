// The host's five registries, as plugins fill them and the pipeline reads them.
//
// Lookups go through a resolver the host installs: before answering "who provides X", the
// registries ask the resolver to load every not-yet-loaded plugin whose manifest declares X, so a
// plugin's library is opened only when something it provides is needed, and precedence is
// decided over every plugin that declares the key. Without a resolver (tests, embedding) lookups
// see only what was registered directly. The host also installs an absence explainer, so that an
// error about a missing provider can name the plugin that declared it and say why it did not
// provide it (rejected, or declared but never registered).
#pragma once

#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "stream/export.hpp"
#include "stream/registry/blocks.hpp"
#include "stream/registry/cost_backends.hpp"
#include "stream/registry/decompositions.hpp"
#include "stream/registry/frontends.hpp"
#include "stream/registry/keyed_registry.hpp"
#include "stream/registry/onnx_parsers.hpp"

namespace stream {

// OnnxOp, not OnnxParser: an enumerator named after the OnnxParser type would shadow it (-Wshadow).
enum class Category { Frontend, OnnxOp, Block, Decomposition, CostBackend };

[[nodiscard]] STREAM_API std::string_view name(Category c);  ///< "frontends", "onnx_ops", "blocks", "decompositions", "cost_backends"

class STREAM_API Registries {
 public:
  /// Called with (category, key) before a lookup; key "" means "everything in the category", and
  /// for frontends the key is the source path. Must be idempotent.
  using Resolver = std::function<void(Category, const std::string& key)>;

  void set_resolver(Resolver resolver) { resolver_ = std::move(resolver); }

  /// Called with (category, key) when a lookup found nothing; returns what is known about why
  /// (the plugins that declare the key and what became of them), or "".
  using AbsenceExplainer = std::function<std::string(Category, const std::string& key)>;
  void set_absence_explainer(AbsenceExplainer explainer) { explainer_ = std::move(explainer); }
  /// The explainer's text for a key no lookup found, or "" (no explainer, or nothing known).
  [[nodiscard]] std::string why_absent(Category c, const std::string& key) const {
    return explainer_ ? explainer_(c, key) : std::string();
  }

  KeyedRegistry<FrontendPtr>& frontends() { return frontends_; }
  KeyedRegistry<OnnxParser>& onnx_parsers() { return onnx_parsers_; }
  KeyedRegistry<BlockSpec>& blocks() { return blocks_; }
  KeyedRegistry<Decomposer>& decompositions() { return decompositions_; }
  KeyedRegistry<CostBackend>& cost_backends() { return cost_backends_; }

  /// The first frontend (in registration order of the winning entries) that can load `source`;
  /// throws a stream::Error listing the available frontends when none can.
  [[nodiscard]] const WorkloadFrontend& frontend_for(const std::filesystem::path& source) const;
  /// Loads through frontend_for(source).
  [[nodiscard]] Workload load_workload(const std::filesystem::path& source, const FrontendOptions& options = {}) const;
  /// The winning parser for an op type, or nullptr.
  [[nodiscard]] const OnnxParser* onnx_parser(const std::string& op_type) const;
  /// The winning block spec; throws a stream::Error listing the known keys when absent.
  [[nodiscard]] const BlockSpec& block(const std::string& key) const;
  /// Every block key (loads every plugin that provides blocks).
  [[nodiscard]] std::vector<std::string> block_keys() const;
  [[nodiscard]] const Decomposer* decomposition(const std::string& op_type) const;
  /// The winning registration of every cost backend name, in first-registration order (loads
  /// every plugin that provides cost backends): what cost::estimate_costs selects from (cost::select_cost_backend).
  [[nodiscard]] std::vector<CostBackend> cost_backend_list() const;
  /// Every conflict in every category, for the host's warnings.
  [[nodiscard]] std::vector<std::pair<Category, Conflict>> conflicts() const;

  // Const lookups may trigger lazy loading; the registries are logically unchanged by it.
 private:
  void resolve(Category c, const std::string& key) const {
    if (resolver_) resolver_(c, key);
  }
  Resolver resolver_;
  AbsenceExplainer explainer_;
  KeyedRegistry<FrontendPtr> frontends_;
  KeyedRegistry<OnnxParser> onnx_parsers_;
  KeyedRegistry<BlockSpec> blocks_;
  KeyedRegistry<Decomposer> decompositions_;
  KeyedRegistry<CostBackend> cost_backends_;
};

/// What a plugin's registration function receives: the registries plus the plugin's provenance,
/// so every registration is attributed to it. Also records what was registered, so the host can
/// warn about registrations the manifest does not declare (lazy loading would miss them).
class STREAM_API PluginRegistrar {
 public:
  PluginRegistrar(Registries& registries, Provenance provenance)
      : registries_(registries), provenance_(std::move(provenance)) {}

  void add_frontend(FrontendPtr frontend);
  void add_onnx_parser(const std::string& op_type, OnnxParser parser);
  void add_block(BlockSpec spec);
  void add_decomposition(const std::string& op_type, Decomposer decomposer);
  void add_cost_backend(CostBackend backend);

  [[nodiscard]] const Provenance& provenance() const { return provenance_; }
  /// (category, key) of every registration made through this registrar, in order.
  [[nodiscard]] const std::vector<std::pair<Category, std::string>>& registered() const { return registered_; }

 private:
  Registries& registries_;
  Provenance provenance_;
  std::vector<std::pair<Category, std::string>> registered_;
};

}  // namespace stream
