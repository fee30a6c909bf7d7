#include "stream/yaml/yaml_reader.hpp"

#include <iterator>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>

namespace stream::yamlx {

Location loc(const Ctx& ctx, const YAML::Node& node) {
  Location where = file_location(ctx.file);
  if (node.IsDefined()) {
    const YAML::Mark m = node.Mark();
    if (m.line >= 0) {
      where.line = m.line + 1;
      where.column = m.column + 1;
    }
  }
  return where;
}

std::optional<std::string> read_text(const std::filesystem::path& path, const std::string& label, Diagnostics& diag) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    diag.error(file_location(label), "cannot read file: it does not exist or is not a regular file");
    return std::nullopt;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    diag.error(file_location(label), "cannot open file for reading");
    return std::nullopt;
  }
  // Straight into one string (a string stream held the text twice over: 100 MB took 300).
  std::string text;
  if (const auto size = std::filesystem::file_size(path, ec); !ec) text.reserve(size);
  char chunk[1 << 16];
  while (in.read(chunk, sizeof chunk) || in.gcount() > 0) text.append(chunk, static_cast<std::size_t>(in.gcount()));
  return text;
}

std::optional<YAML::Node> parse(const std::string& text, const Ctx& ctx) {
  // Nesting is bounded before yaml-cpp reads the text (yaml_depth.hpp): 100 MB of it took 11.8 GB.
  if (const auto deep = find_deep_nesting(text)) {
    Location where = file_location(ctx.file);
    where.line = deep->line;
    where.column = deep->column;
    ctx.diag.error(where, "nesting deeper than " + std::to_string(kMaxYamlDepth) + " levels at line " +
                              std::to_string(deep->line) + " (lists and mappings inside each other)");
    return std::nullopt;
  }
  try {
    return YAML::Load(text);
  } catch (const YAML::Exception& e) {
    Location where = file_location(ctx.file);
    if (e.mark.line >= 0) {
      where.line = e.mark.line + 1;
      where.column = e.mark.column + 1;
    }
    ctx.diag.error(where, "YAML syntax error: " + e.msg);
    return std::nullopt;
  }
}

YAML::Node load_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw YAML::BadFile(path.string());
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (const auto deep = find_deep_nesting(text)) {
    YAML::Mark mark;
    mark.line = deep->line - 1;
    mark.column = deep->column - 1;
    throw YAML::ParserException(mark, "nesting deeper than " + std::to_string(kMaxYamlDepth) + " levels");
  }
  return YAML::Load(text);
}

bool is_quoted(const YAML::Node& n) { return n.IsScalar() && n.Tag() == "!"; }

bool is_null(const YAML::Node& n) { return !n.IsDefined() || n.IsNull(); }

std::optional<std::int64_t> parse_int(std::string_view text) {
  if (text.empty()) return std::nullopt;
  bool negative = false;
  if (text.front() == '+' || text.front() == '-') {
    negative = text.front() == '-';
    text.remove_prefix(1);
  }
  if (text.empty()) return std::nullopt;
  int base = 10;
  std::string_view digits = text;
  auto allowed = [](std::string_view s, std::string_view set) {
    return std::all_of(s.begin(), s.end(), [&](char c) { return c == '_' || set.find(c) != std::string_view::npos; });
  };
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'b')) {
    base = 2;
    digits = text.substr(2);
    if (!allowed(digits, "01")) return std::nullopt;
  } else if (text.size() > 2 && text[0] == '0' && text[1] == 'x') {
    base = 16;
    digits = text.substr(2);
    if (!allowed(digits, "0123456789abcdefABCDEF")) return std::nullopt;
  } else if (text == "0") {
    return 0;
  } else if (text[0] == '0') {  // YAML 1.1 octal, as PyYAML reads it
    base = 8;
    digits = text.substr(1);
    if (!allowed(digits, "01234567")) return std::nullopt;
  } else if (text[0] >= '1' && text[0] <= '9') {
    if (!allowed(digits, "0123456789")) return std::nullopt;
  } else {
    return std::nullopt;
  }
  std::string clean;
  for (char c : digits)
    if (c != '_') clean.push_back(c);
  if (clean.empty()) return std::nullopt;
  std::uint64_t magnitude = 0;
  auto [ptr, ec] = std::from_chars(clean.data(), clean.data() + clean.size(), magnitude, base);
  if (ec != std::errc() || ptr != clean.data() + clean.size()) return std::nullopt;
  constexpr auto max = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
  if (negative) {
    if (magnitude > max + 1) return std::nullopt;
    return magnitude == max + 1 ? std::numeric_limits<std::int64_t>::min() : -static_cast<std::int64_t>(magnitude);
  }
  if (magnitude > max) return std::nullopt;
  return static_cast<std::int64_t>(magnitude);
}

std::optional<std::int64_t> to_int(const YAML::Node& n) {
  if (!n.IsDefined() || !n.IsScalar() || is_quoted(n)) return std::nullopt;
  return parse_int(n.Scalar());
}

namespace {
std::optional<double> parse_float(std::string_view text) {
  if (text.empty()) return std::nullopt;
  std::string_view body = text;
  bool negative = false;
  if (body.front() == '+' || body.front() == '-') {
    negative = body.front() == '-';
    body.remove_prefix(1);
  }
  if (body == ".inf" || body == ".Inf" || body == ".INF")
    return negative ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
  if (text == ".nan" || text == ".NaN" || text == ".NAN") return std::numeric_limits<double>::quiet_NaN();
  if (body.empty() || !((body.front() >= '0' && body.front() <= '9') || body.front() == '.')) return std::nullopt;
  bool has_digit = false;
  std::string clean;
  if (negative) clean.push_back('-');
  for (char c : body) {
    if (c == '_') continue;
    if (c >= '0' && c <= '9') has_digit = true;
    else if (c != '.' && c != 'e' && c != 'E' && c != '+' && c != '-') return std::nullopt;
    clean.push_back(c);
  }
  if (!has_digit) return std::nullopt;
  double value = 0.0;
  auto [ptr, ec] = std::from_chars(clean.data(), clean.data() + clean.size(), value);
  if (ec != std::errc() || ptr != clean.data() + clean.size()) return std::nullopt;
  return value;
}
}  // namespace

std::optional<double> to_number(const YAML::Node& n) {
  if (!n.IsDefined() || !n.IsScalar() || is_quoted(n)) return std::nullopt;
  if (auto i = parse_int(n.Scalar())) return static_cast<double>(*i);
  return parse_float(n.Scalar());
}

std::optional<bool> to_bool(const YAML::Node& n) {
  if (!n.IsDefined() || !n.IsScalar() || is_quoted(n)) return std::nullopt;
  static const char* const yes[] = {"yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON"};
  static const char* const no[] = {"no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF"};
  const std::string& s = n.Scalar();
  for (const char* y : yes)
    if (s == y) return true;
  for (const char* f : no)
    if (s == f) return false;
  return std::nullopt;
}

std::optional<std::string> to_text(const YAML::Node& n) {
  if (!n.IsDefined() || !n.IsScalar()) return std::nullopt;
  return n.Scalar();
}

std::string describe(const YAML::Node& n) {
  if (!n.IsDefined() || n.IsNull()) return "null";
  if (n.IsSequence()) return "a list";
  if (n.IsMap()) return "a mapping";
  std::string s = n.Scalar();
  if (s.size() > 40) s = s.substr(0, 37) + "...";
  return "'" + s + "'";
}

std::vector<Entry> entries(const Ctx& ctx, const YAML::Node& map, std::string_view what) {
  std::vector<Entry> out;
  if (!map.IsDefined() || !map.IsMap()) return out;
  std::map<std::string, std::size_t> index;
  for (auto it = map.begin(); it != map.end(); ++it) {
    const YAML::Node key = it->first;
    if (!key.IsDefined() || !key.IsScalar()) {
      ctx.diag.error(loc(ctx, key), std::string(what) + ": keys must be plain scalars, got " + describe(key));
      continue;
    }
    std::string name = key.Scalar();
    auto found = index.find(name);
    if (found != index.end()) {
      Entry& first = out[found->second];
      const Location now = loc(ctx, key);
      const Location before = loc(ctx, first.key_node);
      ctx.diag.warning(now, std::string(what) + ": key '" + name + "' given twice (first at line " +
                                std::to_string(before.line) + ", again at line " + std::to_string(now.line) +
                                "); the later value wins");
      first.value = it->second;
      first.key_node = key;
      continue;
    }
    index.emplace(name, out.size());
    out.push_back(Entry{std::move(name), key, it->second});
  }
  return out;
}

MapReader::MapReader(const Ctx& ctx, const YAML::Node& node, std::string what)
    : ctx_(ctx), node_(node), what_(std::move(what)) {
  if (!node.IsDefined() || !node.IsMap()) {
    ctx_.diag.error(loc(ctx_, node), what_ + " must be a mapping, got " + describe(node));
    return;
  }
  ok_ = true;
  entries_ = entries(ctx_, node_, what_);
}

const Entry* MapReader::find(std::string_view key) const {
  for (const Entry& e : entries_)
    if (e.key == key) return &e;
  return nullptr;
}

Location MapReader::where() const { return loc(ctx_, node_); }

Location MapReader::where(std::string_view key) const {
  const Entry* e = find(key);
  if (e == nullptr) return where();
  // A null value (`key:`) has no useful mark of its own; point at the key then.
  if (is_null(e->value)) return loc(ctx_, e->key_node);
  return loc(ctx_, e->value);
}

void MapReader::error(std::string_view key, const std::string& message) {
  ctx_.diag.error(where(key), what_ + ": " + message);
}

void MapReader::error(const std::string& message) { ctx_.diag.error(where(), what_ + ": " + message); }

std::optional<YAML::Node> MapReader::node(std::string_view key, bool required) {
  if (!ok_) return std::nullopt;
  const Entry* e = find(key);
  if (e == nullptr) {
    if (required) error("missing required key '" + std::string(key) + "'");
    return std::nullopt;
  }
  return e->value;
}

std::optional<std::int64_t> MapReader::integer(std::string_view key, bool required, std::optional<std::int64_t> min) {
  auto n = node(key, required);
  if (!n) return std::nullopt;
  auto v = to_int(*n);
  if (!v) {
    error(key, "'" + std::string(key) + "' must be an integer, got " + describe(*n));
    return std::nullopt;
  }
  if (min && *v < *min) {
    error(key, "'" + std::string(key) + "' must be >= " + std::to_string(*min) + ", got " + std::to_string(*v));
    return std::nullopt;
  }
  return v;
}

std::optional<double> MapReader::number(std::string_view key, bool required, std::optional<double> min, bool nullable) {
  auto n = node(key, required);
  if (!n) return std::nullopt;
  if (nullable && is_null(*n)) return std::nullopt;
  auto v = to_number(*n);
  if (!v || std::isnan(*v)) {
    error(key, "'" + std::string(key) + "' must be a number, got " + describe(*n));
    return std::nullopt;
  }
  if (std::isinf(*v)) {  // no cost, size or rate of a real machine is infinite
    error(key, "'" + std::string(key) + "' must be finite, got " + describe(*n));
    return std::nullopt;
  }
  if (min && *v < *min) {
    std::ostringstream os;
    os << "'" << key << "' must be >= " << *min << ", got " << *v;
    error(key, os.str());
    return std::nullopt;
  }
  return v;
}

std::optional<std::string> MapReader::text(std::string_view key, bool required, bool nullable) {
  auto n = node(key, required);
  if (!n) return std::nullopt;
  if (nullable && is_null(*n)) return std::nullopt;
  auto v = to_text(*n);
  if (!v || is_null(*n)) {
    error(key, "'" + std::string(key) + "' must be a string, got " + describe(*n));
    return std::nullopt;
  }
  return v;
}

std::optional<bool> MapReader::boolean(std::string_view key, bool required) {
  auto n = node(key, required);
  if (!n) return std::nullopt;
  auto v = to_bool(*n);
  if (!v) {
    error(key, "'" + std::string(key) + "' must be a boolean (true/false), got " + describe(*n));
    return std::nullopt;
  }
  return v;
}

std::optional<std::vector<std::string>> MapReader::text_list(std::string_view key, bool required) {
  auto n = node(key, required);
  if (!n) return std::nullopt;
  if (!n->IsSequence()) {
    error(key, "'" + std::string(key) + "' must be a list, got " + describe(*n));
    return std::nullopt;
  }
  std::vector<std::string> out;
  bool good = true;
  for (std::size_t i = 0; i < n->size(); ++i) {
    const YAML::Node item = (*n)[i];
    auto t = to_text(item);
    if (!t || is_null(item)) {
      ctx_.diag.error(loc(ctx_, item), what_ + ": '" + std::string(key) + "' entries must be strings, got " +
                                           describe(item));
      good = false;
      continue;
    }
    out.push_back(*t);
  }
  if (!good) return std::nullopt;
  return out;
}

void MapReader::reject_unknown(std::initializer_list<std::string_view> allowed) {
  for (const Entry& e : entries_) {
    if (std::find(allowed.begin(), allowed.end(), std::string_view(e.key)) != allowed.end()) continue;
    ctx_.diag.error(loc(ctx_, e.key_node),
                    what_ + ": unknown key '" + e.key + "' (allowed keys: " + join(allowed) + ")");
  }
}

std::string join(std::initializer_list<std::string_view> items) {
  std::string out;
  for (std::string_view s : items) {
    if (!out.empty()) out += ", ";
    out += s;
  }
  return out;
}

}  // namespace stream::yamlx
