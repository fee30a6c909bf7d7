#include "stream/ir/dtype.hpp"

#include <array>
#include <utility>

#include "stream/error.hpp"

namespace stream {

namespace {
struct DTypeInfo {
  DType type;
  int bits;
  std::string_view name;
  std::string_view long_name;
};
// In enum order (info() indexes it by the enum's value).
constexpr std::array<DTypeInfo, 23> kTypes{{
    {DType::f32, 32, "f32", "float32"},
    {DType::f16, 16, "f16", "float16"},
    {DType::bf16, 16, "bf16", "bfloat16"},
    {DType::i8, 8, "i8", "int8"},
    {DType::u8, 8, "u8", "uint8"},
    {DType::i16, 16, "i16", "int16"},
    {DType::i32, 32, "i32", "int32"},
    {DType::i64, 64, "i64", "int64"},
    {DType::b8, 8, "bool", "boolean"},
    {DType::f64, 64, "f64", "float64"},
    {DType::u16, 16, "u16", "uint16"},
    {DType::u32, 32, "u32", "uint32"},
    {DType::u64, 64, "u64", "uint64"},
    {DType::f8e4m3fn, 8, "f8e4m3fn", "float8e4m3fn"},
    {DType::f8e4m3fnuz, 8, "f8e4m3fnuz", "float8e4m3fnuz"},
    {DType::f8e5m2, 8, "f8e5m2", "float8e5m2"},
    {DType::f8e5m2fnuz, 8, "f8e5m2fnuz", "float8e5m2fnuz"},
    {DType::f8e8m0, 8, "f8e8m0", "float8e8m0"},
    {DType::f4e2m1, 4, "f4e2m1", "float4e2m1"},
    {DType::i4, 4, "i4", "int4"},
    {DType::u4, 4, "u4", "uint4"},
    {DType::i2, 2, "i2", "int2"},
    {DType::u2, 2, "u2", "uint2"},
}};
const DTypeInfo& info(DType t) { return kTypes[static_cast<std::size_t>(t)]; }

constexpr bool in_enum_order() {
  for (std::size_t i = 0; i < kTypes.size(); ++i)
    if (static_cast<std::size_t>(kTypes[i].type) != i) return false;
  return true;
}
static_assert(in_enum_order(), "kTypes must list the DType values in enum order");
}  // namespace

int bits(DType t) { return info(t).bits; }
std::string_view name(DType t) { return info(t).name; }

std::optional<DType> parse_dtype(std::string_view text) {
  for (const auto& i : kTypes)
    if (text == i.name || text == i.long_name) return i.type;
  if (text == "float") return DType::f32;
  if (text == "double") return DType::f64;
  if (text == "half") return DType::f16;
  if (text == "b8") return DType::b8;
  return std::nullopt;
}

std::string dtype_names() {
  std::string out;
  for (const auto& i : kTypes) out += (out.empty() ? "" : ", ") + std::string(i.name);
  return out;
}

DType dtype_from_string(std::string_view text, std::string_view what) {
  if (auto t = parse_dtype(text)) return *t;
  throw Error("unsupported " + std::string(what) + " '" + std::string(text) + "' (supported: " + dtype_names() + ")");
}

}  // namespace stream
