#include "stream/hardware/hardware_overrides.hpp"

#include <yaml-cpp/yaml.h>


#include <algorithm>
#include <charconv>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "stream/diagnostics/diagnostics.hpp"
#include "stream/diagnostics/nearest_name.hpp"
#include "stream/error.hpp"
#include "stream/hardware/accelerator_reader.hpp"
#include "stream/yaml/yaml_reader.hpp"

#include "accelerator_tree.hpp"
#include "array_expansion.hpp"

namespace stream::hardware {

namespace fs = std::filesystem;

namespace {

std::string describe(const std::vector<HardwareOverride>& overrides) {
  std::string s;
  for (const auto& o : overrides) s += (s.empty() ? "" : ", ") + o.path + "=" + o.value;
  return s;
}

// Each core reference becomes its own copy of the core file's tree, so that an override reaches
// into it and two cores naming one file can differ. A reference that does not resolve or parse
// stays as it is for the validation to report.
// The same holds for an `array`'s `core` and `offchip` (array_expansion.hpp).
void inline_cores(YAML::Node& root, const fs::path& base_dir) {
  std::map<fs::path, YAML::Node> files;
  for (YAML::Node reference : detail::core_references(root)) {
    const auto file = resolve_core_reference(reference.Scalar(), base_dir);
    if (!file) continue;
    auto [f, fresh] = files.try_emplace(*file);
    if (fresh) try {
        f->second = yamlx::load_file(*file);
      } catch (const YAML::Exception&) {
        continue;  // left as a reference: reading it reports the error at its place
      }
    if (f->second.IsDefined()) reference = YAML::Clone(f->second);  // assigns in place, inside its parent
  }
}

std::optional<std::size_t> index_of(const std::string& s) {
  std::size_t i = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), i);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return i;
}

// The children of `node` that `segment` selects (see the header for the rules).
std::vector<YAML::Node> select(YAML::Node node, const std::string& segment, bool core_table) {
  std::vector<YAML::Node> out;
  if (node.IsSequence()) {
    const auto i = index_of(segment);
    for (std::size_t k = 0; k < node.size(); ++k)
      if (segment == "*" || (i && *i == k)) out.push_back(node[k]);
  } else if (node.IsMap()) {
    for (auto it = node.begin(); it != node.end(); ++it)
      if (segment == "*" || it->first.Scalar() == segment) out.push_back(it->second);
    if (out.empty() && core_table)
      for (auto it = node.begin(); it != node.end(); ++it)
        if (it->second.IsMap() && it->second["name"] && it->second["name"].Scalar() == segment) out.push_back(it->second);
  }
  return out;
}

// What put() replaced, to put it back: each node with a copy of its former value.
using Undo = std::vector<std::pair<YAML::Node, YAML::Node>>;

// Replaces every value the path reaches; returns how many.
std::size_t put(YAML::Node node, const std::vector<std::string>& segments, std::size_t depth, const YAML::Node& value,
                Undo& undo) {
  std::size_t n = 0;
  for (YAML::Node child : select(node, segments[depth], depth == 1 && segments[0] == "cores")) {
    if (depth + 1 < segments.size()) {
      n += put(child, segments, depth + 1, value, undo);
    } else {
      undo.emplace_back(child, YAML::Clone(child));
      child = YAML::Clone(value);  // assigns the node in place, inside its parent
      ++n;
    }
  }
  return n;
}

// Puts back what the overrides replaced, latest first (a later override may sit inside an
// earlier one's value), when the variant has been read or has failed.
class Restore {
 public:
  explicit Restore(Undo& undo) : undo_(undo) {}
  ~Restore() {
    for (auto it = undo_.rbegin(); it != undo_.rend(); ++it) it->first = it->second;
  }
  Restore(const Restore&) = delete;
  Restore& operator=(const Restore&) = delete;

 private:
  Undo& undo_;
};

// A variant's warnings are its file's: logged from the file itself, once per process, since the
// overridden tree's places are not the file's lines and a sweep reads one variant per point.
void log_file_warnings(const fs::path& path) {
  static std::mutex mutex;
  static std::set<std::string> logged;
  {
    const std::lock_guard lock(mutex);
    if (!logged.insert(path.string()).second) return;
  }
  Diagnostics echoed;
  (void)read_accelerator(path, echoed);
}

// Reads the overridden tree. Its places are a mix of several files, so messages name the file and
// the overrides instead; a problem of the file itself is reported at its own lines.
Accelerator read_overridden(const YAML::Node& root, const fs::path& path, const std::vector<HardwareOverride>& overrides) {
  const std::string label = path.string() + " with " + describe(overrides);
  Diagnostics quiet(false);
  try {
    auto acc = detail::read_accelerator_tree(root, label, path.parent_path(), quiet);
    log_file_warnings(path);
    return acc;
  } catch (const ValidationError& e) {
    Diagnostics original;
    if (!read_accelerator(path, original)) original.throw_if_errors("invalid accelerator", path.string());
    std::string problems;
    for (const auto& d : e.diagnostics()) problems += "\n  " + d.message;
    throw Error("invalid accelerator " + label + ":" + problems, Location{.file = path.string()});
  }
}

YAML::Node parse_value(const HardwareOverride& o) {
  try {
    return YAML::Load(o.value);
  } catch (const YAML::Exception& e) {
    throw Error("hardware override " + o.path + ": value '" + o.value + "' is not YAML (" + e.msg + ")");
  }
}

// ---- Checking override axes before a sweep runs (check_overrides) ----
// In a namespace of their own: the sources compile in batches, and names such as `Shape` or
// `fits` are common.
namespace override_check {

std::string joined(const std::vector<std::string>& segments, std::size_t count) {
  std::string s;
  for (std::size_t k = 0; k < count; ++k) s += (k ? "/" : "") + segments[k];
  return s;
}

// A node's text as a message shows it: a scalar quoted, a list or map as short flow YAML.
std::string shown(const YAML::Node& node) {
  if (node.IsScalar()) return "'" + node.Scalar() + "'";
  YAML::Emitter e;
  e << YAML::Flow << node;
  std::string text = e.c_str();
  return text.size() > 60 ? text.substr(0, 57) + "..." : text;
}

// What the nodes a path reached before `segment` matched nothing hold there: their keys (and,
// under `cores`, the cores' names), a list's size, or a value that has no parts.
std::string what_is_there(const std::vector<YAML::Node>& nodes, const std::string& segment, bool core_table) {
  std::vector<std::string> keys;
  auto add = [&](const std::string& k) {
    if (std::find(keys.begin(), keys.end(), k) == keys.end()) keys.push_back(k);
  };
  for (const auto& n : nodes) {
    if (n.IsSequence()) return "a list of " + std::to_string(n.size()) + " entries (give an index below " +
                               std::to_string(n.size()) + ", or *)";
    if (!n.IsMap()) return "a single value, " + shown(n) + ", with nothing under it";
    for (auto it = n.begin(); it != n.end(); ++it) {
      add(it->first.Scalar());
      if (core_table && it->second.IsMap() && it->second["name"] && it->second["name"].IsScalar())
        add(it->second["name"].Scalar());
    }
  }
  if (keys.empty()) return "an empty map";
  std::string list;
  for (std::size_t k = 0; k < keys.size() && k < 16; ++k) list += (k ? ", " : "") + keys[k];
  if (keys.size() > 16) list += ", ... (" + std::to_string(keys.size()) + " in all)";
  const auto near = nearest_name(segment, keys);
  return "the keys " + list + (near ? " (did you mean '" + *near + "'?)" : "");
}

// The nodes `segments` reach from `root`, or empty with `problem` saying where it stopped.
std::vector<YAML::Node> reach(const YAML::Node& root, const std::vector<std::string>& segments, const std::string& file,
                              std::string& problem) {
  std::vector<YAML::Node> nodes{root};
  for (std::size_t d = 0; d < segments.size(); ++d) {
    const bool core_table = d == 1 && segments[0] == "cores";
    std::vector<YAML::Node> next;
    for (const auto& n : nodes)
      for (const auto& child : select(n, segments[d], core_table)) next.push_back(child);
    if (next.empty()) {
      const std::string at = d == 0 ? "at the top of " + file : "at " + joined(segments, d) + " in " + file;
      problem = "hardware/" + joined(segments, segments.size()) + ": no '" + segments[d] + "' " + at +
                " (its core files included); there: " + what_is_there(nodes, segments[d], core_table);
      return {};
    }
    nodes = std::move(next);
  }
  return nodes;
}

enum class Shape { Null, Number, Truth, Text, List, Map };

Shape shape_of(const YAML::Node& n) {
  if (yamlx::is_null(n)) return Shape::Null;
  if (n.IsSequence()) return Shape::List;
  if (n.IsMap()) return Shape::Map;
  if (yamlx::to_number(n)) return Shape::Number;
  if (!yamlx::is_quoted(n) && (n.Scalar() == "true" || n.Scalar() == "false")) return Shape::Truth;
  return Shape::Text;
}

const char* shape_words(Shape s) {
  switch (s) {
    case Shape::Null: return "null";
    case Shape::Number: return "a number";
    case Shape::Truth: return "true or false";
    case Shape::Text: return "text";
    case Shape::List: return "a list";
    case Shape::Map: return "a map";
  }
  return "";
}

// Whether a value of shape `value` may replace one of shape `found`: any where the file has
// null, any scalar where it has text, else the same shape.
bool fits(Shape found, Shape value) {
  if (found == Shape::Null || found == value) return true;
  return found == Shape::Text && (value == Shape::Number || value == Shape::Truth);
}

// Why `value` does not fit every place the path reached, or empty.
std::string misfit(const std::vector<YAML::Node>& reached, const YAML::Node& value, const std::string& path,
                   const std::string& file) {
  const Shape v = shape_of(value);
  for (const auto& n : reached)
    if (const Shape found = shape_of(n); !fits(found, v))
      return "hardware/" + path + ": value " + shown(value) + " is " + shape_words(v) + ", but " + file + " has " +
             shape_words(found) + " there (" + shown(n) + ")";
  return "";
}

}  // namespace override_check
}  // namespace

std::optional<OverrideProblem> check_overrides(const fs::path& path, const std::vector<OverrideAxis>& axes) {
  if (axes.empty()) return std::nullopt;
  YAML::Node tree;
  try {
    tree = yamlx::load_file(path);
  } catch (const YAML::Exception&) {
    return std::nullopt;  // each point reports the file's own error at its place
  }
  inline_cores(tree, path.parent_path());
  const std::string file = path.filename().string();
  Undo undo;  // the tree is this check's own: nothing to put back
  for (std::size_t a = 0; a < axes.size(); ++a) {
    std::vector<std::string> segments;
    try {
      segments = override_segments(axes[a].path);
    } catch (const Error& e) {
      return OverrideProblem{a, std::nullopt, e.message()};
    }
    std::string problem;
    const auto reached = override_check::reach(tree, segments, file, problem);
    if (reached.empty()) return OverrideProblem{a, std::nullopt, problem};
    for (std::size_t v = 0; v < axes[a].values.size(); ++v) {
      YAML::Node value;
      try {
        value = parse_value({axes[a].path, axes[a].values[v]});
      } catch (const Error& e) {
        return OverrideProblem{a, v, e.message()};
      }
      if (auto why = override_check::misfit(reached, value, axes[a].path, file); !why.empty()) return OverrideProblem{a, v, why};
    }
    if (!axes[a].values.empty()) (void)put(tree, segments, 0, parse_value({axes[a].path, axes[a].values[0]}), undo);
  }
  return std::nullopt;
}

std::vector<std::string> override_segments(std::string_view path) {
  std::vector<std::string> segments;
  std::size_t start = 0;
  for (;;) {
    const auto slash = path.find('/', start);
    segments.emplace_back(path.substr(start, slash == std::string_view::npos ? std::string_view::npos : slash - start));
    if (segments.back().empty())
      throw Error("hardware override path '" + std::string(path) + "' has an empty segment (write a/b/c)");
    if (slash == std::string_view::npos) return segments;
    start = slash + 1;
  }
}

// A variant is read from a working copy of the file's tree: the overrides are put in, the tree is
// read, and what they replaced is put back. Cloning the whole tree per variant (yaml-cpp's Clone,
// then freeing it) was over half of a hardware variant's evaluation. A copy serves one thread at a
// time, and is dropped after kUsesPerCopy variants, since each put leaves its nodes in the tree's
// memory until the tree goes.
struct HardwareVariants::Trees {
  struct File {
    YAML::Node tree;  ///< the file with its core files inlined, never changed
    std::vector<std::pair<YAML::Node, int>> idle;  ///< working copies not in use, with their uses
  };
  static constexpr int kUsesPerCopy = 256;
  std::mutex mutex;
  std::map<std::string, File> by_file;
};

HardwareVariants::HardwareVariants() : trees_(std::make_unique<Trees>()) {}
HardwareVariants::~HardwareVariants() = default;

Accelerator HardwareVariants::load(const fs::path& path, const std::vector<HardwareOverride>& overrides) {
  if (overrides.empty()) return load_accelerator(path);
  std::pair<YAML::Node, int> copy;
  {
    // yaml-cpp nodes share state even when read, so copying out happens under the lock.
    const std::lock_guard lock(trees_->mutex);
    auto it = trees_->by_file.find(path.string());
    if (it == trees_->by_file.end()) {
      YAML::Node tree;
      try {
        tree = yamlx::load_file(path);
      } catch (const YAML::Exception&) {
        return load_accelerator(path);  // reports the syntax error with its place
      }
      inline_cores(tree, path.parent_path());
      it = trees_->by_file.emplace(path.string(), Trees::File{tree, {}}).first;
    }
    auto& idle = it->second.idle;
    if (idle.empty()) {
      copy = {YAML::Clone(it->second.tree), 0};
    } else {
      copy = std::move(idle.back());
      idle.pop_back();
    }
  }
  std::optional<Accelerator> acc;
  {
    Undo undo;
    const Restore restore(undo);
    for (const auto& o : overrides)
      if (put(copy.first, override_segments(o.path), 0, parse_value(o), undo) == 0)
        throw Error("hardware override " + o.path + " matches nothing in the accelerator (and its core files)",
                    Location{.file = path.string()});
    acc = read_overridden(copy.first, path, overrides);
  }
  if (++copy.second < Trees::kUsesPerCopy) {
    const std::lock_guard lock(trees_->mutex);
    trees_->by_file.at(path.string()).idle.push_back(std::move(copy));
  }
  return std::move(*acc);
}

Accelerator load_accelerator_with_overrides(const fs::path& path, const std::vector<HardwareOverride>& overrides) {
  HardwareVariants variants;
  return variants.load(path, overrides);
}

}  // namespace stream::hardware
