// Workload frontends: what turns a source (a file path) into a Workload.
//
// A frontend has a name, answers can_load(source) cheaply (by extension or magic bytes), and
// loads. Options are frontend-specific knobs given as strings (`--dim seq=128`, ...). The
// frontend receives the registries so that it can consult operator parsers other plugins added.
#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <string>

#include "stream/export.hpp"
#include "stream/ir/workload.hpp"

namespace stream {

class Registries;

struct FrontendOptions {
  std::map<std::string, std::string> values;
  [[nodiscard]] std::string get(const std::string& key, const std::string& fallback = "") const {
    auto it = values.find(key);
    return it == values.end() ? fallback : it->second;
  }
};

/// FrontendOptions key: "1" keeps every layout operator (Flatten, Reshape, Transpose, Squeeze,
/// Unsqueeze) a FusionEdge instead of folding it into its readers, as the reference does
/// (`stream run --compat stream-1.13`, compat.hpp). A symbolic dimension cannot hold a ':'.
inline constexpr const char* kKeepLayoutOps = "option:keep_layout_ops";

class STREAM_API WorkloadFrontend {
 public:
  virtual ~WorkloadFrontend() = default;
  [[nodiscard]] virtual std::string name() const = 0;
  [[nodiscard]] virtual bool can_load(const std::filesystem::path& source) const = 0;
  /// Throws stream::Error naming the file (and node/tensor where it applies) on bad input.
  [[nodiscard]] virtual Workload load(const std::filesystem::path& source, const FrontendOptions& options,
                                      const Registries& registries) const = 0;
};

using FrontendPtr = std::shared_ptr<const WorkloadFrontend>;

}  // namespace stream
