#include "plugin_errors.hpp"

#include <exception>
#include <new>
#include <stdexcept>
#include <string_view>
#include <utility>

#include <stream/error.hpp>

namespace stream::host {

namespace {

// Runs f(); rethrows what escapes it with the plugin named (see the header).
template <typename F>
decltype(auto) named(const std::string& plugin_id, F&& f) {
  const std::string prefix = "plugin '";
  try {
    return std::forward<F>(f)();
  } catch (const Error& e) {
    if (e.message().rfind(prefix, 0) == 0) throw;
    throw Error(prefix + plugin_id + "': " + e.message(), e.where(), e.kind());
  } catch (const std::bad_alloc&) {
    throw;  // the machine's, not the plugin's: a caller tells it by its type (a sweep retries the point)
  } catch (const std::exception& e) {
    // Not a stream::Error: it stays one, so that a caller treats it as before (the ONNX frontend
    // as a parser failure of the model, the host as an internal error).
    if (std::string_view(e.what()).starts_with(prefix)) throw;
    throw std::runtime_error(prefix + plugin_id + "': " + e.what());
  }
}

class NamingFrontend final : public WorkloadFrontend {
 public:
  NamingFrontend(FrontendPtr inner, std::string plugin_id) : inner_(std::move(inner)), plugin_id_(std::move(plugin_id)) {}
  [[nodiscard]] std::string name() const override { return inner_->name(); }
  [[nodiscard]] bool can_load(const std::filesystem::path& source) const override {
    return named(plugin_id_, [&] { return inner_->can_load(source); });
  }
  [[nodiscard]] Workload load(const std::filesystem::path& source, const FrontendOptions& options,
                              const Registries& registries) const override {
    return named(plugin_id_, [&] { return inner_->load(source, options, registries); });
  }

 private:
  FrontendPtr inner_;
  std::string plugin_id_;
};

}  // namespace

FrontendPtr naming_errors(FrontendPtr frontend, const std::string& plugin_id) {
  if (!frontend) return frontend;
  return std::make_shared<const NamingFrontend>(std::move(frontend), plugin_id);
}

OnnxParser naming_errors(OnnxParser parser, const std::string& plugin_id) {
  return [parser = std::move(parser), plugin_id](const OnnxNodeView& node, OnnxParseContext& context) {
    return named(plugin_id, [&] { return parser(node, context); });
  };
}

BlockSpec naming_errors(BlockSpec spec, const std::string& plugin_id) {
  spec.build = [build = std::move(spec.build), plugin_id](const BlockParams& params) {
    return named(plugin_id, [&] { return build(params); });
  };
  return spec;
}

Decomposer naming_errors(Decomposer decomposer, const std::string& plugin_id) {
  return [decomposer = std::move(decomposer), plugin_id](const Node& node) {
    return named(plugin_id, [&] { return decomposer(node); });
  };
}

CostBackend naming_errors(CostBackend backend, const std::string& plugin_id) {
  backend.claims = [claims = std::move(backend.claims), plugin_id](const hardware::Core& core) {
    return named(plugin_id, [&] { return claims(core); });
  };
  backend.cost = [cost = std::move(backend.cost), plugin_id](const CostRequest& request) {
    return named(plugin_id, [&] { return cost(request); });
  };
  return backend;
}

}  // namespace stream::host
