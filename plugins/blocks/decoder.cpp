// `decoder_layer` and `decoder_stack`: pre-norm LLM decoder layers built from the tested blocks.
//
// A layer is RMSNorm -> attention (multi-head, or grouped-query when kv_heads < heads) -> residual
// add -> RMSNorm -> SwiGLU -> residual add, on activations [batch, seq, d_model] with
// d_model = heads * d_head. A stack chains `layers` of them, layer i's names prefixed "layer<i>_",
// each layer with its own weights, so whole LLMs can be mapped without an ONNX export.
#include <stream/error.hpp>

#include "blocks.hpp"

namespace stream::blocks {

namespace {

struct DecoderConfig {
  std::int64_t batch, seq, heads, kv_heads, d_head, d_ff;
};

DecoderConfig read_config(const BlockParams& params, const std::string& block) {
  DecoderConfig c{positive_int(params, block, "batch"),  positive_int(params, block, "seq"),
                  positive_int(params, block, "heads"),  params.get_int("kv_heads"),
                  positive_int(params, block, "d_head"), positive_int(params, block, "d_ff")};
  if (c.kv_heads == 0) c.kv_heads = c.heads;
  if (c.kv_heads < 0)
    throw Error("block '" + block + "': parameter 'kv_heads' must be >= 0, got " + std::to_string(c.kv_heads));
  if (c.heads % c.kv_heads != 0)
    throw Error("block '" + block + "': heads (" + std::to_string(c.heads) + ") must be a multiple of kv_heads (" +
                std::to_string(c.kv_heads) + ")");
  return c;
}

std::vector<BlockParam> decoder_params() {
  return {{"batch", ParamType::Int, "1", "batch size"},
          {"seq", ParamType::Int, "128", "sequence length"},
          {"heads", ParamType::Int, "8", "query heads"},
          {"kv_heads", ParamType::Int, "0", "K/V heads (0 or = heads: multi-head attention; fewer: GQA)"},
          {"d_head", ParamType::Int, "64", "head dimension (d_model = heads * d_head)"},
          {"d_ff", ParamType::Int, "1536", "SwiGLU hidden dimension"},
          dtype_param()};
}

/// Grouped-query attention with its projections on x[b,s,D]: returns `<p>y` [b,s,D].
TensorPtr gqa_attention(GraphBuilder& g, const std::string& p, const TensorPtr& x, std::int64_t groups,
                        std::int64_t reps, std::int64_t e) {
  const std::int64_t b = x->shape.at(0), s = x->shape.at(1), D = x->shape.at(2);
  TensorPtr wq = g.input(p + "Wq", {D, groups, reps, e});
  TensorPtr q = g.tensor(p + "q", {b, groups, reps, s, e});
  g.compute(p + "proj_q", "MatMul", {x, wq}, {q},
            {dims_map(6, {0, 3, 5}), dims_map(6, {5, 1, 2, 4}), dims_map(6, {0, 1, 2, 3, 4})},
            {"b", "g", "r", "s", "e", "k"});
  TensorPtr kv[2];
  const char* names[2] = {"k", "v"};
  for (int n = 0; n < 2; ++n) {
    const std::string id = names[n];
    TensorPtr w = g.input(p + "W" + id, {D, groups, e});
    kv[n] = g.tensor(p + id, {b, groups, s, e});
    g.compute(p + "proj_" + id, "MatMul", {x, w}, {kv[n]},
              {dims_map(5, {0, 2, 4}), dims_map(5, {4, 1, 3}), dims_map(5, {0, 1, 2, 3})},
              {"b", "g", "s", "e", "k"});
  }
  TensorPtr context = gqa_core(g, p, q, kv[0], kv[1]);
  TensorPtr wo = g.input(p + "Wo", {groups, reps, e, D});
  TensorPtr y = g.tensor(p + "y", {b, s, D});
  g.compute(p + "out_proj", "MatMul", {context, wo}, {y},
            {dims_map(6, {0, 3, 4, 1, 5}), dims_map(6, {3, 4, 5, 2}), dims_map(6, {0, 1, 2})},
            {"b", "s", "o", "g", "r", "e"});
  return y;
}

TensorPtr decoder_layer_part(GraphBuilder& g, const std::string& p, const TensorPtr& x, const DecoderConfig& c) {
  const AffineMap id = AffineMap::identity(3);
  TensorPtr attn_in = rmsnorm_part(g, p + "attn_norm_", x);
  TensorPtr attn_out = c.kv_heads == c.heads
                           ? attention_part(g, p + "attn_", attn_in, c.heads, c.d_head)
                           : gqa_attention(g, p + "attn_", attn_in, c.kv_heads, c.heads / c.kv_heads, c.d_head);
  TensorPtr h = g.tensor(p + "h", x->shape);
  g.compute(p + "attn_residual", "Add", {x, attn_out}, {h}, {id, id, id}, {"b", "s", "d"});
  TensorPtr ffn_in = rmsnorm_part(g, p + "ffn_norm_", h);
  TensorPtr ffn_out = swiglu_part(g, p + "ffn_", ffn_in, c.d_ff);
  TensorPtr out = g.tensor(p + "out", x->shape);
  g.compute(p + "ffn_residual", "Add", {h, ffn_out}, {out}, {id, id, id}, {"b", "s", "d"});
  return out;
}

Workload build_stack(const BlockParams& params, const std::string& block, std::int64_t layers, bool prefixed) {
  const DecoderConfig c = read_config(params, block);
  GraphBuilder g(params.get_dtype("dtype"));
  TensorPtr x = g.input("x", {c.batch, c.seq, c.heads * c.d_head});
  for (std::int64_t i = 0; i < layers; ++i)
    x = decoder_layer_part(g, prefixed ? "layer" + std::to_string(i) + "_" : "", x, c);
  g.output("y", x);
  return std::move(g).build();
}

}  // namespace

BlockSpec decoder_layer_spec() {
  BlockSpec spec;
  spec.key = "decoder_layer";
  spec.label = "Decoder Layer";
  spec.description =
      "Pre-norm LLM decoder layer: RMSNorm, attention (GQA when kv_heads < heads), residual add, RMSNorm, "
      "SwiGLU MLP, residual add.";
  spec.params = decoder_params();
  spec.build = [](const BlockParams& params) { return build_stack(params, "decoder_layer", 1, false); };
  return spec;
}

BlockSpec decoder_stack_spec() {
  BlockSpec spec;
  spec.key = "decoder_stack";
  spec.label = "Decoder Stack";
  spec.description =
      "`layers` chained decoder layers (each with its own weights, names prefixed layer<i>_): a whole "
      "LLM body.";
  spec.params = decoder_params();
  spec.params.insert(spec.params.begin(), BlockParam{"layers", ParamType::Int, "4", "decoder layers"});
  spec.build = [](const BlockParams& params) {
    return build_stack(params, "decoder_stack", positive_int(params, "decoder_stack", "layers"), true);
  };
  return spec;
}

}  // namespace stream::blocks
