// Helpers shared by the built-in ONNX operator parsers: operand lookup with errors that name the
// node and tensor, NumPy-style broadcasting maps, axis normalisation, and the registration list.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <stream/ir/affine_map.hpp>
#include <stream/ir/node.hpp>
#include <stream/registry/onnx_parsers.hpp>

namespace stream::onnx_frontend {

/// The tensor of input i; fails naming the node when the input is absent.
TensorPtr input_tensor(const OnnxNodeView& v, OnnxParseContext& ctx, std::size_t i);
/// The tensor of output i; fails naming the node when the output is absent.
TensorPtr output_tensor(const OnnxNodeView& v, OnnxParseContext& ctx, std::size_t i);
/// Number of present inputs (omitted optional inputs have an empty name).
[[nodiscard]] bool has_input(const OnnxNodeView& v, std::size_t i);
/// Checks that input i exists and has the given rank range.
void require_inputs(const OnnxNodeView& v, std::size_t min_count);

/// Normalises a possibly negative axis against a rank; fails naming the node when out of range.
[[nodiscard]] int normalize_axis(const OnnxNodeView& v, std::int64_t axis, std::size_t rank);

/// Right-aligned NumPy broadcast of an operand shape onto an output iterated by dims 0..rank-1:
/// equal extents index with the output's dim, extent 1 with the constant 0.
[[nodiscard]] AffineMap broadcast_map(const OnnxNodeView& v, const Tensor& operand, const std::vector<std::int64_t>& out_shape,
                                      int num_dims);

/// A new tensor shaped like t with axis `axis` split into (groups, extent/groups): the grouped view
/// a grouped convolution reads and writes (conv_layout.hpp), named after the node and `role`.
[[nodiscard]] TensorPtr grouped_view(const OnnxNodeView& v, OnnxParseContext& ctx, const Tensor& t, std::size_t axis,
                                     std::int64_t groups, const std::string& role);

/// The ONNX default-domain opset of the node (0 when unknown).
[[nodiscard]] std::int64_t opset_of(const OnnxNodeView& v);

/// A read through `m` that may fall outside its tensor (padding, a crop, a recurrence's first
/// step): such points read nothing.
[[nodiscard]] AccessRelation masked(const AffineMap& m);

/// A read (or write) at a position the data of `index_tensor` chooses (Gather's indices, a grid,
/// offsets): `bound` is the nominal access, the position within it unknown until run time.
[[nodiscard]] AccessRelation routed_by(const AffineMap& bound, std::string index_tensor);

/// Fails naming Y when ONNX's shape inference gave Y another shape than the operator's own rule
/// (`rule`, e.g. "the blocksize") computes.
void check_output_shape(const OnnxNodeView& v, const Tensor& Y, const std::vector<std::int64_t>& expected,
                        const std::string& rule);

/// Readable loop names ("d0".. when not given) of the right count.
[[nodiscard]] std::vector<std::string> numbered_names(const std::string& prefix, std::size_t count);

/// An Einsum equation with spaces removed, the ellipsis expanded into one placeholder per
/// broadcast axis (right-aligned, '0', '1', ...), and the implicit output made explicit
/// (ellipsis axes first, then the letters used once, alphabetically). Empty when malformed.
struct EinsumTerms {
  std::vector<std::string> inputs;
  std::string output;
};
[[nodiscard]] std::optional<EinsumTerms> expand_einsum(const std::string& equation, const std::vector<std::size_t>& ranks);

using ParserEntry = std::pair<std::string, OnnxParser>;

// One registration list per parser family (see each parsers_*.cpp).
void add_linear_algebra_parsers(std::vector<ParserEntry>& out);   // Conv, Gemm, MatMul, Einsum
void add_pooling_parsers(std::vector<ParserEntry>& out);          // MaxPool, AveragePool, Global*, LRN
void add_normalization_parsers(std::vector<ParserEntry>& out);    // Softmax, LayerNorm, LpNorm, BatchNorm, ...
void add_elementwise_parsers(std::vector<ParserEntry>& out);      // unary, binary, variadic, Cast, QDQ residue
void add_movement_parsers(std::vector<ParserEntry>& out);         // Slice, Gather, Concat, Pad, Expand, Split, Reduce*
void add_layout_parsers(std::vector<ParserEntry>& out);           // Reshape, Transpose, Flatten, Squeeze, Unsqueeze
void add_resize_parsers(std::vector<ParserEntry>& out);           // Resize, Upsample
void add_conv_transpose_parsers(std::vector<ParserEntry>& out);   // ConvTranspose
void add_depth_space_parsers(std::vector<ParserEntry>& out);      // DepthToSpace, SpaceToDepth
void add_tile_range_parsers(std::vector<ParserEntry>& out);       // Tile, Range
void add_logic_parsers(std::vector<ParserEntry>& out);            // Where, Equal, Less, ..., And, Or, Xor, Not
void add_selection_parsers(std::vector<ParserEntry>& out);        // TopK, ArgMax, ArgMin
void add_quantized_parsers(std::vector<ParserEntry>& out);        // QLinearConv, QLinearMatMul, ConvInteger, MatMulInteger
void add_recurrent_parsers(std::vector<ParserEntry>& out);        // LSTM, GRU, RNN
void add_scatter_parsers(std::vector<ParserEntry>& out);          // ScatterND
void add_attention_parsers(std::vector<ParserEntry>& out);        // Attention, FlexAttention, RMSNormalization, RotaryEmbedding
void add_element_index_parsers(std::vector<ParserEntry>& out);    // GatherElements, ScatterElements, TensorScatter
void add_loss_parsers(std::vector<ParserEntry>& out);             // NegativeLogLikelihoodLoss, SoftmaxCrossEntropyLoss
void add_sampling_parsers(std::vector<ParserEntry>& out);         // GridSample, AffineGrid, CenterCropPad
void add_dft_parsers(std::vector<ParserEntry>& out);              // DFT
void add_causal_conv_parsers(std::vector<ParserEntry>& out);      // CausalConvWithState
void add_linear_attention_parsers(std::vector<ParserEntry>& out); // LinearAttention
void add_gather_nd_parsers(std::vector<ParserEntry>& out);        // GatherND
void add_generator_parsers(std::vector<ParserEntry>& out);        // OneHot, EyeLike, windows, random tensors
void add_group_norm_parsers(std::vector<ParserEntry>& out);       // GroupNormalization
void add_deform_conv_parsers(std::vector<ParserEntry>& out);      // DeformConv
void add_region_read_parsers(std::vector<ParserEntry>& out);      // RoiAlign, ReverseSequence

/// Input slots of an integer operator (QLinearConv, ...) that are scales or zero points, not data.
[[nodiscard]] std::vector<std::size_t> quantized_parameter_inputs(const std::string& op_type);
/// True for the comparisons and Where, whose single-element constant inputs are immediates.
[[nodiscard]] bool takes_immediates(const std::string& op_type);

}  // namespace stream::onnx_frontend
