// Reference blocks: parameterised workload builders (attention, GQA, SwiGLU, ...).
//
// A block has a key, a label, a description and typed parameters with defaults. Parameters arrive
// as strings (from `--param k=v`) and are checked against the spec before build() runs: an
// unknown name or a value of the wrong type is an error listing the valid parameters. A parameter
// may also answer to aliases.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "stream/export.hpp"
#include "stream/ir/workload.hpp"

namespace stream {

enum class ParamType { Int, Float, Bool, String, DType };

[[nodiscard]] STREAM_API std::string_view name(ParamType t);

struct BlockParam {
  std::string name;
  ParamType type = ParamType::Int;
  std::string default_value;  ///< in the same textual form a user passes
  std::string description;
  /// Other names a user may give it: `seq` for a block whose sequence length is `tokens`, so that
  /// one sweep axis reaches the sequence length of every block.
  std::vector<std::string> aliases = {};
};

/// Parameter values after defaults are applied and types checked.
class STREAM_API BlockParams {
 public:
  BlockParams() = default;
  explicit BlockParams(std::map<std::string, std::string> values) : values_(std::move(values)) {}
  [[nodiscard]] std::int64_t get_int(const std::string& key) const;
  [[nodiscard]] double get_float(const std::string& key) const;
  [[nodiscard]] bool get_bool(const std::string& key) const;
  [[nodiscard]] std::string get_string(const std::string& key) const;
  [[nodiscard]] DType get_dtype(const std::string& key) const;
  [[nodiscard]] const std::map<std::string, std::string>& values() const { return values_; }

 private:
  std::map<std::string, std::string> values_;
};

struct STREAM_API BlockSpec {
  std::string key;
  std::string label;
  std::string description;
  std::vector<BlockParam> params;
  std::function<Workload(const BlockParams&)> build;

  /// Applies defaults and checks names and types; throws a stream::Error listing valid parameters.
  [[nodiscard]] BlockParams resolve(const std::map<std::string, std::string>& given) const;
};

}  // namespace stream
