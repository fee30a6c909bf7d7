#include "stream/registry/registries.hpp"

#include <array>

#include "stream/error.hpp"

namespace stream {

std::string_view name(Category c) {
  static constexpr std::array<std::string_view, 5> names{"frontends", "onnx_ops", "blocks", "decompositions",
                                                          "cost_backends"};
  return names[static_cast<std::size_t>(c)];
}

const WorkloadFrontend& Registries::frontend_for(const std::filesystem::path& source) const {
  resolve(Category::Frontend, source.string());
  std::string available;
  for (const auto& key : frontends_.keys()) {
    const auto* e = frontends_.find(key);
    if (e->value->can_load(source)) return *e->value;
    available += (available.empty() ? "" : ", ") + key;
  }
  const auto why = why_absent(Category::Frontend, source.string());
  throw Error("no registered frontend can load this file (available: " + (available.empty() ? "none" : available) +
                  "); " + (why.empty() ? "is the plugin that reads it installed?" : why),
              Location{.file = source.string()});
}

Workload Registries::load_workload(const std::filesystem::path& source, const FrontendOptions& options) const {
  if (!std::filesystem::exists(source)) throw Error("no such file", Location{.file = source.string()});
  return frontend_for(source).load(source, options, *this);
}

const OnnxParser* Registries::onnx_parser(const std::string& op_type) const {
  resolve(Category::OnnxOp, op_type);
  const auto* e = onnx_parsers_.find(op_type);
  return e ? &e->value : nullptr;
}

const BlockSpec& Registries::block(const std::string& key) const {
  resolve(Category::Block, key);
  if (const auto* e = blocks_.find(key)) return e->value;
  std::string known;
  for (const auto& k : block_keys()) known += (known.empty() ? "" : ", ") + k;
  const auto why = why_absent(Category::Block, key);
  throw Error("unknown block '" + key + "' (known blocks: " + (known.empty() ? "none" : known) + ")" +
              (why.empty() ? "" : "; " + why));
}

std::vector<std::string> Registries::block_keys() const {
  resolve(Category::Block, "");
  return blocks_.keys();
}

const Decomposer* Registries::decomposition(const std::string& op_type) const {
  resolve(Category::Decomposition, op_type);
  const auto* e = decompositions_.find(op_type);
  return e ? &e->value : nullptr;
}

std::vector<CostBackend> Registries::cost_backend_list() const {
  resolve(Category::CostBackend, "");
  std::vector<CostBackend> out;
  for (const auto& key : cost_backends_.keys()) out.push_back(cost_backends_.find(key)->value);
  return out;
}

std::vector<std::pair<Category, Conflict>> Registries::conflicts() const {
  std::vector<std::pair<Category, Conflict>> out;
  for (auto& c : frontends_.conflicts()) out.emplace_back(Category::Frontend, std::move(c));
  for (auto& c : onnx_parsers_.conflicts()) out.emplace_back(Category::OnnxOp, std::move(c));
  for (auto& c : blocks_.conflicts()) out.emplace_back(Category::Block, std::move(c));
  for (auto& c : decompositions_.conflicts()) out.emplace_back(Category::Decomposition, std::move(c));
  for (auto& c : cost_backends_.conflicts()) out.emplace_back(Category::CostBackend, std::move(c));
  return out;
}

void PluginRegistrar::add_frontend(FrontendPtr frontend) {
  if (!frontend) throw Error("plugin '" + provenance_.plugin_id + "' registered a null frontend");
  auto key = frontend->name();
  registries_.frontends().add(key, std::move(frontend), provenance_);
  registered_.emplace_back(Category::Frontend, key);
}

void PluginRegistrar::add_onnx_parser(const std::string& op_type, OnnxParser parser) {
  if (!parser) throw Error("plugin '" + provenance_.plugin_id + "' registered an empty parser for " + op_type);
  registries_.onnx_parsers().add(op_type, std::move(parser), provenance_);
  registered_.emplace_back(Category::OnnxOp, op_type);
}

void PluginRegistrar::add_block(BlockSpec spec) {
  if (!spec.build) throw Error("plugin '" + provenance_.plugin_id + "' registered block '" + spec.key + "' without a builder");
  auto key = spec.key;
  registries_.blocks().add(key, std::move(spec), provenance_);
  registered_.emplace_back(Category::Block, key);
}

void PluginRegistrar::add_decomposition(const std::string& op_type, Decomposer decomposer) {
  if (!decomposer) throw Error("plugin '" + provenance_.plugin_id + "' registered an empty decomposition for " + op_type);
  registries_.decompositions().add(op_type, std::move(decomposer), provenance_);
  registered_.emplace_back(Category::Decomposition, op_type);
}

void PluginRegistrar::add_cost_backend(CostBackend backend) {
  if (!backend.claims || !backend.cost)
    throw Error("plugin '" + provenance_.plugin_id + "' registered cost backend '" + backend.name +
                "' without a claims predicate or a cost function");
  if (backend.name.empty() || backend.name == kBuiltinCostBackend)
    throw Error("plugin '" + provenance_.plugin_id + "' registered a cost backend named '" + backend.name +
                "' (empty, or the built-in's name)");
  auto key = backend.name;
  registries_.cost_backends().add(key, std::move(backend), provenance_);
  registered_.emplace_back(Category::CostBackend, key);
}

}  // namespace stream
