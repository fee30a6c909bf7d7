// Reading YAML the way the reference's PyYAML does, with positions: the one YAML layer under the
// hardware, mapping and run-configuration readers (it includes yaml-cpp, which only the core links).
//
// yaml-cpp is YAML 1.2-ish and its as<>() rejects what PyYAML (YAML 1.1) accepts in the
// reference's own files (`16_777_216`), so scalars are resolved here with the YAML 1.1 rules.
// yaml-cpp keeps both entries of a repeated mapping key; entries() keeps the first position and
// the later value (a Python dict fed pair by pair) and warns. MapReader is a tiny schema checker:
// typed getters that record a located error instead of throwing, and a final unknown-key check.
// Readers never recurse into values they do not understand, so aliases and cycles are harmless.
#pragma once

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <filesystem>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "stream/error.hpp"
#include "stream/diagnostics/diagnostics.hpp"
#include "stream/yaml/yaml_depth.hpp"

namespace stream::yamlx {

struct Ctx {
  std::string file;
  Diagnostics& diag;
};

/// 1-based position of `node` in ctx.file (line/column 0 when yaml-cpp has no mark).
[[nodiscard]] Location loc(const Ctx& ctx, const YAML::Node& node);

/// Reads a file into a string; records an error and returns nullopt when it cannot be read.
[[nodiscard]] std::optional<std::string> read_text(const std::filesystem::path& path, const std::string& label,
                                                   Diagnostics& diag);
/// Parses YAML text; records the parser error (with its position) and returns nullopt on failure.
/// An empty document gives a Null node. Text nested deeper than kMaxYamlDepth (yaml_depth.hpp) is
/// an error at the place it gets too deep, found before yaml-cpp reads it.
[[nodiscard]] std::optional<YAML::Node> parse(const std::string& text, const Ctx& ctx);
/// YAML::LoadFile with the same bound: text nested too deep throws YAML::ParserException at its
/// place, as a syntax error does, so that callers that catch YAML::Exception treat both alike.
[[nodiscard]] YAML::Node load_file(const std::filesystem::path& path);

// ---- YAML 1.1 scalar resolution (plain scalars only; quoted scalars are strings) ----
[[nodiscard]] bool is_quoted(const YAML::Node& n);
[[nodiscard]] bool is_null(const YAML::Node& n);
[[nodiscard]] std::optional<std::int64_t> to_int(const YAML::Node& n);  ///< overflow gives nullopt
[[nodiscard]] std::optional<double> to_number(const YAML::Node& n);     ///< int or float literal
[[nodiscard]] std::optional<bool> to_bool(const YAML::Node& n);
/// Any scalar's text (null -> nullopt). Used for names, where PyYAML would give an int or str.
[[nodiscard]] std::optional<std::string> to_text(const YAML::Node& n);
/// Short description of a value for messages: `'abc'`, `a list`, `a mapping`, `null`.
[[nodiscard]] std::string describe(const YAML::Node& n);
/// Integer text parse with YAML 1.1 rules (exposed for strings such as "0, 1").
[[nodiscard]] std::optional<std::int64_t> parse_int(std::string_view text);

struct Entry {
  std::string key;
  YAML::Node key_node;
  YAML::Node value;
};

/// Entries of a mapping node in first-occurrence order, a repeated key taking the later value
/// (warning naming both lines). Non-scalar keys are reported as errors and skipped.
[[nodiscard]] std::vector<Entry> entries(const Ctx& ctx, const YAML::Node& map, std::string_view what);

/// Checks one mapping against a schema, recording located errors.
class MapReader {
 public:
  /// `node` must be a mapping; otherwise an error "<what> must be a mapping" is recorded and every
  /// getter returns nullopt.
  MapReader(const Ctx& ctx, const YAML::Node& node, std::string what);

  [[nodiscard]] bool ok() const { return ok_; }
  [[nodiscard]] const std::string& what() const { return what_; }
  void set_what(std::string what) { what_ = std::move(what); }
  [[nodiscard]] const std::vector<Entry>& items() const { return entries_; }
  [[nodiscard]] const Entry* find(std::string_view key) const;
  [[nodiscard]] bool has(std::string_view key) const { return find(key) != nullptr; }
  [[nodiscard]] Location where() const;                      ///< the mapping itself
  [[nodiscard]] Location where(std::string_view key) const;  ///< the key's value (or the mapping)

  /// Present value or nullopt; records "missing required key" when `required`.
  [[nodiscard]] std::optional<YAML::Node> node(std::string_view key, bool required);
  [[nodiscard]] std::optional<std::int64_t> integer(std::string_view key, bool required,
                                                    std::optional<std::int64_t> min = std::nullopt);
  /// A float field; `nullable` accepts null (returned as nullopt without error).
  [[nodiscard]] std::optional<double> number(std::string_view key, bool required,
                                             std::optional<double> min = std::nullopt, bool nullable = false);
  [[nodiscard]] std::optional<std::string> text(std::string_view key, bool required, bool nullable = false);
  [[nodiscard]] std::optional<bool> boolean(std::string_view key, bool required);
  /// A list of scalars as text.
  [[nodiscard]] std::optional<std::vector<std::string>> text_list(std::string_view key, bool required);

  /// Records "unknown key 'k' in <what>" for every key outside `allowed`.
  void reject_unknown(std::initializer_list<std::string_view> allowed);

  void error(std::string_view key, const std::string& message);  ///< at the key's value
  void error(const std::string& message);                        ///< at the mapping

 private:
  const Ctx& ctx_;
  YAML::Node node_;
  std::string what_;
  bool ok_ = false;
  std::vector<Entry> entries_;
};

/// Helper for messages: `allowed` joined with ", ".
[[nodiscard]] std::string join(std::initializer_list<std::string_view> items);

}  // namespace stream::yamlx
