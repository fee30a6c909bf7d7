// A sweep: the design points a `stream sweep` evaluates, read from a YAML file.
//
//   axes:                      # each axis: a list of values; the points are their product
//     hardware: [tpu_like_quad_core.yaml, simba_small.yaml]
//     workload: [2conv.onnx, "block:swiglu?seq=64"]
//     mapping: [auto]          # files, or auto
//     intra_core_tiling: ["", "Gemm_Left.D1=128"]
//     cast: [none, bf16]
//     cost_profile: [reference, full]   # the estimates' latency (stream run --cost-profile)
//     compat: [none, stream-1.13]       # whose automatic path (stream run --compat)
//     seq: [64, 128]           # any other key: a parameter of the block workloads
//   zip:                       # axes that advance together (equal lengths): one factor each
//     - [hardware, mapping]
//   sample: {count: 10, seed: 1}   # a seeded random subset of the product, in product order
//   budget: {max_area_mm2: 10, max_peak_energy_pj_per_cycle: 20000}   # points over it are skipped
//
// Points are numbered in product order: the first axis (or zip group) varies slowest, in file
// order. File values stay as written (paths are resolved by the host, relative to the sweep file);
// a point's identity is a hash of what it resolves to, computed by the host. Errors name the
// file, line and column, as every other YAML input.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "stream/error.hpp"
#include "stream/export.hpp"

namespace stream::sweep {

/// The axes with a meaning of their own; any other axis name is a block parameter.
inline constexpr const char* kNamedAxes[] = {"hardware", "workload", "mapping", "intra_core_tiling", "cast",
                                             "cost_profile", "compat"};

/// An axis named `hardware/<path>` puts its values at <path> into each point's hardware
/// (stream/hardware/hardware_overrides.hpp); its values may be lists or maps, kept as flow YAML.
inline constexpr std::string_view kOverridePrefix = "hardware/";
[[nodiscard]] inline bool is_hardware_override(std::string_view axis) { return axis.starts_with(kOverridePrefix); }
[[nodiscard]] inline std::string_view override_path(std::string_view axis) { return axis.substr(kOverridePrefix.size()); }

/// What a value is in the sweep file, so that the results keep it: a plain (unquoted) scalar that
/// reads as an integer, a real number or true/false is one; anything else, a quoted scalar
/// included, is text; a hardware override's list or map is a structure (kept as flow YAML).
enum class ValueKind { Text, Integer, Real, Boolean, Structure };

struct Axis {
  std::string name;
  std::vector<std::string> values;
  std::vector<Location> where;  ///< per value
  std::vector<ValueKind> kinds;  ///< per value
  Location key_where;  ///< the axis name's place, for errors about the axis as a whole
};

/// A value as the results hold it: its number or truth value when the file wrote one (ValueKind),
/// else its text. A point's identity hashes the text, so `2` and `"2"` are one point.
using TypedValue = std::variant<std::string, std::int64_t, double, bool>;
[[nodiscard]] STREAM_API TypedValue typed_value(const Axis& axis, std::size_t value);

struct Sample {
  std::int64_t count = 0;
  std::uint64_t seed = 0;
};

struct Budget {
  std::optional<double> max_area_mm2;
  std::optional<double> max_peak_energy_pj_per_cycle;
};

struct SweepFile {
  std::filesystem::path path;
  std::vector<Axis> axes;                         ///< file order
  std::vector<std::vector<std::size_t>> factors;  ///< axis indices per factor (a zip group or one axis)
  std::optional<Sample> sample;
  Budget budget;
};

/// One design point: a value index per axis (same order as SweepFile::axes).
struct Point {
  std::size_t index = 0;  ///< position in product order
  std::vector<std::size_t> value;
};

[[nodiscard]] STREAM_API SweepFile parse_sweep_file(const std::string& text, const std::filesystem::path& path);
[[nodiscard]] STREAM_API SweepFile load_sweep_file(const std::filesystem::path& path);

/// Every point of the product, or the sample's points, in product order. Throws a stream::Error
/// when the product has more than 10^8 points (a sample may pick from up to 2^62). Builds them all:
/// for a sweep of any size use PointList, which counts first and makes a point from its number.
[[nodiscard]] STREAM_API std::vector<Point> points(const SweepFile& sweep);

/// The product's size (checked: throws a stream::Error above 2^62).
[[nodiscard]] STREAM_API std::uint64_t product_size(const SweepFile& sweep);

/// The most points a sweep lists without a sample (and the largest sample).
inline constexpr std::uint64_t kMaxListedPoints = 100'000'000;

/// The points a sweep evaluates (the sample's, or the whole product), counted without building
/// them: a stream::Error naming the count when the product is over kMaxListedPoints and there is
/// no sample.
[[nodiscard]] STREAM_API std::uint64_t point_count(const SweepFile& sweep);

/// The point with product number `index`: the factors' value indices as mixed-radix digits of it,
/// the last factor varying fastest.
[[nodiscard]] STREAM_API Point point_at(const SweepFile& sweep, std::uint64_t index);

/// The numbers (product order) of the points a sweep evaluates, k-th on demand: the product's k-th
/// is k itself, so a sweep of 10^8 points holds nothing per point; a sample holds its chosen
/// numbers (8 bytes each). Made from the product's size and the sample alone, so that `stream sweep
/// merge` can list a shard's points from what the shard recorded, without the sweep file.
class STREAM_API PointList {
 public:
  /// Throws as point_count() does.
  explicit PointList(const SweepFile& sweep);
  PointList(std::uint64_t product, const std::optional<Sample>& sample, const std::filesystem::path& file = {});
  [[nodiscard]] std::uint64_t size() const { return size_; }
  [[nodiscard]] std::uint64_t number(std::uint64_t k) const { return chosen_.empty() ? k : chosen_[k]; }

 private:
  std::uint64_t size_ = 0;
  std::vector<std::uint64_t> chosen_;  ///< a sample's numbers, ascending; empty for the product
};

}  // namespace stream::sweep
