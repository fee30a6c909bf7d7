// ONNX element types (TensorProto.DataType codes) as Stream's DTypes and as names.
//
// How a code newer than the linked libonnx arrives: Debian's libonnx is 1.12, whose onnx.proto
// enumerates DataType only up to 16 (BFLOAT16). The fields that carry a code are not of that enum
// type, though: TypeProto.Tensor.elem_type, TensorProto.data_type and Cast's `to` (an INT
// attribute) are all declared `int32`, so protobuf keeps 17 (FLOAT8E4M3FN) ... 26 (INT2) as plain
// numbers; they do not go to the unknown fields, as they would for an `enum` field of proto2.
// What 1.12 does not know is only the enum's name table (TensorProto_DataType_Name gives "") and
// its validity check (ONNX's Cast inference rejects `to: 17` as "not a valid type"); this file
// carries the codes, widths and names itself, and static_shapes.cpp types such Cast outputs.
#pragma once

#include <optional>
#include <string>

#include <stream/ir/dtype.hpp>

namespace stream::onnx_frontend {

/// TensorProto.DataType codes, including those newer than libonnx 1.12's enum.
namespace onnx_code {
inline constexpr int kUndefined = 0, kFloat = 1, kUint8 = 2, kInt8 = 3, kUint16 = 4, kInt16 = 5, kInt32 = 6, kInt64 = 7,
                     kString = 8, kBool = 9, kFloat16 = 10, kDouble = 11, kUint32 = 12, kUint64 = 13, kComplex64 = 14,
                     kComplex128 = 15, kBfloat16 = 16, kFloat8E4M3FN = 17, kFloat8E4M3FNUZ = 18, kFloat8E5M2 = 19,
                     kFloat8E5M2FNUZ = 20, kUint4 = 21, kInt4 = 22, kFloat4E2M1 = 23, kFloat8E8M0 = 24, kUint2 = 25,
                     kInt2 = 26;
}  // namespace onnx_code

/// Stream's type of an ONNX element type code; nullopt for the ones Stream does not model
/// (undefined, string, complex, codes beyond 26). int64 and bool map to i64 and bool: whether a
/// value of those types is data or shape metadata is the loader's decision.
[[nodiscard]] std::optional<DType> dtype_of_onnx(int code);

/// The ONNX name of a code ("FLOAT8E4M3FN"), also for codes libonnx 1.12 does not name; "code N"
/// for a number ONNX does not define.
[[nodiscard]] std::string onnx_type_name(int code);

}  // namespace stream::onnx_frontend
