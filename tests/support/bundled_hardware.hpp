// A bundled example accelerator (inputs/hardware/<file>), read once per test program: the tests
// that run models on the TPU-like quad core had each written the same loader.
#pragma once

#include <map>
#include <mutex>
#include <string>

#include "stream/hardware/accelerator_reader.hpp"

namespace stream::test {

[[nodiscard]] inline const hardware::Accelerator& bundled_accelerator(const std::string& file = "tpu_like_quad_core.yaml") {
  static std::mutex mutex;
  static std::map<std::string, hardware::Accelerator> loaded;
  const std::lock_guard lock(mutex);
  auto it = loaded.find(file);
  if (it == loaded.end())
    it = loaded.emplace(file, hardware::load_accelerator(std::string(STREAM_INPUTS_DIR) + "/hardware/" + file)).first;
  return it->second;
}

}  // namespace stream::test
