// Workloads of the optimizer tests, built with the IR: a chain of matrix products (a decoder's
// vector-matrix steps when m = 1) and the bundled 2-conv model parsed by the ONNX frontend.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "../plugins/onnx-frontend/onnx_test_util.hpp"
#include "stream/ir/workload.hpp"

namespace stream::test {

inline Workload gemm_chain(int layers, std::int64_t m, std::int64_t width) {
  auto d = [](int i) { return AffineExpr::dim(i); };
  auto t = [](const std::string& n, std::vector<std::int64_t> shape) { return make_tensor(n, DType::bf16, std::move(shape)); };
  std::vector<Node> nodes;
  auto x = t("x0", {m, width});
  nodes.push_back(make_in_edge("x0", x));
  for (int l = 1; l <= layers; ++l) {
    auto w = t("w" + std::to_string(l), {width, width});
    auto y = t("x" + std::to_string(l), {m, width});
    nodes.push_back(make_in_edge(w->name, w));
    nodes.push_back(make_computation("gemm" + std::to_string(l), "Gemm", {x, w}, {y},
                                     {AffineMap(3, {d(0), d(1)}), AffineMap(3, {d(1), d(2)}), AffineMap(3, {d(0), d(2)})}));
    x = y;
  }
  nodes.push_back(make_out_edge(x->name, x));
  return Workload(std::move(nodes));
}

inline Workload two_conv() {
  return onnx_test::parse_file(std::string(STREAM_INPUTS_DIR) + "/workload/2conv_1_8_32_32_16_32_3.onnx");
}

}  // namespace stream::test
