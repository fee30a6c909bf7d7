// tpu_like_quad_core with a DMA model on its bus (the connection that carries every core pair
// after replacement), for the tests of transfer pricing by runs. An empty `dma` leaves the file as
// it is.
#pragma once

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include <stream/hardware/accelerator_reader.hpp>

namespace stream::test {

inline hardware::Accelerator tpu_with_bus_dma(const std::string& dma) {
  const std::string dir = std::string(STREAM_INPUTS_DIR) + "/hardware";
  std::ifstream in(dir + "/tpu_like_quad_core.yaml");
  std::stringstream text;
  text << in.rdbuf();
  std::string s = text.str();
  const std::string bus = "bandwidth: 128";
  const auto at = s.find(bus);
  EXPECT_NE(at, std::string::npos);
  if (!dma.empty() && at != std::string::npos) s.insert(at + bus.size(), "\n    dma: " + dma);
  return hardware::parse_accelerator_text(s, "tpu_dma.yaml", dir);
}

}  // namespace stream::test
