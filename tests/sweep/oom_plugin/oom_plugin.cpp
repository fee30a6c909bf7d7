// A test plugin for the sweep: block `oom_block` runs out of memory (throws std::bad_alloc) while
// STREAM_TEST_OUT_OF_MEMORY is set in the environment, and builds a one-node workload otherwise,
// so that a test can fail a point for want of memory and then resume it on a machine with memory.
#include <cstdlib>
#include <new>

#include <stream/plugin/plugin.hpp>
#include <stream/registry/registries.hpp>

namespace {

stream::Workload relu_workload() {
  auto x = stream::make_tensor("x", stream::DType::i8, {64});
  auto y = stream::make_tensor("y", stream::DType::i8, {64});
  return stream::Workload({stream::make_in_edge("in", x),
                           stream::make_computation("relu", "Relu", {x}, {y}, {stream::AffineMap::identity(1),
                                                                              stream::AffineMap::identity(1)})});
}

void register_oom(stream::PluginRegistrar& r) {
  r.add_block(stream::BlockSpec{"oom_block", "runs out of memory on demand", "a 64-element Relu", {},
                                [](const stream::BlockParams&) {
                                  if (std::getenv("STREAM_TEST_OUT_OF_MEMORY")) throw std::bad_alloc();
                                  return relu_workload();
                                }});
}

}  // namespace

STREAM_PLUGIN("sweep-oom", "1.0", register_oom)
