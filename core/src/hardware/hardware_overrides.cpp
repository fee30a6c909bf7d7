#include "stream/hardware/hardware_overrides.hpp"

#include <yaml-cpp/yaml.h>

#include <spdlog/spdlog.h>

#include <charconv>

#include "stream/diagnostics/diagnostics.hpp"
#include "stream/error.hpp"
#include "stream/hardware/accelerator_reader.hpp"

namespace stream::hardware {

namespace fs = std::filesystem;

namespace {

std::string describe(const std::vector<HardwareOverride>& overrides) {
  std::string s;
  for (const auto& o : overrides) s += (s.empty() ? "" : ", ") + o.path + "=" + o.value;
  return s;
}

// Each core reference becomes its own copy of the core file's tree, so that an override reaches
// into it and two cores naming one file can differ. An unresolvable reference stays as it is for
// the validation to report.
void inline_cores(YAML::Node& root, const fs::path& base_dir) {
  YAML::Node cores = root["cores"];
  if (!cores.IsMap()) return;
  for (auto it = cores.begin(); it != cores.end(); ++it) {
    if (!it->second.IsScalar()) continue;
    if (const auto file = resolve_core_reference(it->second.Scalar(), base_dir))
      it->second = YAML::Clone(YAML::LoadFile(file->string()));
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

// Replaces every value the path reaches; returns how many.
std::size_t put(YAML::Node node, const std::vector<std::string>& segments, std::size_t depth, const YAML::Node& value) {
  std::size_t n = 0;
  for (YAML::Node child : select(node, segments[depth], depth == 1 && segments[0] == "cores")) {
    if (depth + 1 < segments.size()) {
      n += put(child, segments, depth + 1, value);
    } else {
      child = YAML::Clone(value);  // assigns the node in place, inside its parent
      ++n;
    }
  }
  return n;
}

// Reads the overridden tree. Its line numbers are of a text the user never sees, so messages name
// the file and the overrides instead; a problem of the file itself is reported at its own lines.
Accelerator read_overridden(const YAML::Node& root, const fs::path& path, const std::vector<HardwareOverride>& overrides) {
  YAML::Emitter text;
  text << root;
  const std::string label = path.string() + " with " + describe(overrides);
  Diagnostics quiet(false);
  try {
    auto acc = parse_accelerator_text(text.c_str(), label, path.parent_path(), &quiet);
    for (const auto& w : acc.warnings) spdlog::warn("{}: {}", label, w.message);
    return acc;
  } catch (const ValidationError& e) {
    Diagnostics original;
    if (!read_accelerator(path, original)) original.throw_if_errors("invalid accelerator", path.string());
    std::string problems;
    for (const auto& d : e.diagnostics()) problems += "\n  " + d.message;
    throw Error("invalid accelerator " + label + ":" + problems, Location{.file = path.string()});
  }
}

}  // namespace

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

Accelerator load_accelerator_with_overrides(const fs::path& path, const std::vector<HardwareOverride>& overrides) {
  if (overrides.empty()) return load_accelerator(path);
  YAML::Node root;
  try {
    root = YAML::LoadFile(path.string());
  } catch (const YAML::Exception&) {
    return load_accelerator(path);  // reports the syntax error with its place
  }
  inline_cores(root, path.parent_path());
  for (const auto& o : overrides) {
    const auto segments = override_segments(o.path);
    YAML::Node value;
    try {
      value = YAML::Load(o.value);
    } catch (const YAML::Exception& e) {
      throw Error("hardware override " + o.path + ": value '" + o.value + "' is not YAML (" + e.msg + ")");
    }
    if (put(root, segments, 0, value) == 0)
      throw Error("hardware override " + o.path + " matches nothing in the accelerator (and its core files)",
                  Location{.file = path.string()});
  }
  return read_overridden(root, path, overrides);
}

}  // namespace stream::hardware
