// The block catalogue the plugin registers.
#include "blocks.hpp"

namespace stream::blocks {

BlockParam dtype_param() {
  return {"dtype", ParamType::DType, "bf16", "element type of every tensor (f32, f16, bf16, i8, i4, f8e4m3fn, ...: any Stream type)"};
}

std::vector<BlockSpec> all_block_specs() {
  return {attention_spec(),   gqa_spec(),     linear_attention_spec(), mamba_spec(),
          kv_cache_spec(),    swiglu_spec(),  rmsnorm_spec(),          moe_spec(),
          chunked_ssm_spec(), flash_attention_spec(), decoder_layer_spec(), decoder_stack_spec()};
}

}  // namespace stream::blocks
