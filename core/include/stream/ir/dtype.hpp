// Element types.
//
// Every tensor keeps the element type its model gives it and nodes read and write at that width;
// there is no promotion. The supported set is closed: the floating-point types f64, f32, f16,
// bf16, the 8-bit floats of ONNX (f8e4m3fn, f8e4m3fnuz, f8e5m2, f8e5m2fnuz, f8e8m0) and the 4-bit
// float f4e2m1, the signed and unsigned integers of 64, 32, 16, 8, 4 and 2 bits, and bool. A
// frontend meeting anything else (string, complex) reports it as an error naming the tensor. The
// only property the pipeline uses is the bit width: an FP8 tensor moves and occupies 8 bits per
// element, an INT4 tensor 4, packed as ONNX packs them (two per byte). bool is stored in a byte
// (8 bits), as ONNX and PyTorch store it; i64 is for data the model computes in int64
// (ArgMax/TopK indices, integer arithmetic on data), not for shape arithmetic, which frontends
// drop as metadata.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "stream/export.hpp"

namespace stream {

// Appended types keep the original ones' values (the order is not part of any file format: files
// carry the names).
enum class DType {
  f32, f16, bf16, i8, u8, i16, i32, i64, b8,
  f64, u16, u32, u64,
  f8e4m3fn, f8e4m3fnuz, f8e5m2, f8e5m2fnuz, f8e8m0, f4e2m1,
  i4, u4, i2, u2,
};

[[nodiscard]] STREAM_API int bits(DType t);
[[nodiscard]] STREAM_API std::string_view name(DType t);  ///< "f32", "bf16", "f8e4m3fn", "i4", ...
/// Accepts our names and the usual long ones ("float32", "bfloat16", "int8", "float8e4m3fn", ...).
[[nodiscard]] STREAM_API std::optional<DType> parse_dtype(std::string_view text);
/// Like parse_dtype, but throws a stream::Error listing the accepted names.
[[nodiscard]] STREAM_API DType dtype_from_string(std::string_view text, std::string_view what = "element type");
/// Our names of every type, comma-separated, for messages that list them.
[[nodiscard]] STREAM_API std::string dtype_names();

}  // namespace stream
