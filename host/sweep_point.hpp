// One design point of a sweep, resolved: the files and values it stands for, its identity, and
// what evaluating it gave. The sweep command computes every point's identity first, loads each
// distinct hardware file and workload once, and then evaluates the points on a thread pool, each
// resolved when a worker takes it (paths relative to the sweep file, then the bundled inputs)
// and evaluated against the shared, read-only inputs.
//
// A point's identity is the 64-bit FNV-1a hash, in hex, of its canonical description: for each
// named axis `name=value` with every file replaced by the FNV-1a hash of its bytes (a hardware
// file's followed by those of the core files it names), then the
// hardware overrides as `hardware/<path>=value` in file order, then the block parameters as
// `name=value` sorted by name. Renaming or moving a file keeps the identity;
// editing it changes it. A resumed sweep skips the points whose identity is already in its results.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <stream/hardware/hardware_overrides.hpp>
#include <stream/compat.hpp>
#include <stream/cost/cost_profile.hpp>
#include <stream/sweep/sweep_file.hpp>

#include "workload_source.hpp"

namespace stream::host {

struct ResolvedPoint {
  std::size_t index = 0;  ///< in the sweep's product order
  std::string id;
  std::vector<std::string> axis_values;  ///< as written, per axis
  std::vector<sweep::TypedValue> typed_values;  ///< as the results hold them, per axis (sweep::typed_value)
  std::filesystem::path hardware;
  std::vector<hardware::HardwareOverride> overrides;  ///< the `hardware/<path>` axes, in file order
  WorkloadSource workload;
  std::optional<std::filesystem::path> mapping;  ///< none: automatic
  std::string mapping_search;  ///< `search[?...]` (pipeline/mapping_search.hpp), empty: none
  std::string mapping_optimize;  ///< `optimize[?...]` (optimize/optimize_spec.hpp), empty: none
  std::string intra_core_tiling;
  cost::CostProfile cost_profile = cost::CostProfile::Reference;  ///< the `cost_profile` axis
  Compat compat = Compat::None;  ///< the `compat` axis (stream run --compat)
  std::string problem;  ///< why the point cannot run (an input that does not resolve), empty when it can
};

/// Resolves the points of one sweep file one at a time, so that a sweep of many points need not
/// hold them all resolved; each file is read for its hash once. Bad values (a missing file) make
/// the point's `problem`, not an exception, so that the other points still run. Thread-safe.
class PointResolver {
 public:
  explicit PointResolver(const sweep::SweepFile& sweep);
  ~PointResolver();
  PointResolver(const PointResolver&) = delete;
  PointResolver& operator=(const PointResolver&) = delete;
  [[nodiscard]] ResolvedPoint resolve(const sweep::Point& point) const;
  /// The sweep's identity: the FNV-1a hash, in hex, of its axes (each value as a point's identity
  /// gives it, so a file by the hash of its bytes), zip groups, sample and budget, and the default
  /// hardware and workload when there is no such axis. Shards of one sweep share it; a shard of an
  /// edited sweep file or input file has another (sweep_shard.hpp).
  [[nodiscard]] std::string sweep_identity() const;
  /// The first hardware file: the hardware axis's first value, resolved, or the default when
  /// there is no such axis; none when that value does not resolve (its points say why).
  [[nodiscard]] std::optional<std::filesystem::path> first_hardware() const;

 private:
  struct Hashes;
  const sweep::SweepFile& sweep_;
  std::unique_ptr<Hashes> hashes_;
};

/// A result row: the point, every axis value, status (ok, unsolved, over_budget, failed), reason,
/// latency, energy, EDP, area, peak access energy, MAC utilisations and wall time.
using Row = nlohmann::ordered_json;

/// The key a workload is loaded and cached under (file or block, parameters, cast).
[[nodiscard]] std::string workload_key(const WorkloadSource& source);

/// 64-bit FNV-1a, the identity hash (documented above).
[[nodiscard]] std::uint64_t fnv1a(std::string_view bytes, std::uint64_t h = 0xcbf29ce484222325ULL);

}  // namespace stream::host
