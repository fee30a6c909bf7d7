#include "torch_models.hpp"

namespace stream::torch_testing {

namespace {
const std::string A = "torch.ops.aten.";
}

ProgramBuilder mlp_training() {
  ProgramBuilder p;
  p.parameter("p_fc1_weight", "fc1.weight", kBF16, {32, 16}).parameter("p_fc1_bias", "fc1.bias", kBF16, {32});
  p.parameter("p_fc2_weight", "fc2.weight", kBF16, {8, 32}).parameter("p_fc2_bias", "fc2.bias", kBF16, {8});
  p.input("x", kBF16, {4, 16});
  p.call(A + "linear.default", {{"input", T("x")}, {"weight", T("p_fc1_weight")}, {"bias", T("p_fc1_bias")}}, "linear", kBF16, {4, 32});
  p.call(A + "relu.default", {{"self", T("linear")}}, "relu", kBF16, {4, 32});
  p.call(A + "linear.default", {{"input", T("relu")}, {"weight", T("p_fc2_weight")}, {"bias", T("p_fc2_bias")}}, "linear_1", kBF16,
         {4, 8});
  p.call(A + "relu.default", {{"self", T("linear_1")}}, "relu_1", kBF16, {4, 8});
  p.output("relu_1");
  return p;
}

ProgramBuilder mlp_core_aten() {
  ProgramBuilder p;
  p.parameter("p_fc1_weight", "fc1.weight", kBF16, {32, 16}).parameter("p_fc1_bias", "fc1.bias", kBF16, {32});
  p.parameter("p_fc2_weight", "fc2.weight", kBF16, {8, 32}).parameter("p_fc2_bias", "fc2.bias", kBF16, {8});
  p.input("x", kBF16, {4, 16});
  p.call(A + "permute.default", {{"self", T("p_fc1_weight")}, {"dims", Is({1, 0})}}, "permute", kBF16, {16, 32});
  p.call(A + "addmm.default", {{"self", T("p_fc1_bias")}, {"mat1", T("x")}, {"mat2", T("permute")}}, "addmm", kBF16, {4, 32});
  p.call(A + "relu.default", {{"self", T("addmm")}}, "relu", kBF16, {4, 32});
  p.call(A + "permute.default", {{"self", T("p_fc2_weight")}, {"dims", Is({1, 0})}}, "permute_1", kBF16, {32, 8});
  p.call(A + "addmm.default", {{"self", T("p_fc2_bias")}, {"mat1", T("relu")}, {"mat2", T("permute_1")}}, "addmm_1", kBF16, {4, 8});
  p.call(A + "relu.default", {{"self", T("addmm_1")}}, "relu_1", kBF16, {4, 8});
  p.output("relu_1");
  return p;
}

ProgramBuilder mlp_dynamic() {
  ProgramBuilder p;
  const auto s0 = sym("s0", 4);
  p.parameter("p_fc1_weight", "fc1.weight", kBF16, {32, 16}).parameter("p_fc1_bias", "fc1.bias", kBF16, {32});
  p.parameter("p_fc2_weight", "fc2.weight", kBF16, {8, 32}).parameter("p_fc2_bias", "fc2.bias", kBF16, {8});
  p.input("x", kBF16, {s0, 16});
  p.call(A + "linear.default", {{"input", T("x")}, {"weight", T("p_fc1_weight")}, {"bias", T("p_fc1_bias")}}, "linear", kBF16, {s0, 32});
  p.call(A + "relu.default", {{"self", T("linear")}}, "relu", kBF16, {s0, 32});
  p.call(A + "linear.default", {{"input", T("relu")}, {"weight", T("p_fc2_weight")}, {"bias", T("p_fc2_bias")}}, "linear_1", kBF16,
         {s0, 8});
  p.call(A + "relu.default", {{"self", T("linear_1")}}, "relu_1", kBF16, {s0, 8});
  p.output("relu_1");
  p.range("s0", 2, 64);
  return p;
}

ProgramBuilder conv_block() {
  ProgramBuilder p;
  p.parameter("p_conv1_weight", "conv1.weight", kBF16, {16, 8, 3, 3}).parameter("p_conv1_bias", "conv1.bias", kBF16, {16});
  p.parameter("p_conv2_weight", "conv2.weight", kBF16, {16, 16, 3, 3});
  p.input("x", kBF16, {1, 8, 32, 32});
  // nn.Conv2d passes all seven arguments positionally.
  p.call(A + "conv2d.default",
         {{"input", T("x")}, {"weight", T("p_conv1_weight")}, {"bias", T("p_conv1_bias")}, {"stride", Is({1, 1})},
          {"padding", Is({1, 1})}, {"dilation", Is({1, 1})}, {"groups", I(1)}},
         "conv2d", kBF16, {1, 16, 32, 32});
  p.call(A + "relu.default", {{"self", T("conv2d")}}, "relu", kBF16, {1, 16, 32, 32});
  p.call(A + "conv2d.default",
         {{"input", T("relu")}, {"weight", T("p_conv2_weight")}, {"bias", None()}, {"stride", Is({1, 1})},
          {"padding", Is({1, 1})}, {"dilation", Is({1, 1})}, {"groups", I(1)}},
         "conv2d_1", kBF16, {1, 16, 32, 32});
  p.call(A + "add.Tensor", {{"self", T("conv2d_1")}, {"other", T("relu")}}, "add", kBF16, {1, 16, 32, 32});
  p.call(A + "relu.default", {{"self", T("add")}}, "relu_1", kBF16, {1, 16, 32, 32});
  p.output("relu_1");
  return p;
}

ProgramBuilder attention() {
  constexpr std::int64_t S = 128, D = 512, H = 8, Dh = 64;
  ProgramBuilder p;
  for (const char* w : {"q", "k", "v", "o"})
    p.parameter(std::string("p_") + w + "_proj_weight", std::string(w) + "_proj.weight", kBF16, {D, D});
  p.input("x", kBF16, {1, S, D});
  // q = self.q_proj(x).view(1, S, H, Dh).transpose(1, 2), and the same for k and v
  const char* proj[] = {"q", "k", "v"};
  for (int i = 0; i < 3; ++i) {
    const auto sfx = i == 0 ? std::string() : "_" + std::to_string(i);
    p.call(A + "linear.default", {{"input", T("x")}, {"weight", T(std::string("p_") + proj[i] + "_proj_weight")}}, "linear" + sfx,
           kBF16, {1, S, D});
    p.call(A + "view.default", {{"self", T("linear" + sfx)}, {"size", Is({1, S, H, Dh})}}, "view" + sfx, kBF16, {1, S, H, Dh});
    p.call(A + "transpose.int", {{"self", T("view" + sfx)}, {"dim0", I(1)}, {"dim1", I(2)}}, "transpose" + sfx, kBF16,
           {1, H, S, Dh});
  }
  // scores = q @ k.transpose(-2, -1)   (the ONNX fixture has no 1/sqrt(d) scaling either)
  p.call(A + "transpose.int", {{"self", T("transpose_1")}, {"dim0", I(-2)}, {"dim1", I(-1)}}, "transpose_3", kBF16, {1, H, Dh, S});
  p.call(A + "matmul.default", {{"self", T("transpose")}, {"other", T("transpose_3")}}, "matmul", kBF16, {1, H, S, S});
  p.call(A + "softmax.int", {{"self", T("matmul")}, {"dim", I(-1)}}, "softmax", kBF16, {1, H, S, S});
  p.call(A + "matmul.default", {{"self", T("softmax")}, {"other", T("transpose_2")}}, "matmul_1", kBF16, {1, H, S, Dh});
  // out = self.o_proj(ctx.transpose(1, 2).contiguous().view(1, S, D))
  p.call(A + "transpose.int", {{"self", T("matmul_1")}, {"dim0", I(1)}, {"dim1", I(2)}}, "transpose_4", kBF16, {1, S, H, Dh});
  p.call(A + "contiguous.default", {{"self", T("transpose_4")}}, "contiguous", kBF16, {1, S, H, Dh});
  p.call(A + "view.default", {{"self", T("contiguous")}, {"size", Is({1, S, D})}}, "view_3", kBF16, {1, S, D});
  p.call(A + "linear.default", {{"input", T("view_3")}, {"weight", T("p_o_proj_weight")}}, "linear_3", kBF16, {1, S, D});
  p.output("linear_3");
  return p;
}

}  // namespace stream::torch_testing
