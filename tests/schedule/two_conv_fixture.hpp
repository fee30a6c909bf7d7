// The reference's 2-conv workload (2conv_1_8_32_32_16_32_3: batch 1, 8 -> 16 -> 32 channels,
// 32x32, 3x3 kernels, pad 1, bf16) built by hand with the IR, as the ONNX frontend would build it.
#pragma once

#include <string>

#include <stream/ir/workload.hpp>

namespace stream::test {

inline Node conv(const std::string& name, TensorPtr in, TensorPtr w, TensorPtr out) {
  // dims (b, ox, oy, fx, fy, c, k) = D0..D6; input (b, c, oy+fy-1, ox+fx-1), weight (k, c, fy, fx),
  // output (b, k, oy, ox).
  auto d = [](int i) { return AffineExpr::dim(i); };
  return make_computation(name, "Conv", {std::move(in), std::move(w)}, {std::move(out)},
                          {AffineMap(7, {d(0), d(5), d(2) + d(4) - 1, d(1) + d(3) - 1}),
                           AffineMap(7, {d(6), d(5), d(4), d(3)}), AffineMap(7, {d(0), d(6), d(2), d(1)})});
}

inline Workload two_conv() {
  auto t = [](const std::string& n, std::vector<std::int64_t> s) { return make_tensor(n, DType::bf16, std::move(s)); };
  auto input = t("input", {1, 8, 32, 32}), w1 = t("weights_1", {16, 8, 3, 3}), w2 = t("weights_2", {32, 16, 3, 3});
  auto mid = t("conv1_out", {1, 16, 32, 32}), out = t("output", {1, 32, 32, 32});
  return Workload({make_in_edge("input", input), make_in_edge("weights_1", w1), make_in_edge("weights_2", w2),
                   conv("Conv1", input, w1, mid), conv("Conv2", mid, w2, out), make_out_edge("output_edge", out)});
}

}  // namespace stream::test
