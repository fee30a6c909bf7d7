#include "parser_util.hpp"
#include "stream_onnx/onnx_frontend.hpp"

namespace stream::onnx_frontend {
namespace {

std::vector<ParserEntry> all_parsers() {
  std::vector<ParserEntry> out;
  add_linear_algebra_parsers(out);
  add_pooling_parsers(out);
  add_normalization_parsers(out);
  add_elementwise_parsers(out);
  add_movement_parsers(out);
  add_layout_parsers(out);
  add_resize_parsers(out);
  add_conv_transpose_parsers(out);
  add_depth_space_parsers(out);
  add_tile_range_parsers(out);
  add_logic_parsers(out);
  add_selection_parsers(out);
  add_quantized_parsers(out);
  add_recurrent_parsers(out);
  add_scatter_parsers(out);
  add_attention_parsers(out);
  add_element_index_parsers(out);
  add_loss_parsers(out);
  add_sampling_parsers(out);
  add_dft_parsers(out);
  add_causal_conv_parsers(out);
  add_linear_attention_parsers(out);
  add_gather_nd_parsers(out);
  add_generator_parsers(out);
  add_group_norm_parsers(out);
  add_deform_conv_parsers(out);
  add_region_read_parsers(out);
  return out;
}

}  // namespace

std::vector<std::string> builtin_op_types() {
  std::vector<std::string> out;
  for (auto& [op, parser] : all_parsers()) out.push_back(op);
  return out;
}

void register_builtin_parsers(PluginRegistrar& registrar) {
  for (auto& [op, parser] : all_parsers()) registrar.add_onnx_parser(op, std::move(parser));
}

void register_onnx_frontend(PluginRegistrar& registrar) {
  registrar.add_frontend(make_onnx_frontend());
  register_builtin_parsers(registrar);
}

}  // namespace stream::onnx_frontend
