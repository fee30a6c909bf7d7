// Operator decompositions (workload-spec §5.1, §5.3): one node -> a workload of affine sub-operators.
//
// Each decomposition returns Workload([InEdge per distinct input, sub-operators..., OutEdge per
// output]). The sub-operators read the node's own input tensors and write its own output tensors,
// so the result splices into the enclosing workload in place of the node; intermediate tensors are
// named "<node>_<role>". Every sub-operator carries fused_kernel "<OpType>:<node name>", which is
// what lets a later pass collapse them back into the node. Bad input (wrong node kind, arity or
// shapes) is a stream::Error naming the node.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include <stream/registry/decompositions.hpp>

namespace stream::decompositions {

/// Safe softmax: ReduceMax, Exp (of x - max), ReduceSum, Div.
[[nodiscard]] Workload decompose_softmax(const Node& node);
/// L2 normalisation: ReduceSumSquare, Sqrt, Div.
[[nodiscard]] Workload decompose_lp_normalization(const Node& node);
/// Layer normalisation: ReduceMean, Sub, ReduceSumSquare (variance), Sqrt, Div, then Mul by the
/// scale and Add of the bias when the node has them as inputs 1 and 2.
[[nodiscard]] Workload decompose_layer_normalization(const Node& node);
/// RMS normalisation: ReduceSumSquare, Sqrt, Div, then Mul by the scale when the node has it as input 1.
[[nodiscard]] Workload decompose_rms_normalization(const Node& node);
/// One flash-attention block (online-softmax step): scores, block max, running max, exp, sum,
/// context, rescale and the two ScaleAdd updates of l and o.
[[nodiscard]] Workload decompose_attention_block(const Node& node);

/// (op type, decomposer) for everything above, in registration order.
[[nodiscard]] std::vector<std::pair<std::string, Decomposer>> all_decompositions();

}  // namespace stream::decompositions
