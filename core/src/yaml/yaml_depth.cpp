#include "stream/yaml/yaml_depth.hpp"

#include <cstddef>
#include <vector>

namespace stream::yamlx {

namespace {

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

// One pass over the text (see the header). `node_start` says that the next token begins a node
// (after indentation, `- `, `? `, `: `, `[`, `{` or `,`): only there does a quote open a quoted
// scalar, a bracket a flow collection in block context, `|` or `>` a block scalar.
class NestingScan {
 public:
  NestingScan(std::string_view text, int max_depth) : t_(text), max_(max_depth) {}

  std::optional<DeepNesting> run() {
    while (i_ < t_.size() && !excess_) {
      if (at_line_start_) indentation();
      else token();
    }
    return excess_;
  }

 private:
  std::string_view t_;
  int max_;
  std::size_t i_ = 0, line_start_ = 0, line_indent_ = 0;
  int line_ = 1, flow_ = 0;
  std::vector<std::size_t> block_;  ///< columns of the open block nodes (at most max_ + 1)
  bool at_line_start_ = true, node_start_ = true;
  std::optional<DeepNesting> excess_;

  std::size_t column() const { return i_ - line_start_; }
  char next() const { return i_ + 1 < t_.size() ? t_[i_ + 1] : '\n'; }

  void check() {
    if (static_cast<int>(block_.size()) + flow_ > max_)
      excess_ = DeepNesting{line_, static_cast<int>(column()) + 1};
  }
  void new_line() {
    ++line_;
    line_start_ = ++i_;
    at_line_start_ = node_start_ = true;
  }
  // A block node at this column, deeper than the open ones.
  void open_block() {
    if (flow_ > 0) return;
    if (block_.empty() || block_.back() < column()) {
      block_.push_back(column());
      check();
    }
  }

  void indentation() {
    while (i_ < t_.size() && t_[i_] == ' ') ++i_;
    at_line_start_ = false;
    line_indent_ = column();
    if (i_ >= t_.size() || is_blank(t_[i_]) || t_[i_] == '#') return;  // blank or comment line: no level
    if (flow_ == 0)
      while (!block_.empty() && block_.back() > column()) block_.pop_back();
    if (t_[i_] != '[' && t_[i_] != '{') open_block();  // a flow collection counts as flow
  }

  void skip_to_line_end() {
    while (i_ < t_.size() && t_[i_] != '\n') ++i_;
  }

  void quoted(char quote) {
    for (++i_; i_ < t_.size(); ++i_) {
      const char c = t_[i_];
      if (c == '\n') {
        ++line_;
        line_start_ = i_ + 1;
      } else if (quote == '"' && c == '\\') {
        if (next() == '\n') continue;  // an escaped line break: the newline is counted next
        ++i_;
      } else if (c == quote) {
        if (quote == '\'' && next() == '\'') ++i_;  // '' is a quote inside '...'
        else break;
      }
    }
    ++i_;
    node_start_ = false;
  }

  // `|` or `>`: the rest of the line is its header; its content is every following line that is
  // blank or indented deeper than the line that opened it.
  void block_scalar() {
    const std::size_t parent = line_indent_;
    skip_to_line_end();
    while (i_ < t_.size()) {
      std::size_t j = i_ + 1, indent = 0;
      while (j < t_.size() && t_[j] == ' ') ++j, ++indent;
      const bool blank = j >= t_.size() || t_[j] == '\n' || t_[j] == '\r';
      if (!blank && indent <= parent) break;
      new_line();
      at_line_start_ = false;  // a content line opens no level
      skip_to_line_end();
    }
  }

  void skip_property() {  // an anchor or tag: the node it marks follows
    while (i_ < t_.size() && !is_blank(t_[i_])) ++i_;
  }

  bool is_indicator(char c) const {
    return is_blank(next()) || (c == ':' && flow_ > 0);
  }

  void token() {
    const char c = t_[i_];
    if (c == '\n') return new_line();
    if (c == ' ' || c == '\t' || c == '\r') {
      ++i_;
      return;
    }
    if (c == '#' && (i_ == line_start_ || t_[i_ - 1] == ' ' || t_[i_ - 1] == '\t')) return skip_to_line_end();
    if ((c == '\'' || c == '"') && node_start_) return quoted(c);
    if ((c == '[' || c == '{') && (flow_ > 0 || node_start_)) {
      ++flow_;
      check();
      ++i_;
      node_start_ = true;
      return;
    }
    if ((c == ']' || c == '}') && flow_ > 0) {
      --flow_;
      ++i_;
      node_start_ = false;
      return;
    }
    if (c == ',' && flow_ > 0) {
      ++i_;
      node_start_ = true;
      return;
    }
    if ((c == '-' || c == '?' || c == ':') && is_indicator(c)) {
      if (c != ':' && node_start_) open_block();
      ++i_;
      node_start_ = true;
      return;
    }
    if ((c == '|' || c == '>') && node_start_ && flow_ == 0) return block_scalar();
    if ((c == '&' || c == '!') && node_start_) return skip_property();
    if (node_start_) open_block();
    node_start_ = false;
    ++i_;
  }
};

}  // namespace

std::optional<DeepNesting> find_deep_nesting(std::string_view text, int max_depth) {
  return NestingScan(text, max_depth).run();
}

}  // namespace stream::yamlx
