// The reference blocks (workload-spec §4) and the decoder layers built from them.
//
// Each block is a BlockSpec (key, label, typed parameters with defaults, builder). The parts
// below are the building pieces several blocks share: a block with an empty prefix is exactly
// the spec's block, and the decoder layers reuse the same pieces under a per-layer prefix so a
// whole LLM is a chain of the very subgraphs that are tested one by one.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <stream/registry/blocks.hpp>

#include "graph_builder.hpp"

namespace stream::blocks {

// --- the blocks, in the reference's registration order, then the decoder blocks ---
[[nodiscard]] BlockSpec attention_spec();
[[nodiscard]] BlockSpec gqa_spec();
[[nodiscard]] BlockSpec linear_attention_spec();
[[nodiscard]] BlockSpec mamba_spec();
[[nodiscard]] BlockSpec kv_cache_spec();
[[nodiscard]] BlockSpec swiglu_spec();
[[nodiscard]] BlockSpec rmsnorm_spec();
[[nodiscard]] BlockSpec moe_spec();
[[nodiscard]] BlockSpec chunked_ssm_spec();
[[nodiscard]] BlockSpec flash_attention_spec();
[[nodiscard]] BlockSpec decoder_layer_spec();
[[nodiscard]] BlockSpec decoder_stack_spec();

/// Every block above, in that order (what the plugin registers and its manifest lists).
[[nodiscard]] std::vector<BlockSpec> all_block_specs();

/// The "dtype" parameter every block has (bf16 by default).
[[nodiscard]] BlockParam dtype_param();

// --- shared pieces; every node and tensor name is `prefix` + the spec's name ---

/// Multi-head attention on x[b,s,D] (D = heads*d_head): inputs Wq/Wk/Wv interleaved with the
/// projections, scores, softmax, context, Wo, out_proj. Returns `<prefix>y` [b,s,D].
TensorPtr attention_part(GraphBuilder& g, const std::string& prefix, const TensorPtr& x, std::int64_t heads,
                         std::int64_t d_head);
/// Grouped-query attention core on q[b,g,r,s,e], k[b,g,s,e], v[b,g,s,e]: scores, softmax,
/// context. Returns `<prefix>context` [b,g,r,s,e].
TensorPtr gqa_core(GraphBuilder& g, const std::string& prefix, const TensorPtr& q, const TensorPtr& k,
                   const TensorPtr& v);
/// SwiGLU MLP on x[lead..., D]: W_gate, W_up, W_down, gate_proj, up_proj, silu, gate_mul,
/// down_proj. Returns `<prefix>y` [lead..., D].
TensorPtr swiglu_part(GraphBuilder& g, const std::string& prefix, const TensorPtr& x, std::int64_t d_ff);
/// RMSNorm over the last axis of x: gamma, the RMSNormalization node `<prefix>rmsnorm` and the
/// scale Mul. Returns `<prefix>y`.
TensorPtr rmsnorm_part(GraphBuilder& g, const std::string& prefix, const TensorPtr& x);

}  // namespace stream::blocks
