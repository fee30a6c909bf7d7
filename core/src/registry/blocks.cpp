#include "stream/registry/blocks.hpp"

#include <algorithm>
#include <array>
#include <optional>
#include <charconv>

#include "stream/error.hpp"

namespace stream {

std::string_view name(ParamType t) {
  static constexpr std::array<std::string_view, 5> names{"int", "float", "bool", "string", "dtype"};
  return names[static_cast<std::size_t>(t)];
}

namespace {

std::optional<std::int64_t> parse_int(const std::string& s) {
  std::int64_t v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
  return v;
}

std::optional<double> parse_float(const std::string& s) {
  try {
    std::size_t used = 0;
    double v = std::stod(s, &used);
    if (used != s.size()) return std::nullopt;
    return v;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

std::optional<bool> parse_bool(const std::string& s) {
  if (s == "true" || s == "1" || s == "yes") return true;
  if (s == "false" || s == "0" || s == "no") return false;
  return std::nullopt;
}

bool valid(ParamType t, const std::string& v) {
  switch (t) {
    case ParamType::Int:
      return parse_int(v).has_value();
    case ParamType::Float:
      return parse_float(v).has_value();
    case ParamType::Bool:
      return parse_bool(v).has_value();
    case ParamType::String:
      return true;
    case ParamType::DType:
      return parse_dtype(v).has_value();
  }
  return false;
}

}  // namespace

namespace {
const std::string& lookup(const std::map<std::string, std::string>& values, const std::string& key) {
  auto it = values.find(key);
  if (it == values.end()) throw Error("block parameter '" + key + "' is not defined", {}, ErrorKind::Internal);
  return it->second;
}
}  // namespace

std::int64_t BlockParams::get_int(const std::string& key) const {
  const auto& v = lookup(values_, key);
  if (auto i = parse_int(v)) return *i;
  throw Error("block parameter '" + key + "' = '" + v + "' is not an integer");
}
double BlockParams::get_float(const std::string& key) const {
  const auto& v = lookup(values_, key);
  if (auto f = parse_float(v)) return *f;
  throw Error("block parameter '" + key + "' = '" + v + "' is not a number");
}
bool BlockParams::get_bool(const std::string& key) const {
  const auto& v = lookup(values_, key);
  if (auto b = parse_bool(v)) return *b;
  throw Error("block parameter '" + key + "' = '" + v + "' is not a boolean (true/false)");
}
std::string BlockParams::get_string(const std::string& key) const { return lookup(values_, key); }
DType BlockParams::get_dtype(const std::string& key) const {
  return dtype_from_string(lookup(values_, key), "block parameter '" + key + "'");
}

BlockParams BlockSpec::resolve(const std::map<std::string, std::string>& given) const {
  auto valid_list = [this] {
    std::string s;
    for (const auto& p : params)
      s += (s.empty() ? "" : ", ") + p.name + " (" + std::string(name(p.type)) + ", default " + p.default_value +
           (p.aliases.empty() ? "" : ", also " + p.aliases.front()) + ")";
    return s.empty() ? std::string("none") : s;
  };
  std::map<std::string, std::string> values;
  for (const auto& p : params) values[p.name] = p.default_value;
  std::map<std::string, std::string> given_as;  ///< parameter -> the name it was given under
  for (const auto& entry : given) {
    const auto& k = entry.first;
    const auto& v = entry.second;
    auto it = std::find_if(params.begin(), params.end(), [&k](const BlockParam& p) {
      return p.name == k || std::find(p.aliases.begin(), p.aliases.end(), k) != p.aliases.end();
    });
    if (it == params.end())
      throw Error("block '" + key + "' has no parameter '" + k + "'; valid parameters: " + valid_list());
    if (!valid(it->type, v))
      throw Error("block '" + key + "': parameter '" + k + "' expects " + std::string(name(it->type)) + ", got '" + v + "'");
    if (!given_as.emplace(it->name, k).second)
      throw Error("block '" + key + "': parameter '" + it->name + "' is given twice (as '" + given_as[it->name] +
                  "' and '" + k + "')");
    values[it->name] = v;
  }
  return BlockParams(std::move(values));
}

}  // namespace stream
