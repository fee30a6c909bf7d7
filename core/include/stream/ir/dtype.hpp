// Element types.
//
// Every tensor keeps the element type its model gives it and nodes read and write at that width;
// there is no promotion. The supported set is closed (f32, f16, bf16, i8, u8, i16, i32, i64, bool):
// a frontend meeting anything else reports it as an error naming the tensor. The only property the
// pipeline uses is the bit width. bool is stored in a byte (8 bits), as ONNX and PyTorch store it;
// i64 is for data the model computes in int64 (ArgMax/TopK indices), not for shape arithmetic,
// which frontends drop as metadata.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "stream/export.hpp"

namespace stream {

enum class DType { f32, f16, bf16, i8, u8, i16, i32, i64, b8 };

[[nodiscard]] STREAM_API int bits(DType t);
[[nodiscard]] STREAM_API std::string_view name(DType t);  ///< "f32", "bf16", ...
/// Accepts our names and the usual long ones ("float32", "bfloat16", "int8", ...).
[[nodiscard]] STREAM_API std::optional<DType> parse_dtype(std::string_view text);
/// Like parse_dtype, but throws a stream::Error listing the accepted names.
[[nodiscard]] STREAM_API DType dtype_from_string(std::string_view text, std::string_view what = "element type");

}  // namespace stream
