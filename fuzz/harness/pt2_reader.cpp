// libFuzzer harness: the torch.export frontend. An input that starts like a zip file ("PK") is a
// .pt2 archive (libzip, both layouts, the size caps); any other input is the ExportedProgram JSON
// itself, so that mutations reach the decoder and the converters instead of dying in inflate.
#include <stream/registry/registries.hpp>

#include "fuzz_support.hpp"
#include "stream_torch/torch_frontend.hpp"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  stream::fuzz::quiet_logs();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const stream::Registries registries;
  const stream::torch_frontend::TorchExportFrontend frontend;
  const bool archive = size >= 2 && data[0] == 'P' && data[1] == 'K';
  stream::fuzz::expect_clean_outcome([&] {
    if (archive) {
      (void)frontend.load(stream::fuzz::scratch_file("model.pt2", data, size), {}, registries);
    } else {
      (void)frontend.load_json(stream::fuzz::as_text(data, size), "fuzz.json", {}, registries);
    }
  });
  return 0;
}
