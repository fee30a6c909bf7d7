// libFuzzer harness: the ONNX frontend (protobuf decoding, shape inference, every operator parser)
// on one model file, with the built-in parsers registered as the plugin registers them.
#include <stream/registry/registries.hpp>

#include "fuzz_support.hpp"
#include "stream_onnx/onnx_frontend.hpp"

namespace {

stream::Registries& registries() {
  static stream::Registries r = [] {
    stream::Registries reg;
    stream::PluginRegistrar registrar(reg, stream::Provenance{"onnx-frontend", 0, 0});
    stream::onnx_frontend::register_onnx_frontend(registrar);
    return reg;
  }();
  return r;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  stream::fuzz::quiet_logs();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto path = stream::fuzz::scratch_file("model.onnx", data, size);
  stream::fuzz::expect_clean_outcome([&] { (void)registries().load_workload(path.string()); });
  return 0;
}
