#include "sweep_shard.hpp"

#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>

#include <stream/error.hpp>
#include <stream/io/atomic_file.hpp>
#include <stream/io/bounded_json.hpp>
#include <stream/io/utf8.hpp>

#include "sweep_point.hpp"

namespace stream::host {

namespace fs = std::filesystem;

namespace {

// How many missing point numbers a message lists; the count says how many there are in all.
constexpr std::size_t kListedMissing = 10;

Row shard_record_json(const ShardRecord& r) {
  Row j{{"sweep", r.sweep}, {"file", io::to_valid_utf8(r.file)}, {"shard", r.shard.str()}, {"product", r.product}};
  j["sample"] = r.sample ? Row{{"count", r.sample->count}, {"seed", r.sample->seed}} : Row(nullptr);
  j["strict"] = r.strict;
  return j;
}

// A shard directory's record; an error naming the directory when it is missing or unreadable
// (a directory of an older `stream`, or not a sweep's --out).
ShardRecord read_shard_record(const fs::path& dir) {
  std::ifstream in(dir / kShardRecordFile);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto j = io::parse_json_bounded<Row>(text);
  const Location where{.file = dir.string()};
  if (!in.is_open() || !j.is_object())
    throw Error(std::string("no readable ") + kShardRecordFile +
                    " (which sweep and shard these results are of): is it a sweep's --out? A sweep run by this version "
                    "of stream records it; rerun the shard's command (it resumes) and merge again",
                where);
  try {
    ShardRecord r{j.at("sweep").get<std::string>(), j.at("file").get<std::string>(),
                  parse_shard(j.at("shard").get<std::string>()), j.at("product").get<std::uint64_t>(), std::nullopt};
    if (!j.at("sample").is_null())
      r.sample = sweep::Sample{j["sample"].at("count").get<std::int64_t>(), j["sample"].at("seed").get<std::uint64_t>()};
    r.strict = j.value("strict", false);
    return r;
  } catch (const std::exception& e) {
    throw Error(std::string(kShardRecordFile) + " is not as a sweep writes it: " + e.what(), where);
  }
}

// The shard's rows by point number (a later line for the same point wins, as on resume); lines
// that are not a row (cut short by a kill, nested too deep) are skipped.
std::map<std::uint64_t, std::string> rows_by_point(const fs::path& dir) {
  std::map<std::uint64_t, std::string> rows;
  std::ifstream in(dir / "results.jsonl");
  for (std::string line; std::getline(in, line);) {
    const auto row = io::parse_json_bounded<Row>(line);
    if (row.is_object() && row.contains("id") && row["id"].is_string() && row.contains("point") &&
        row["point"].is_number_unsigned())
      rows[row["point"].get<std::uint64_t>()] = io::dump_json(row, -1);
  }
  return rows;
}

// The directories' records: one sweep, one split into shards, each shard once and none missing.
std::vector<ShardRecord> checked_records(const std::vector<fs::path>& dirs) {
  std::vector<ShardRecord> records;
  std::map<std::uint64_t, std::size_t> given;  // shard index -> directory
  for (std::size_t d = 0; d < dirs.size(); ++d) {
    const Location where{.file = dirs[d].string()};
    // A shard killed before its first row has its record and no rows: incomplete, said below.
    if (!fs::exists(dirs[d] / kShardRecordFile) && !fs::is_regular_file(dirs[d] / "results.jsonl"))
      throw Error("no results.jsonl in this directory (is it a sweep's --out?)", where);
    records.push_back(read_shard_record(dirs[d]));
    const auto& r = records.back();
    const auto& first = records.front();
    if (r.sweep != first.sweep)
      throw Error("different sweep: these are results of sweep " + r.sweep + " (" + r.file + "), " + dirs[0].string() +
                      " holds sweep " + first.sweep + " (" + first.file +
                      "); a sweep's identity covers its file's axes, zip, sample and budget and the bytes of every file "
                      "it names",
                  where);
    if (r.strict != first.strict)
      throw Error(std::string("run ") + (r.strict ? "with" : "without") + " --strict, but " + dirs[0].string() + " " +
                      (first.strict ? "with" : "without") + ": their rows of one point can differ; rerun one of them",
                  where);
    if (r.shard.count != first.shard.count)
      throw Error("shard " + r.shard.str() + ", but " + dirs[0].string() + " is shard " + first.shard.str() +
                      ": merge the shards of one --shard I/N split",
                  where);
    if (const auto [at, fresh] = given.emplace(r.shard.index, d); !fresh)
      throw Error("shard " + r.shard.str() + " is given twice (also " + dirs[at->second].string() + ")", where);
  }
  if (given.size() != records.front().shard.count) {
    std::string missing;
    for (std::uint64_t i = 0, listed = 0; i < records.front().shard.count && listed < kListedMissing; ++i)
      if (!given.count(i)) missing += (listed++ ? ", " : "") + std::to_string(i);
    throw Error("sweep merge: " + std::to_string(records.front().shard.count - given.size()) + " of " +
                std::to_string(records.front().shard.count) + " shards not given (shards " + missing +
                "): give every shard's directory");
  }
  return records;
}

// The rows of one shard's points, appended to `out` by point number; an error naming the
// directory, how many points have no row and the first of them.
void take_shard_rows(const fs::path& dir, const ShardRecord& r, const sweep::PointList& list,
                     std::map<std::uint64_t, std::string>& out) {
  auto rows = rows_by_point(dir);
  std::uint64_t expected = 0, missing = 0;
  std::string first_missing;
  for (std::uint64_t k = r.shard.index; k < list.size(); k += r.shard.count, ++expected) {
    const auto number = list.number(k);
    if (auto row = rows.find(number); row != rows.end()) out[number] = std::move(row->second);
    else if (missing++ < kListedMissing) first_missing += (missing > 1 ? ", " : "") + std::to_string(number);
  }
  if (missing > 0)
    throw Error("shard " + r.shard.str() + " is incomplete: " + std::to_string(missing) + " of " +
                    std::to_string(expected) + " points have no row (points " + first_missing +
                    (missing > kListedMissing ? ", ..." : "") +
                    "); run the shard's command again (it resumes), then merge",
                Location{.file = dir.string()});
}

}  // namespace

Shard parse_shard(const std::string& text) {
  if (text.empty()) return {};
  const auto slash = text.find('/');
  Shard s{0, 0};
  try {
    if (slash == std::string::npos) throw std::invalid_argument("no /");
    std::size_t used = 0;
    s.index = std::stoull(text.substr(0, slash), &used);
    if (used != slash) throw std::invalid_argument("I");
    s.count = std::stoull(text.substr(slash + 1), &used);
    if (used != text.size() - slash - 1) throw std::invalid_argument("N");
  } catch (const std::exception&) {
    s.count = 0;
  }
  if (s.count == 0 || s.index >= s.count) throw Error("--shard expects I/N with 0 <= I < N, got '" + text + "'");
  return s;
}

ShardPoints::ShardPoints(const sweep::SweepFile& sweep, Shard shard) : sweep_(sweep), list_(sweep), shard_(shard) {
  size_ = list_.size() > shard.index ? (list_.size() - shard.index + shard.count - 1) / shard.count : 0;
}

sweep::Point ShardPoints::at(std::uint64_t j) const {
  return sweep::point_at(sweep_, list_.number(shard_.index + j * shard_.count));
}

PassProgress::PassProgress(std::string what, std::uint64_t total) : what_(std::move(what)), total_(total) {}

void PassProgress::tick(std::uint64_t done) {
  if (done % 4096 != 0 && done != total_) return;
  const auto now = std::chrono::steady_clock::now();
  if (now - last_ < std::chrono::seconds(1)) return;
  last_ = now;
  std::fprintf(stderr, "[stream sweep] %s: %llu/%llu (%.0f s)\n", what_.c_str(), static_cast<unsigned long long>(done),
               static_cast<unsigned long long>(total_), std::chrono::duration<double>(now - start_).count());
}

void write_shard_record(const fs::path& dir, const ShardRecord& record) {
  io::write_file_atomically(dir / kShardRecordFile, io::dump_json(shard_record_json(record), 1) + "\n");
}

std::vector<std::string> merged_rows(const std::vector<fs::path>& dirs, ShardRecord& merged) {
  if (dirs.empty()) throw Error("sweep merge: give the shards' directories");
  const auto records = checked_records(dirs);
  merged = records.front();
  merged.shard = {};
  const sweep::PointList list(merged.product, merged.sample, merged.file);
  std::map<std::uint64_t, std::string> rows;
  for (std::size_t d = 0; d < dirs.size(); ++d) take_shard_rows(dirs[d], records[d], list, rows);
  std::vector<std::string> ordered;
  ordered.reserve(rows.size());
  for (auto& [number, text] : rows) ordered.push_back(std::move(text));
  return ordered;
}

}  // namespace stream::host
