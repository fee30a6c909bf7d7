// A shard of a sweep, and what its output directory records about it.
//
// `--shard I/N` evaluates the points I, I+N, I+2N, ... of the sweep's list (the sample's points or
// the whole product, sweep::PointList), each made from its number when it is used, so that a
// sweep of 10^8 points holds nothing per point. Before its first point every sweep writes
// OUT/sweep.json: the sweep's identity (PointResolver::sweep_identity: its axes, zip, sample and
// budget, each file by the hash of its bytes), the shard, the product's size, the sample and --strict.
// `stream sweep merge` reads it to refuse a result that would lie: shards of different sweeps, a
// shard given twice or not at all, and a shard whose rows do not cover its points (a shard killed
// midway), each naming the directory and what is missing.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <stream/sweep/sweep_file.hpp>

namespace stream::host {

struct Shard {
  std::uint64_t index = 0;
  std::uint64_t count = 1;
  [[nodiscard]] std::string str() const { return std::to_string(index) + "/" + std::to_string(count); }
};

/// "I/N" with 0 <= I < N; empty: the whole sweep (0/1). Throws a stream::Error otherwise.
[[nodiscard]] Shard parse_shard(const std::string& text);

/// The points of one shard, in product order, made one at a time.
class ShardPoints {
 public:
  /// Throws as sweep::point_count does (over 10^8 points without a sample), before anything is built.
  ShardPoints(const sweep::SweepFile& sweep, Shard shard);
  [[nodiscard]] std::uint64_t size() const { return size_; }
  /// The shard's j-th point (0 <= j < size()).
  [[nodiscard]] sweep::Point at(std::uint64_t j) const;
  [[nodiscard]] const sweep::PointList& list() const { return list_; }

 private:
  const sweep::SweepFile& sweep_;
  sweep::PointList list_;
  Shard shard_;
  std::uint64_t size_ = 0;
};

/// A line on stderr about once a second while a pass over many points runs
/// ("[stream sweep] listing points: 1200000/10000000"), so that a long one is never silent; none
/// for a pass shorter than a second.
class PassProgress {
 public:
  PassProgress(std::string what, std::uint64_t total);
  /// Cheap: reads the clock once every 4,096 points.
  void tick(std::uint64_t done);

 private:
  std::string what_;
  std::uint64_t total_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now(), last_ = start_;
};

/// OUT/sweep.json.
struct ShardRecord {
  std::string sweep;  ///< the sweep's identity (hex)
  std::string file;   ///< the sweep file, for messages
  Shard shard;
  std::uint64_t product = 0;
  std::optional<sweep::Sample> sample;
  bool strict = false;  ///< --strict, which fails rows another run gives figures
};

inline constexpr const char* kShardRecordFile = "sweep.json";

/// Written whole or not at all (a temporary file renamed over it).
void write_shard_record(const std::filesystem::path& dir, const ShardRecord& record);

/// The rows (results.jsonl lines) of the shard directories, one per point of the sweep in product
/// order; `merged` gets the record of the whole. Throws a stream::Error (exit 2) naming the
/// directory and the problem: no record, a different sweep or split, a shard given twice or not
/// at all, or points of a shard without a row (how many, and the first point numbers).
[[nodiscard]] std::vector<std::string> merged_rows(const std::vector<std::filesystem::path>& dirs, ShardRecord& merged);

}  // namespace stream::host
