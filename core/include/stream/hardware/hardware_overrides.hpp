// Hardware overrides: a value put at a path into an accelerator file and the core files it names,
// so that a sweep can vary array sizes, memory sizes and bandwidths without a copy of the files.
//
// A path is `/`-separated keys from the accelerator file's top, with every core reference replaced
// by the core file it names (so `cores/<id>/...` reaches into a core's own YAML). A segment is a
// key, a list index, or `*` (every entry there); under `cores`, a segment that is not a core id
// selects the cores whose `name` is that segment. Examples:
//   cores/tpu_like/operational_array/sizes      every core named tpu_like
//   cores/*/memories/sram_2MB/size               each core that has an sram_2MB
//   core_connectivity/*/bandwidth                every link and bus
// An override only replaces what is there (a path that matches nothing is an error, so a typo
// cannot pass unnoticed); the result is then validated like any accelerator file.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "stream/export.hpp"
#include "stream/hardware/accelerator.hpp"

namespace stream::hardware {

struct HardwareOverride {
  std::string path;   ///< as above, without the sweep's `hardware/` prefix
  std::string value;  ///< YAML text (a scalar, or a flow list or map)
};

/// The path's segments; throws a stream::Error naming the path when one is empty.
[[nodiscard]] std::vector<std::string> override_segments(std::string_view path);

/// One override axis of a sweep: its path and every value it takes (YAML text).
struct OverrideAxis {
  std::string path;
  std::vector<std::string> values;
};

/// Why an override axis cannot apply: its index, the value at fault (none: the path itself) and
/// the message (the path, and what the file has where the path stops matching, or what it holds
/// where a value of another type would go).
struct OverrideProblem {
  std::size_t axis = 0;
  std::optional<std::size_t> value;
  std::string message;
};

/// Checks override axes against the accelerator file at `path` (its core files inlined) before any
/// variant is made, so that a typo stops a sweep at once instead of failing each of its points: a
/// path must reach something, and each value must be of the kind found there (a number for a
/// number, a list for a list, a map for a map, true/false for a truth value; anything goes where
/// the file has null). Axes are checked in order, each after the earlier ones' first values are
/// put in (as a point's variant does). A file that does not read gives no problem here: the points
/// report it.
[[nodiscard]] STREAM_API std::optional<OverrideProblem> check_overrides(const std::filesystem::path& path,
                                                                        const std::vector<OverrideAxis>& axes);

/// Variants of accelerator files: each file and its core files are read once, and a variant is
/// that tree with the overrides applied (on a working copy, put back after), then validated. Safe
/// to use from several threads.
class STREAM_API HardwareVariants {
 public:
  HardwareVariants();
  ~HardwareVariants();
  HardwareVariants(const HardwareVariants&) = delete;
  HardwareVariants& operator=(const HardwareVariants&) = delete;

  /// The accelerator at `path` with `overrides` applied in order. Errors name the file and the
  /// overrides; a path that matches nothing is an error.
  [[nodiscard]] Accelerator load(const std::filesystem::path& path, const std::vector<HardwareOverride>& overrides);

 private:
  struct Trees;
  std::unique_ptr<Trees> trees_;
};

/// One variant, reading the files for it alone.
[[nodiscard]] STREAM_API Accelerator load_accelerator_with_overrides(const std::filesystem::path& path,
                                                                     const std::vector<HardwareOverride>& overrides);

}  // namespace stream::hardware
