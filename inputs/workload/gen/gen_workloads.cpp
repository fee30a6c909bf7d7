// Writes the ONNX fixtures of inputs/workload/ (weights cleared: only names, types and shapes).
// Usage: stream-gen-workloads <output-dir>
#include <filesystem>
#include <iostream>
#include <string>

#include "model_builder.hpp"

using namespace stream::onnx_testing;

namespace {

// [1,8,32,32] -> Conv(16, k3, p1) -> Conv(32, k3, p1) -> [1,32,32,32], bf16 (the CLI's default).
ModelBuilder two_conv() {
  ModelBuilder m("TwoConv");
  m.input("input", BF16, {1, 8, 32, 32}).output("output", BF16, {1, 32, 32, 32});
  m.initializer("weights_1", BF16, {16, 8, 3, 3}).initializer("weights_2", BF16, {32, 16, 3, 3});
  m.node("Conv", {"input", "weights_1"}, {"conv1_out"}, "Conv1").attr("kernel_shape", Shape{3, 3}).attr("pads", Shape{1, 1, 1, 1});
  m.node("Conv", {"conv1_out", "weights_2"}, {"output"}, "Conv2").attr("kernel_shape", Shape{3, 3}).attr("pads", Shape{1, 1, 1, 1});
  return m;
}

// SwiGLU: two parallel Gemms, a custom-domain Silu function op, a Mul, a down projection; bf16.
ModelBuilder swiglu(std::int64_t seq, std::int64_t embed, std::int64_t hidden) {
  ModelBuilder m("SwiGLU");
  m.opset("com.example", 1).silu_function();
  m.input("input", BF16, {seq, embed}).output("output", BF16, {seq, embed});
  m.initializer("weights_1", BF16, {embed, hidden}).initializer("weights_2", BF16, {embed, hidden});
  m.initializer("weights_3", BF16, {hidden, embed});
  auto gemm = [&](const std::string& a, const std::string& b, const std::string& y, const std::string& name) {
    m.node("Gemm", {a, b}, {y}, name).attr("alpha", 1.0f).attr("beta", 1.0f).attr("transA", 0).attr("transB", 0);
  };
  gemm("input", "weights_1", "left", "Gemm_Left");
  gemm("input", "weights_2", "right", "Gemm_Right");
  m.node("Silu", {"left"}, {"left_swished"}, "Silu", "com.example");
  m.node("Mul", {"left_swished", "right"}, {"intermediate"}, "Elt_Mul");
  gemm("intermediate", "weights_3", "output", "Gemm_Down");
  return m;
}

// One Gemm Y[M,N] = A[M,K] x B[K,N] as the reference's make_onnx_gemm.py writes it (bf16, B a
// cleared initializer; node "Gemm", loop dims D0 = M, D1 = K, D2 = N).
ModelBuilder gemm(std::int64_t m_size, std::int64_t k_size, std::int64_t n_size) {
  ModelBuilder m("GEMM");
  m.input("A", BF16, {m_size, k_size}).output("Y", BF16, {m_size, n_size});
  m.initializer("B", BF16, {k_size, n_size});
  m.node("Gemm", {"A", "B"}, {"Y"}, "Gemm").attr("alpha", 1.0f).attr("beta", 1.0f).attr("transA", 0).attr("transB", 0);
  return m;
}

constexpr std::int64_t S = 128, D = 512, H = 8, Dh = 64;

// Multi-head attention as PyTorch exports it: 2-D weights, MatMul, Reshape to heads, Transpose, back.
ModelBuilder attention_pytorch() {
  ModelBuilder m("attention_pytorch");
  m.input("x", BF16, {1, S, D}).output("y", BF16, {1, S, D});
  for (const char* w : {"Wq", "Wk", "Wv", "Wo"}) m.initializer(w, BF16, {D, D});
  m.int_initializer("heads_shape", {1, S, H, Dh}).int_initializer("model_shape", {1, S, D});
  for (const std::string p : {"q", "k", "v"}) {
    std::string W = p == "q" ? "Wq" : p == "k" ? "Wk" : "Wv";
    m.node("MatMul", {"x", W}, {p}, "proj_" + p);
    m.node("Reshape", {p, "heads_shape"}, {p + "_heads"}, "reshape_" + p);
    m.node("Transpose", {p + "_heads"}, {p + "_t"}, "transpose_" + p)
        .attr("perm", p == "k" ? Shape{0, 2, 3, 1} : Shape{0, 2, 1, 3});
  }
  m.node("MatMul", {"q_t", "k_t"}, {"scores"}, "scores");
  m.node("Softmax", {"scores"}, {"probs"}, "softmax").attr("axis", -1);
  m.node("MatMul", {"probs", "v_t"}, {"context"}, "context");
  m.node("Transpose", {"context"}, {"context_t"}, "transpose_context").attr("perm", Shape{0, 2, 1, 3});
  m.node("Reshape", {"context_t", "model_shape"}, {"context_merged"}, "merge_heads");
  m.node("MatMul", {"context_merged", "Wo"}, {"y"}, "out_proj");
  return m;
}

// The same attention as JAX exports it: Einsum nodes with 3-D weights.
ModelBuilder attention_jax() {
  ModelBuilder m("attention_jax");
  m.input("x", BF16, {1, S, D}).output("y", BF16, {1, S, D});
  for (const char* w : {"Wq", "Wk", "Wv"}) m.initializer(w, BF16, {D, H, Dh});
  m.initializer("Wo", BF16, {H, Dh, D});
  m.node("Einsum", {"x", "Wq"}, {"q"}, "proj_q").attr("equation", "bsd,dhe->bshe");
  m.node("Einsum", {"x", "Wk"}, {"k"}, "proj_k").attr("equation", "bsd,dhe->bshe");
  m.node("Einsum", {"x", "Wv"}, {"v"}, "proj_v").attr("equation", "bsd,dhe->bshe");
  m.node("Einsum", {"q", "k"}, {"scores"}, "scores").attr("equation", "bshe,bthe->bhst");
  m.node("Softmax", {"scores"}, {"probs"}, "softmax").attr("axis", -1);
  m.node("Einsum", {"probs", "v"}, {"context"}, "context").attr("equation", "bhst,bthe->bshe");
  m.node("Einsum", {"context", "Wo"}, {"y"}, "out_proj").attr("equation", "bshe,hed->bsd");
  return m;
}

// The same attention per head: batched MatMul with per-head weights [H, D, Dh], an output
// projection per head [H, Dh, D], then ReduceSum over the heads.
ModelBuilder attention_per_head() {
  ModelBuilder m("attention_per_head");
  m.input("x", BF16, {1, S, D}).output("y", BF16, {1, S, D});
  for (const char* w : {"Wq", "Wk", "Wv"}) m.initializer(w, BF16, {H, D, Dh});
  m.initializer("Wo", BF16, {H, Dh, D});
  m.int_initializer("head_axis", {1}).int_initializer("sum_axes", {1});
  m.node("Unsqueeze", {"x", "head_axis"}, {"x_heads"}, "broadcast_heads");
  m.node("MatMul", {"x_heads", "Wq"}, {"q"}, "proj_q");
  m.node("MatMul", {"x_heads", "Wk"}, {"k"}, "proj_k");
  m.node("MatMul", {"x_heads", "Wv"}, {"v"}, "proj_v");
  m.node("Transpose", {"k"}, {"k_t"}, "transpose_k").attr("perm", Shape{0, 1, 3, 2});
  m.node("MatMul", {"q", "k_t"}, {"scores"}, "scores");
  m.node("Softmax", {"scores"}, {"probs"}, "softmax").attr("axis", -1);
  m.node("MatMul", {"probs", "v"}, {"context"}, "context");
  m.node("MatMul", {"context", "Wo"}, {"y_heads"}, "out_proj");
  m.node("ReduceSum", {"y_heads", "sum_axes"}, {"y"}, "sum_heads").attr("keepdims", 0);
  return m;
}

// A QDQ int8 conv block: f32 in, Q/DQ around an int8 conv (int32 bias) and its Relu, f32 out.
ModelBuilder qdq_conv() {
  ModelBuilder m("qdq_conv_int8", 13);
  m.input("input", F32, {1, 8, 16, 16}).output("output", F32, {1, 16, 16, 16});
  m.initializer("scale", F32, {}).initializer("zero_point", I8, {});
  m.initializer("w_q", I8, {16, 8, 3, 3}).initializer("w_scale", F32, {}).initializer("w_zero_point", I8, {});
  m.initializer("b_q", I32, {16}).initializer("b_scale", F32, {}).initializer("b_zero_point", I32, {});
  m.node("QuantizeLinear", {"input", "scale", "zero_point"}, {"input_q"}, "quant_input");
  m.node("DequantizeLinear", {"input_q", "scale", "zero_point"}, {"input_dq"}, "dequant_input");
  m.node("DequantizeLinear", {"w_q", "w_scale", "w_zero_point"}, {"w"}, "dequant_w");
  m.node("DequantizeLinear", {"b_q", "b_scale", "b_zero_point"}, {"b"}, "dequant_b");
  m.node("Conv", {"input_dq", "w", "b"}, {"conv_out"}, "conv").attr("kernel_shape", Shape{3, 3}).attr("pads", Shape{1, 1, 1, 1});
  m.node("QuantizeLinear", {"conv_out", "scale", "zero_point"}, {"conv_q"}, "quant_conv");
  m.node("DequantizeLinear", {"conv_q", "scale", "zero_point"}, {"conv_dq"}, "dequant_conv");
  m.node("Relu", {"conv_dq"}, {"relu_out"}, "relu");
  m.node("QuantizeLinear", {"relu_out", "scale", "zero_point"}, {"relu_q"}, "quant_relu");
  m.node("DequantizeLinear", {"relu_q", "scale", "zero_point"}, {"output"}, "dequant_output");
  return m;
}

// A residual block: Conv-Relu-Conv, Add with the block input, Relu.
ModelBuilder residual_block() {
  ModelBuilder m("residual_block");
  m.input("input", BF16, {1, 16, 16, 16}).output("output", BF16, {1, 16, 16, 16});
  m.initializer("w1", BF16, {16, 16, 3, 3}).initializer("w2", BF16, {16, 16, 3, 3});
  m.node("Conv", {"input", "w1"}, {"c1"}, "Conv1").attr("kernel_shape", Shape{3, 3}).attr("pads", Shape{1, 1, 1, 1});
  m.node("Relu", {"c1"}, {"r1"}, "Relu1");
  m.node("Conv", {"r1", "w2"}, {"c2"}, "Conv2").attr("kernel_shape", Shape{3, 3}).attr("pads", Shape{1, 1, 1, 1});
  m.node("Add", {"c2", "input"}, {"sum"}, "Add1");
  m.node("Relu", {"sum"}, {"output"}, "Relu2");
  return m;
}

// A small CNN with pooling and an Inception-style Concat, ending in a classifier.
ModelBuilder cnn_concat_pool() {
  ModelBuilder m("cnn_concat_pool");
  m.input("input", F32, {1, 3, 32, 32}).output("logits", F32, {1, 10});
  m.initializer("w_stem", F32, {16, 3, 3, 3}).initializer("b_stem", F32, {16});
  m.initializer("w_a", F32, {8, 16, 1, 1}).initializer("w_b", F32, {24, 16, 3, 3});
  m.initializer("w_fc", F32, {10, 32}).initializer("b_fc", F32, {10});
  m.node("Conv", {"input", "w_stem", "b_stem"}, {"stem"}, "stem_conv").attr("kernel_shape", Shape{3, 3}).attr("pads", Shape{1, 1, 1, 1});
  m.node("Relu", {"stem"}, {"stem_relu"}, "stem_relu");
  m.node("MaxPool", {"stem_relu"}, {"pooled"}, "pool").attr("kernel_shape", Shape{2, 2}).attr("strides", Shape{2, 2});
  m.node("Conv", {"pooled", "w_a"}, {"branch_a"}, "branch_a").attr("kernel_shape", Shape{1, 1});
  m.node("Conv", {"pooled", "w_b"}, {"branch_b"}, "branch_b").attr("kernel_shape", Shape{3, 3}).attr("pads", Shape{1, 1, 1, 1});
  m.node("Concat", {"branch_a", "branch_b"}, {"mixed"}, "concat").attr("axis", 1);
  m.node("AveragePool", {"mixed"}, {"smoothed"}, "avgpool")
      .attr("kernel_shape", Shape{3, 3}).attr("strides", Shape{1, 1}).attr("pads", Shape{1, 1, 1, 1});
  m.node("GlobalAveragePool", {"smoothed"}, {"gap"}, "gap");
  m.node("Flatten", {"gap"}, {"flat"}, "flatten").attr("axis", 1);
  m.node("Gemm", {"flat", "w_fc", "b_fc"}, {"logits"}, "fc").attr("transB", 1);
  return m;
}

}  // namespace

// ResNet-18 (torchvision's layout, batch norm folded into the convolutions as a deployment export
// does) at its deployment precision: int8 activations and weights, int32 biases; 224x224 input.
// Names as PyTorch's exporter gives them (the reference's resnet18.onnx): node and initializer
// names order the automatic path (ir/name_order.hpp), so they are part of the model.
class ResNet18Int8 {
 public:
  ModelBuilder build() {
    m_.input("input.1", I8, {1, 3, 224, 224}).output("191", I8, {1, 1000});
    auto x = conv("input.1", "/conv1/Conv", 3, 64, 7, 2);
    x = relu(x, "/relu/Relu");
    m_.node("MaxPool", {x}, {"/maxpool/MaxPool_output_0"}, "/maxpool/MaxPool")
        .attr("kernel_shape", Shape{3, 3}).attr("strides", Shape{2, 2}).attr("pads", Shape{1, 1, 1, 1});
    x = "/maxpool/MaxPool_output_0";
    std::int64_t c = 64;
    for (int layer = 1; layer <= 4; ++layer) {
      const std::int64_t out = 64 << (layer - 1);
      for (int block = 0; block < 2; ++block) {
        x = basic_block(x, "/layer" + std::to_string(layer) + "/layer" + std::to_string(layer) + "." + std::to_string(block), c,
                        out, block == 0 && layer > 1 ? 2 : 1);
        c = out;
      }
    }
    m_.node("GlobalAveragePool", {x}, {"/avgpool/GlobalAveragePool_output_0"}, "/avgpool/GlobalAveragePool");
    m_.node("Flatten", {"/avgpool/GlobalAveragePool_output_0"}, {"/Flatten_output_0"}, "/Flatten").attr("axis", 1);
    m_.initializer("fc.weight", I8, {1000, 512}).initializer("fc.bias", I32, {1000});
    m_.node("Gemm", {"/Flatten_output_0", "fc.weight", "fc.bias"}, {"191"}, "/fc/Gemm").attr("transB", 1);
    return m_;
  }

 private:
  std::string conv(const std::string& x, const std::string& name, std::int64_t cin, std::int64_t cout, std::int64_t k,
                   std::int64_t stride) {
    const std::string w = "onnx::Conv_" + std::to_string(next_id_), b = "onnx::Conv_" + std::to_string(next_id_ + 1),
                      y = name + "_output_0";
    next_id_ += 3;
    m_.initializer(w, I8, {cout, cin, k, k}).initializer(b, I32, {cout});
    m_.node("Conv", {x, w, b}, {y}, name).attr("kernel_shape", Shape{k, k}).attr("strides", Shape{stride, stride})
        .attr("pads", Shape{k / 2, k / 2, k / 2, k / 2});
    return y;
  }
  std::string relu(const std::string& x, const std::string& name) {
    m_.node("Relu", {x}, {name + "_output_0"}, name);
    return name + "_output_0";
  }
  std::string basic_block(const std::string& x, const std::string& p, std::int64_t cin, std::int64_t cout, std::int64_t stride) {
    auto y = relu(conv(x, p + "/conv1/Conv", cin, cout, 3, stride), p + "/relu/Relu");
    y = conv(y, p + "/conv2/Conv", cout, cout, 3, 1);
    const auto skip = stride == 1 && cin == cout ? x : conv(x, p + "/downsample/downsample.0/Conv", cin, cout, 1, stride);
    m_.node("Add", {y, skip}, {p + "/Add_output_0"}, p + "/Add");
    return relu(p + "/Add_output_0", p + "/relu_1/Relu");
  }
  ModelBuilder m_{"resnet18_int8", 14};
  int next_id_ = 193;  // the exporter's value numbering: weight, bias, then the output it folded
};

// FSRCNN (the reference's fsrcnn.onnx: feature extraction 5x5 to 56 channels, shrinking to 12,
// four 3x3 mapping layers, expanding to 56, a 3x3 reconstruction to 16) on a 540x960 frame, int8.
ModelBuilder fsrcnn_int8() {
  ModelBuilder m("fsrcnn_int8", 14);
  m.input("input", I8, {1, 1, 540, 960}).output("output", I8, {1, 16, 540, 960});
  const struct { std::int64_t cin, cout, k; } layers[] = {{1, 56, 5},  {56, 12, 1}, {12, 12, 3}, {12, 12, 3},
                                                           {12, 12, 3}, {12, 12, 3}, {12, 56, 1}, {56, 16, 3}};
  std::string x = "input";
  for (int i = 0; i < 8; ++i) {
    const auto& l = layers[i];
    const std::string w = "weights_" + std::to_string(i), y = i == 7 ? "output" : "output_" + std::to_string(i);
    m.initializer(w, I8, {l.cout, l.cin, l.k, l.k});
    m.node("Conv", {x, w}, {y}, "Conv" + std::to_string(i + 1)).attr("kernel_shape", Shape{l.k, l.k})
        .attr("pads", Shape{l.k / 2, l.k / 2, l.k / 2, l.k / 2});
    x = y;
  }
  return m;
}

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: stream-gen-workloads <output-dir>\n";
    return 2;
  }
  const std::filesystem::path dir = argv[1];
  std::filesystem::create_directories(dir);
  const std::pair<const char*, ModelBuilder> models[] = {
      {"2conv_1_8_32_32_16_32_3.onnx", two_conv()},
      {"swiglu_1_16_32.onnx", swiglu(1, 16, 32)},
      {"attention_pytorch.onnx", attention_pytorch()},
      {"attention_jax.onnx", attention_jax()},
      {"attention_per_head.onnx", attention_per_head()},
      {"qdq_conv_int8.onnx", qdq_conv()},
      {"residual_block.onnx", residual_block()},
      {"cnn_concat_pool.onnx", cnn_concat_pool()},
      {"resnet18_int8.onnx", ResNet18Int8().build()},
      {"fsrcnn_int8.onnx", fsrcnn_int8()},
  };
  // The two pinned AIE cases of the reference's test_cross_backend.py (aie-and-defaults §3.2, §3.3).
  const std::pair<const char*, ModelBuilder> aie_models[] = {
      {"aie/gemm_256_8192_2048.onnx", gemm(256, 8192, 2048)},
      {"aie/swiglu_256_512_2048.onnx", swiglu(256, 512, 2048)},
  };
  std::filesystem::create_directories(dir / "aie");
  auto save = [&](const auto& list) {
    for (const auto& [name, model] : list) {
      model.save(dir / name);
      std::cout << "wrote " << (dir / name).string() << "\n";
    }
  };
  save(models);
  save(aie_models);
  return 0;
}
