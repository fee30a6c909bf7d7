#include "element_types.hpp"

#include <array>
#include <string_view>

namespace stream::onnx_frontend {
namespace {

struct OnnxType {
  std::string_view name;
  std::optional<DType> dtype;
};

// Indexed by code, 0 ... 26 (onnx.proto of ONNX 1.18+).
constexpr std::array<OnnxType, 27> kOnnxTypes{{
    {"UNDEFINED", std::nullopt},
    {"FLOAT", DType::f32},
    {"UINT8", DType::u8},
    {"INT8", DType::i8},
    {"UINT16", DType::u16},
    {"INT16", DType::i16},
    {"INT32", DType::i32},
    {"INT64", DType::i64},
    {"STRING", std::nullopt},
    {"BOOL", DType::b8},
    {"FLOAT16", DType::f16},
    {"DOUBLE", DType::f64},
    {"UINT32", DType::u32},
    {"UINT64", DType::u64},
    {"COMPLEX64", std::nullopt},
    {"COMPLEX128", std::nullopt},
    {"BFLOAT16", DType::bf16},
    {"FLOAT8E4M3FN", DType::f8e4m3fn},
    {"FLOAT8E4M3FNUZ", DType::f8e4m3fnuz},
    {"FLOAT8E5M2", DType::f8e5m2},
    {"FLOAT8E5M2FNUZ", DType::f8e5m2fnuz},
    {"UINT4", DType::u4},
    {"INT4", DType::i4},
    {"FLOAT4E2M1", DType::f4e2m1},
    {"FLOAT8E8M0", DType::f8e8m0},
    {"UINT2", DType::u2},
    {"INT2", DType::i2},
}};

const OnnxType* onnx_type_entry(int code) {
  if (code < 0 || code >= static_cast<int>(kOnnxTypes.size())) return nullptr;
  return &kOnnxTypes[static_cast<std::size_t>(code)];
}

}  // namespace

std::optional<DType> dtype_of_onnx(int code) {
  const auto* t = onnx_type_entry(code);
  return t ? t->dtype : std::nullopt;
}

std::string onnx_type_name(int code) {
  const auto* t = onnx_type_entry(code);
  return t ? std::string(t->name) : "code " + std::to_string(code);
}

}  // namespace stream::onnx_frontend
