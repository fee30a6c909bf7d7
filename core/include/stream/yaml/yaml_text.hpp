// A direct YAML writer for the result files' fixed schemas, byte-identical to yaml-cpp's Emitter.
//
// yaml-cpp's Emitter checks every scalar against its regular expressions and formats numbers
// through a stringstream; with thousands of group files that was a sixth of a run's CPU. YamlText
// takes the same stream of manipulators (YAML::BeginMap, Key, Value, Flow, Literal, Null, ...) and
// scalars, lays them out the way yaml-cpp 0.7 does (its indentation rules step for step: block
// groups two columns per level, padding up to a column, empty block collections written as flow
// ones, doubles with 17 significant digits), and writes plain strings without a regex. A string that is not
// obviously plain is formatted by yaml-cpp itself, so quoting and escaping stay exactly its own.
// Only the subset the writers use is supported: keys are scalars, no anchors, tags or comments.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <yaml-cpp/emittermanip.h>
#include <yaml-cpp/null.h>

#include "stream/export.hpp"

namespace stream::yamlx {

/// A double written with the fewest digits that read back as the same value (1.66, not yaml-cpp's
/// 1.6599999999999999): for figures rounded on purpose, such as percentages.
struct Shortest {
  double value = 0;
};

class STREAM_API YamlText {
 public:
  YamlText& operator<<(YAML::EMITTER_MANIP manip);
  YamlText& operator<<(const YAML::_Null&);
  YamlText& operator<<(const std::string& s);
  YamlText& operator<<(const char* s) { return *this << std::string(s); }
  YamlText& operator<<(bool b);
  YamlText& operator<<(int v) { return integer(v); }
  YamlText& operator<<(long v) { return integer(v); }
  YamlText& operator<<(long long v) { return integer(v); }
  YamlText& operator<<(unsigned v) { return unsigned_integer(v); }
  YamlText& operator<<(unsigned long v) { return unsigned_integer(v); }
  YamlText& operator<<(unsigned long long v) { return unsigned_integer(v); }
  YamlText& operator<<(double v);
  YamlText& operator<<(Shortest v);
  template <class T>
  YamlText& operator<<(const std::vector<T>& items) {
    *this << YAML::BeginSeq;
    for (const auto& item : items) *this << item;
    return *this << YAML::EndSeq;
  }

  /// The document so far (like YAML::Emitter::c_str(): no final newline).
  [[nodiscard]] const char* c_str() const { return out_.c_str(); }
  [[nodiscard]] const std::string& str() const { return out_; }

 private:
  struct Group {
    bool map = false;
    bool flow = false;
    int nodes = 0;  // nodes written into the group (a map's keys and values both count)
  };
  enum class Child { Inline, BlockSeq, BlockMap };  // what the next node is: a scalar or flow collection, or a block one

  YamlText& integer(long long v);
  YamlText& unsigned_integer(unsigned long long v);
  void begin(bool map);
  void end();
  void prepare_node(Child child);  // what comes before a node: "- ", a key's line, ", ", ": "
  void scalar(const std::string& text);
  [[nodiscard]] bool in_flow() const { return !groups_.empty() && groups_.back().flow; }
  [[nodiscard]] int current_indent() const { return groups_.empty() ? 0 : 2 * static_cast<int>(groups_.size() - 1); }
  [[nodiscard]] int column() const { return static_cast<int>(out_.size() - line_start_); }
  void newline() {
    out_ += '\n';
    line_start_ = out_.size();
  }
  void indent_to(int col) {
    if (column() < col) out_.append(static_cast<std::size_t>(col - column()), ' ');
  }
  void space_or_indent_to(bool space, int col) {
    if (space && column() > 0) out_ += ' ';
    indent_to(col);
  }

  std::string out_;
  std::size_t line_start_ = 0;
  std::vector<Group> groups_;
  bool next_flow_ = false;
  bool next_literal_ = false;
};

/// The text yaml-cpp writes for the string `s` as a scalar (plain, or double-quoted when needed).
[[nodiscard]] std::string yaml_scalar(const std::string& s, bool in_flow);

}  // namespace stream::yamlx
