// A vendor's per-core cost backend for its own cores: it claims every core named `my_vendor_core`
// and costs each node tile on it at one output element per cycle; every other core stays with the
// built-in model. A backend is called from the cost table's worker threads, so it keeps no state.
#include <stream/plugin/plugin.hpp>
#include <stream/registry/registries.hpp>

namespace {

stream::CostBackend my_vendor_backend() {
  stream::CostBackend b;
  b.name = "my-vendor";
  b.priority = 20;  // above the built-in model (0) and the bundled AIE backend (10)
  b.core_types = {"zigzag.compute"};
  b.claims = [](const stream::hardware::Core& core) { return core.name == "my_vendor_core"; };
  b.cost = [](const stream::CostRequest& r) {
    double elements = 1;
    for (const auto& d : r.tile.dims) elements *= static_cast<double>(d.size);
    stream::cost::CostEntry e;
    e.latency_total = e.ideal_cycle = e.ideal_temporal_cycle = elements;
    return e;
  };
  return b;
}

void register_plugin(stream::PluginRegistrar& registrar) { registrar.add_cost_backend(my_vendor_backend()); }

}  // namespace

STREAM_PLUGIN("example-cost-backend", "1.0.0", register_plugin)
