// Parsing generated 2,000-node ONNX models end to end (protobuf read, ONNX shape inference,
// parsers, layout folding, Workload construction): a CNN of residual blocks, and a transformer
// stack written PyTorch-style (half of its layout ops fold away); and a chain of N Relu nodes
// (N up to 20,000), parsed and run end to end, where any per-node cost that grows with N shows;
// and MaxViT-like window/grid attention blocks, whose layout folding must stay linear in N.
#include <benchmark/benchmark.h>

#include <filesystem>

#include <stream/hardware/accelerator_reader.hpp>
#include <stream/pipeline/run.hpp>
#include <stream/registry/registries.hpp>

#include "model_builder.hpp"
#include "stream_onnx/onnx_frontend.hpp"

using namespace stream;
using namespace stream::onnx_testing;

namespace {

Registries& registries() {
  static Registries r = [] {
    Registries reg;
    PluginRegistrar registrar(reg, Provenance{"onnx-frontend", 0, 0});
    onnx_frontend::register_onnx_frontend(registrar);
    return reg;
  }();
  return r;
}

// 400 residual blocks of 5 nodes (Conv, Relu, Conv, Add, Relu): 2,000 nodes.
std::filesystem::path cnn_model() {
  ModelBuilder m("cnn2000");
  m.input("x0", BF16, {1, 16, 16, 16});
  std::string x = "x0";
  for (int b = 0; b < 400; ++b) {
    const auto p = "b" + std::to_string(b) + "_";
    m.initializer(p + "w1", BF16, {16, 16, 3, 3}).initializer(p + "w2", BF16, {16, 16, 3, 3});
    m.node("Conv", {x, p + "w1"}, {p + "c1"}, p + "conv1").attr("kernel_shape", Shape{3, 3}).attr("pads", Shape{1, 1, 1, 1});
    m.node("Relu", {p + "c1"}, {p + "r1"}, p + "relu1");
    m.node("Conv", {p + "r1", p + "w2"}, {p + "c2"}, p + "conv2").attr("kernel_shape", Shape{3, 3}).attr("pads", Shape{1, 1, 1, 1});
    m.node("Add", {p + "c2", x}, {p + "sum"}, p + "add");
    m.node("Relu", {p + "sum"}, {p + "out"}, p + "relu2");
    x = p + "out";
  }
  m.output(x, BF16, {1, 16, 16, 16});
  return m.save_temp("bench_cnn2000.onnx");
}

// Attention blocks with MatMul, Reshape, Transpose, Softmax and a residual Add: 16 nodes each,
// 125 blocks = 2,000 nodes, 1,000 of them layout ops.
std::filesystem::path transformer_model() {
  constexpr std::int64_t S = 64, D = 256, H = 4, Dh = 64;
  ModelBuilder m("transformer2000");
  m.input("x0", BF16, {1, S, D});
  m.int_initializer("heads", {1, S, H, Dh}).int_initializer("merged", {1, S, D});
  std::string x = "x0";
  for (int b = 0; b < 125; ++b) {
    const auto p = "b" + std::to_string(b) + "_";
    for (const char* w : {"wq", "wk", "wv", "wo"}) m.initializer(p + w, BF16, {D, D});
    for (const std::string t : {"q", "k", "v"}) {
      m.node("MatMul", {x, p + "w" + t}, {p + t}, p + "proj_" + t);
      m.node("Reshape", {p + t, "heads"}, {p + t + "_h"}, p + "reshape_" + t);
      m.node("Transpose", {p + t + "_h"}, {p + t + "_t"}, p + "transpose_" + t)
          .attr("perm", t == "k" ? Shape{0, 2, 3, 1} : Shape{0, 2, 1, 3});
    }
    m.node("MatMul", {p + "q_t", p + "k_t"}, {p + "s"}, p + "scores");
    m.node("Softmax", {p + "s"}, {p + "p"}, p + "softmax").attr("axis", -1);
    m.node("MatMul", {p + "p", p + "v_t"}, {p + "c"}, p + "context");
    m.node("Transpose", {p + "c"}, {p + "c_t"}, p + "transpose_c").attr("perm", Shape{0, 2, 1, 3});
    m.node("Reshape", {p + "c_t", "merged"}, {p + "c_m"}, p + "merge");
    m.node("MatMul", {p + "c_m", p + "wo"}, {p + "o"}, p + "out_proj");
    m.node("Add", {p + "o", x}, {p + "y"}, p + "residual");
    x = p + "y";
  }
  m.output(x, BF16, {1, S, D});
  return m.save_temp("bench_transformer2000.onnx");
}

// MaxViT-like blocks on a [1, 14, 14, 32] image: a window partition (7x7 windows) or a grid
// partition (a 2x2 grid) by Reshape/Transpose/Reshape, a qkv projection split into 2 heads by
// Reshape/Transpose/Gather, q k^T, Softmax, (.) v, the heads merged back, the reverse partition
// and a residual Add: 25 nodes a block, 12 of them layout ops, alternating window and grid.
std::filesystem::path maxvit_like_model(int blocks) {
  constexpr std::int64_t H = 14, C = 32, P = 7, G = 2, Heads = 2, Windows = (H / P) * (H / P), Pixels = P * P;
  ModelBuilder m("maxvit_like");
  m.input("x0", BF16, {1, H, H, C});
  m.int_initializer("win_view", {1, H / P, P, H / P, P, C}).int_initializer("grid_view", {1, G, H / G, G, H / G, C});
  m.int_initializer("flat", {Windows, Pixels, C}).int_initializer("qkv_view", {Windows, Pixels, 3, Heads, C / Heads});
  m.int_initializer("image", {1, H, H, C});
  for (int i = 0; i < 3; ++i) m.int_initializer("i" + std::to_string(i), {i}, false);
  std::string x = "x0";
  for (int b = 0; b < blocks; ++b) {
    const auto p = "b" + std::to_string(b) + "_";
    const bool grid = b % 2 == 1;
    // Window: (B, H/P, P, W/P, P, C) -> (B, H/P, W/P, P, P, C); grid: (B, G, H/G, G, W/G, C) -> (B, H/G, W/G, G, G, C).
    const Shape part = grid ? Shape{0, 2, 4, 1, 3, 5} : Shape{0, 1, 3, 2, 4, 5};
    const Shape unpart = grid ? Shape{0, 3, 1, 4, 2, 5} : Shape{0, 1, 3, 2, 4, 5};
    m.initializer(p + "wqkv", BF16, {C, 3 * C}).initializer(p + "wo", BF16, {C, C});
    m.node("Reshape", {x, grid ? "grid_view" : "win_view"}, {p + "v"}, p + "part_view");
    m.node("Transpose", {p + "v"}, {p + "t"}, p + "part_perm").attr("perm", part);
    m.node("Reshape", {p + "t", "flat"}, {p + "w"}, p + "part_flat");
    m.node("MatMul", {p + "w", p + "wqkv"}, {p + "qkv"}, p + "qkv");
    m.node("Reshape", {p + "qkv", "qkv_view"}, {p + "qkv_h"}, p + "qkv_view");
    m.node("Transpose", {p + "qkv_h"}, {p + "qkv_t"}, p + "qkv_perm").attr("perm", Shape{2, 0, 3, 1, 4});
    for (int i = 0; i < 3; ++i)
      m.node("Gather", {p + "qkv_t", "i" + std::to_string(i)}, {p + "h" + std::to_string(i)}, p + "head" + std::to_string(i))
          .attr("axis", std::int64_t{0});
    m.node("Transpose", {p + "h1"}, {p + "k_t"}, p + "k_perm").attr("perm", Shape{0, 1, 3, 2});
    m.node("MatMul", {p + "h0", p + "k_t"}, {p + "s"}, p + "scores");
    m.node("Softmax", {p + "s"}, {p + "a"}, p + "softmax").attr("axis", std::int64_t{-1});
    m.node("MatMul", {p + "a", p + "h2"}, {p + "c"}, p + "context");
    m.node("Transpose", {p + "c"}, {p + "c_t"}, p + "heads_perm").attr("perm", Shape{0, 2, 1, 3});
    m.node("Reshape", {p + "c_t", "flat"}, {p + "c_m"}, p + "heads_flat");
    m.node("MatMul", {p + "c_m", p + "wo"}, {p + "o"}, p + "out_proj");
    m.node("Reshape", {p + "o", grid ? "grid_view" : "win_view"}, {p + "r"}, p + "rev_view");
    m.node("Transpose", {p + "r"}, {p + "r_t"}, p + "rev_perm").attr("perm", unpart);
    m.node("Reshape", {p + "r_t", "image"}, {p + "r_i"}, p + "rev_flat");
    m.node("Add", {p + "r_i", x}, {p + "y"}, p + "residual");
    x = p + "y";
  }
  m.output(x, BF16, {1, H, H, C});
  return m.save_temp("bench_maxvit_like_" + std::to_string(blocks) + ".onnx");
}

// Linear in the blocks: before the fold's bounds, one block's refinements never ended.
void BM_ParseMaxVitLike(benchmark::State& state) {
  const auto path = maxvit_like_model(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    auto w = registries().load_workload(path);
    benchmark::DoNotOptimize(w.size());
  }
  state.counters["onnx_nodes"] = static_cast<double>(25 * state.range(0));
}

void BM_ParseCnn2000(benchmark::State& state) {
  const auto path = cnn_model();
  for (auto _ : state) {
    auto w = registries().load_workload(path);
    benchmark::DoNotOptimize(w.size());
  }
  state.counters["onnx_nodes"] = 2000;
}

void BM_ParseTransformer2000(benchmark::State& state) {
  const auto path = transformer_model();
  for (auto _ : state) {
    auto w = registries().load_workload(path);
    benchmark::DoNotOptimize(w.size());
  }
  state.counters["onnx_nodes"] = 2000;
}

// x0 -> Relu -> Relu -> ... (n nodes), 1x16x8x8 bf16.
std::filesystem::path relu_chain(int n) {
  ModelBuilder m("relu_chain");
  m.input("x0", BF16, {1, 16, 8, 8});
  for (int i = 0; i < n; ++i)
    m.node("Relu", {"x" + std::to_string(i)}, {"x" + std::to_string(i + 1)}, "relu" + std::to_string(i));
  m.output("x" + std::to_string(n), BF16, {1, 16, 8, 8});
  return m.save_temp("bench_relu_chain_" + std::to_string(n) + ".onnx");
}

void BM_ParseReluChain(benchmark::State& state) {
  const auto path = relu_chain(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    auto w = registries().load_workload(path);
    benchmark::DoNotOptimize(w.size());
  }
  state.counters["onnx_nodes"] = static_cast<double>(state.range(0));
}

// Parse, then the whole pipeline (automatic mapping, fusion groups, costs, MILPs) on the TPU-like quad core.
void BM_RunReluChain(benchmark::State& state) {
  const auto path = relu_chain(static_cast<int>(state.range(0)));
  const auto acc = hardware::load_accelerator(std::string(STREAM_INPUTS_DIR) + "/hardware/tpu_like_quad_core.yaml");
  for (auto _ : state) {
    const auto r = pipeline::run(registries().load_workload(path), acc);
    benchmark::DoNotOptimize(r.total_latency);
    state.counters["groups"] = static_cast<double>(r.groups.size());
  }
}

}  // namespace

BENCHMARK(BM_ParseReluChain)->Arg(2000)->Arg(20000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_RunReluChain)->Arg(2000)->Arg(20000)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ParseCnn2000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ParseTransformer2000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ParseMaxVitLike)->Arg(8)->Arg(80)->Unit(benchmark::kMillisecond);
