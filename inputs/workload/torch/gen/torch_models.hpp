// The programs behind the .pt2 fixtures, as torch.export would serialize them (training IR of
// torch 2.6+ unless stated). Shared by the generator and the tests (which rebuild variants).
#pragma once

#include "pt2_writer.hpp"

namespace stream::torch_testing {

/// x[4,16] -> Linear(16,32) -> ReLU -> Linear(32,8) -> ReLU, bf16 (training IR: aten.linear).
[[nodiscard]] ProgramBuilder mlp_training();
/// The same MLP after run_decompositions() (core ATen): permute + addmm.
[[nodiscard]] ProgramBuilder mlp_core_aten();
/// The training-IR MLP with a dynamic batch s0 (hint 4, range [2, 64]).
[[nodiscard]] ProgramBuilder mlp_dynamic();
/// x[1,8,32,32] -> Conv2d(8,16,3,p1)+bias -> ReLU -> Conv2d(16,16,3,p1) -> + residual -> ReLU, bf16.
[[nodiscard]] ProgramBuilder conv_block();
/// Multi-head attention written the PyTorch way (x[1,128,512], 8 heads of 64, bias-free
/// projections, view/transpose/contiguous), the same computation as inputs/workload/attention_pytorch.onnx.
[[nodiscard]] ProgramBuilder attention();

}  // namespace stream::torch_testing
