// libFuzzer harness: the hardware YAML readers. Each input is read as an accelerator file (its
// core references resolve in the bundled inputs/hardware folder, STREAM_FUZZ_HARDWARE_DIR) and as
// a core file, since both are hardware YAML and seeds of either kind help the other.
#include <stream/hardware/accelerator_reader.hpp>
#include <stream/hardware/core_reader.hpp>

#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  stream::fuzz::quiet_logs();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto text = stream::fuzz::as_text(data, size);
  stream::fuzz::expect_clean_outcome(
      [&] { (void)stream::hardware::parse_accelerator_text(text, "fuzz.yaml", STREAM_FUZZ_HARDWARE_DIR); });
  stream::fuzz::expect_clean_outcome([&] { (void)stream::hardware::parse_core_text(text, "fuzz.yaml"); });
  return 0;
}
