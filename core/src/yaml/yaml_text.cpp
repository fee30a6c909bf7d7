#include "stream/yaml/yaml_text.hpp"

#include <yaml-cpp/yaml.h>

#include <charconv>
#include <cmath>
#include <cstdio>

#include "stream/error.hpp"

namespace stream::yamlx {

namespace {

bool safe_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' ||
         c == '/' || c == '-' || c == '+' || c == '=' || c == '(' || c == ')' || c == ' ';
}

// Strings yaml-cpp writes plain in block and flow context alike: no indicator at the start, no
// character that could end or comment a scalar, no trailing blank, not a null word.
bool obviously_plain(const std::string& s) {
  if (s.empty() || s == "null" || s == "Null" || s == "NULL") return false;
  const char first = s.front();
  const bool first_ok = (first >= 'a' && first <= 'z') || (first >= 'A' && first <= 'Z') ||
                        (first >= '0' && first <= '9') || first == '_' || first == '.' || first == '/' || first == '(';
  if (!first_ok || s.back() == ' ') return false;
  for (char c : s)
    if (!safe_char(c)) return false;
  return true;
}

}  // namespace

std::string yaml_scalar(const std::string& s, bool in_flow) {
  if (obviously_plain(s)) return s;
  YAML::Emitter e;
  if (!in_flow) {
    e << s;
    return e.c_str();
  }
  e << YAML::Flow << YAML::BeginSeq << s << YAML::EndSeq;
  const std::string seq = e.c_str();  // "[<scalar>]"
  return seq.substr(1, seq.size() - 2);
}

// yaml-cpp's layout, step for step: the group at depth d (1 = the document's) has its entries at
// column 2(d - 1); its parent's entries are at 2(d - 2) ("last indent"); padding goes up to a
// column (IndentTo) rather than adding a fixed number of spaces. Maps count keys and values as
// nodes: an even count means a key comes next.
void YamlText::prepare_node(Child child) {
  if (groups_.empty()) return;
  Group& g = groups_.back();
  const int cur = current_indent();
  const int last = groups_.size() <= 1 ? 0 : cur - 2;
  if (g.flow) {
    indent_to(last);
    const bool key_or_item = !g.map || g.nodes % 2 == 0;
    out_ += key_or_item ? (g.nodes == 0 ? (g.map ? "{" : "[") : ",") : ":";
    space_or_indent_to(g.nodes > 0, last);
  } else if (!g.map) {
    if (g.nodes > 0) newline();
    indent_to(cur);
    out_ += '-';
    if (child == Child::Inline) indent_to(cur + 2);
    if (child == Child::BlockSeq) newline();
  } else if (g.nodes % 2 == 0) {
    if (g.nodes > 0) newline();
    indent_to(cur);
  } else {
    out_ += ':';
    if (child == Child::Inline)
      space_or_indent_to(true, cur + 2);
    else
      newline();
  }
  ++g.nodes;
}

void YamlText::scalar(const std::string& text) {
  prepare_node(Child::Inline);
  out_ += text;
}

void YamlText::begin(bool map) {
  const bool flow = next_flow_ || in_flow();
  next_flow_ = false;
  prepare_node(flow ? Child::Inline : map ? Child::BlockMap : Child::BlockSeq);
  groups_.push_back(Group{map, flow, 0});
}

void YamlText::end() {
  if (groups_.empty()) throw Error("YamlText: end of a collection that was not begun", Location{});
  const Group& g = groups_.back();
  if (g.flow || g.nodes == 0) {  // an empty block collection is written as a flow one
    indent_to(current_indent());
    if (g.nodes == 0) out_ += g.map ? '{' : '[';
    out_ += g.map ? '}' : ']';
  }
  groups_.pop_back();
}

YamlText& YamlText::operator<<(YAML::EMITTER_MANIP manip) {
  switch (manip) {
    case YAML::BeginMap: begin(true); break;
    case YAML::BeginSeq: begin(false); break;
    case YAML::EndMap:
    case YAML::EndSeq: end(); break;
    case YAML::Flow: next_flow_ = true; break;
    case YAML::Literal: next_literal_ = true; break;
    case YAML::Key:
    case YAML::Value: break;  // maps alternate key and value by themselves
    default: throw Error("YamlText: unsupported YAML manipulator", Location{});
  }
  return *this;
}

YamlText& YamlText::operator<<(const YAML::_Null&) {
  scalar("~");
  return *this;
}

YamlText& YamlText::operator<<(const std::string& s) {
  if (!next_literal_ || in_flow()) {
    next_literal_ = false;
    scalar(yaml_scalar(s, in_flow()));
    return *this;
  }
  next_literal_ = false;
  prepare_node(Child::Inline);
  // Lines indented one step past the current group's entries; blank lines stay empty.
  const int indent = current_indent() + 2;
  out_ += '|';
  newline();
  for (char c : s) {
    if (c == '\n') {
      newline();
      continue;
    }
    indent_to(indent);
    out_ += c;
  }
  return *this;
}

YamlText& YamlText::operator<<(bool b) {
  scalar(b ? "true" : "false");
  return *this;
}

YamlText& YamlText::integer(long long v) {
  scalar(std::to_string(v));
  return *this;
}

YamlText& YamlText::unsigned_integer(unsigned long long v) {
  scalar(std::to_string(v));
  return *this;
}

YamlText& YamlText::operator<<(double v) {
  if (std::isnan(v)) {
    scalar(".nan");
  } else if (std::isinf(v)) {
    scalar(v < 0 ? "-.inf" : ".inf");
  } else {
    // yaml-cpp streams doubles with max_digits10 (17) significant digits, the %g style.
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    scalar(buf);
  }
  return *this;
}

YamlText& YamlText::operator<<(Shortest v) {
  if (!std::isfinite(v.value)) return *this << v.value;
  char buf[32];
  const auto end = std::to_chars(buf, buf + sizeof buf, v.value).ptr;
  scalar(std::string(buf, end));
  return *this;
}

}  // namespace stream::yamlx
