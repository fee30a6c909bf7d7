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
constexpr std::array<DTypeInfo, 9> kTypes{{
    {DType::f32, 32, "f32", "float32"},
    {DType::f16, 16, "f16", "float16"},
    {DType::bf16, 16, "bf16", "bfloat16"},
    {DType::i8, 8, "i8", "int8"},
    {DType::u8, 8, "u8", "uint8"},
    {DType::i16, 16, "i16", "int16"},
    {DType::i32, 32, "i32", "int32"},
    {DType::i64, 64, "i64", "int64"},
    {DType::b8, 8, "bool", "boolean"},
}};
const DTypeInfo& info(DType t) { return kTypes[static_cast<std::size_t>(t)]; }
}  // namespace

int bits(DType t) { return info(t).bits; }
std::string_view name(DType t) { return info(t).name; }

std::optional<DType> parse_dtype(std::string_view text) {
  for (const auto& i : kTypes)
    if (text == i.name || text == i.long_name) return i.type;
  if (text == "float") return DType::f32;
  if (text == "half") return DType::f16;
  if (text == "b8") return DType::b8;
  return std::nullopt;
}

DType dtype_from_string(std::string_view text, std::string_view what) {
  if (auto t = parse_dtype(text)) return *t;
  throw Error("unsupported " + std::string(what) + " '" + std::string(text) +
              "' (supported: f32, f16, bf16, i8, u8, i16, i32, i64, bool)");
}

}  // namespace stream
