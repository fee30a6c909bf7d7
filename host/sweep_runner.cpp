#include "sweep_runner.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <exception>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <optional>
#include <thread>

#include <stream/cost/core_probe.hpp>
#include <stream/error.hpp>
#include <stream/hardware/accelerator_reader.hpp>
#include <stream/hardware/hardware_cost.hpp>
#include <stream/mapping/group_mapping.hpp>
#include <stream/pipeline/mapping_search.hpp>
#include <stream/pipeline/metrics.hpp>
#include <stream/pipeline/run.hpp>
#include <stream/io/atomic_file.hpp>
#include <stream/report/cost_fallbacks.hpp>
#include <stream/report/result_directory.hpp>
#include <stream/report/sweep_report.hpp>
#include <stream/report/write.hpp>
#include <stream/io/utf8.hpp>
#include <stream/sweep/pareto.hpp>

#include "environment_failure.hpp"
#include "host_context.hpp"
#include "optimize_outcome.hpp"
#include "optimizer_report.hpp"
#include "plugin_host.hpp"
#include "run_spec_builder.hpp"
#include "sweep_lock.hpp"
#include "sweep_preflight.hpp"
#include "sweep_row.hpp"
#include "sweep_shard.hpp"
#include "validation.hpp"

namespace stream::host {
namespace {

namespace fs = std::filesystem;

struct HardwareEntry {
  std::optional<hardware::Accelerator> accelerator;
  hardware::HardwareCostReport cost;
  std::string problem;
  std::string environment;  ///< why the machine failed loading it (environment_failure.hpp); empty: it did not
};

struct WorkloadEntry {
  std::optional<Workload> workload;
  /// As the automatic path schedules it (run_spec_builder.hpp, scheduled_workload), prepared here
  /// because the workers use no plugin; none under `decompose` (applied when loaded).
  std::optional<Workload> automatic;
  std::string problem;
  std::string automatic_problem;  ///< why the automatic path's expansion failed (its points fail)
  std::string environment;
};


// Thrown by evaluate() for a point the machine failed (out of memory, a full disk, ...): it gets
// no row, so that a resumed sweep retries it instead of keeping a failure that is not the point's.
struct RetryLater {
  std::string reason;
};

// The inputs every point reads, loaded once before the workers start (plugins are not used
// from several threads at once).
struct SharedInputs {
  std::map<std::string, HardwareEntry> hardware;
  std::map<std::string, WorkloadEntry> workloads;
  std::shared_ptr<hardware::HardwareVariants> variants = std::make_shared<hardware::HardwareVariants>();
  std::vector<CostBackend> cost_backends;
};

std::string message_of(const std::exception& e) { return e.what(); }

void load_workload_entry(const WorkloadSource& source, WorkloadEntry& entry, HostContext& ctx) {
  try {
    entry.workload = load_workload(ctx, source).workload;
  } catch (const std::exception& e) {
    entry.problem = message_of(e);
    entry.environment = environment_failure(e).value_or("");
    return;
  }
  if (source.decompose) return;
  try {
    entry.automatic = automatic_path_workload(*entry.workload, ctx);
  } catch (const Error& e) {
    entry.automatic_problem = message_of(e);
  }
}

// A variant the cost model cannot use fails its point (with the place and reason `stream validate`
// gives), rather than ranking on estimates.
HardwareEntry load_hardware(const ResolvedPoint& p, hardware::HardwareVariants& variants,
                            const std::vector<CostBackend>& backends) {
  HardwareEntry h;
  try {
    h.accelerator = variants.load(p.hardware, p.overrides);
    Diagnostics probe(false);
    add_probe_errors(*h.accelerator, cost::probe_accelerator(*h.accelerator), backends, probe);
    probe.throw_if_errors("hardware the cost model cannot use", p.hardware.string());
    h.cost = hardware::hardware_cost(*h.accelerator);
  } catch (const std::exception& e) {
    h.accelerator.reset();
    h.problem = message_of(e);
    h.environment = environment_failure(e).value_or("");
  }
  return h;
}

// Runs task(0) ... task(n - 1) on up to `jobs` threads (this one included), each taking the next
// index; every thread makes its own task with make_task() (a worker's own state, such as a cache).
// The first error on any thread (a full disk under the row log, ...) stops the others taking more
// work and is rethrown here once all have joined: escaping a thread would abort the process.
template <class MakeTask>
void parallel_for(std::size_t n, int jobs, const MakeTask& make_task) {
  std::atomic<std::size_t> next{0};
  std::exception_ptr failure;
  std::mutex failure_mutex;
  auto work = [&] {
    try {
      auto task = make_task();
      for (std::size_t k; (k = next.fetch_add(1)) < n;) task(k);
    } catch (...) {
      next.store(n);
      const std::lock_guard lock(failure_mutex);
      if (!failure) failure = std::current_exception();
    }
  };
  std::vector<std::thread> threads;
  for (int t = 1; t < std::min<int>(jobs, static_cast<int>(n)); ++t) threads.emplace_back(work);
  work();
  for (auto& t : threads) t.join();
  if (failure) std::rethrow_exception(failure);
}

// Hardware files are loaded once here, on `jobs` threads (reading YAML is most of a small sweep's
// set-up); a variant made by overrides is made by the point that uses it, from the file's tree
// read once (a sweep may have thousands, and holding them all would grow with the sweep).
// Workloads are loaded one by one, since their frontends are plugins.
// The points to evaluate are found in the same pass, one bit each in `todo` (those `done` does not
// hold), made and resolved one at a time: a sweep of 10^8 points holds 12.5 MB for them.
template <class Done>
SharedInputs load_inputs(const ShardPoints& points, const Done& done, const PointResolver& resolver, HostContext& ctx,
                         int jobs, std::vector<bool>& todo) {
  SharedInputs in;
  std::vector<std::pair<ResolvedPoint, HardwareEntry*>> files;
  std::vector<std::pair<WorkloadSource, WorkloadEntry*>> workloads;
  todo.assign(points.size(), false);
  PassProgress progress("listing points", points.size());
  for (std::uint64_t j = 0; j < points.size(); progress.tick(++j)) {
    auto p = resolver.resolve(points.at(j));
    if (done(p.id)) continue;
    todo[j] = true;
    if (!p.problem.empty()) continue;
    if (auto [w, fresh] = in.workloads.try_emplace(workload_key(p.workload)); fresh) workloads.emplace_back(p.workload, &w->second);
    if (p.overrides.empty())
      if (auto [h, fresh] = in.hardware.try_emplace(p.hardware.string()); fresh) files.emplace_back(std::move(p), &h->second);
  }
  in.cost_backends = ctx.plugins().registries().cost_backend_list();
  parallel_for(files.size(), jobs, [&] {
    return [&](std::size_t k) { *files[k].second = load_hardware(files[k].first, *in.variants, in.cost_backends); };
  });
  for (auto& [source, entry] : workloads) load_workload_entry(source, *entry, ctx);
  return in;
}

// The point's figures, with how many (node, core) costs are estimates and the share of latency and
// energy (percent) resting on them (report/cost_fallbacks.hpp), so that no figure that rests on an
// estimate goes unmarked into a ranking, and its fullest memory.
void add_figures(Row& row, const pipeline::RunResult& r, const report::CostFallbacks& f, const hardware::Accelerator& acc) {
  const auto m = pipeline::run_metrics(r, acc);
  row["latency"] = r.total_latency;
  row["energy_pj"] = r.total_energy;
  row["edp"] = r.edp;
  row["mac_spatial_utilization"] = m.mac_spatial_utilization;
  row["end_to_end_mac_utilization"] =
      m.end_to_end_mac_utilization ? Row(*m.end_to_end_mac_utilization) : Row(nullptr);
  row["estimates"] = f.count();
  row["estimate_latency_share"] = report::share_percent(f.latency_share);
  row["estimate_energy_share"] = report::share_percent(f.energy_share);
  // The core whose peak occupancy is the largest share of its capacity (pipeline/memory_use.hpp).
  const auto* full = pipeline::fullest_core(m.memory);
  row["peak_memory_core"] = full ? Row(full->core) : Row(nullptr);
  row["peak_memory_bits"] = full ? Row(full->peak_bits) : Row(nullptr);
  row["peak_memory_share"] = full ? Row(report::share_percent(full->share())) : Row(nullptr);
}

// The point's full results under DIR/points/<id>/, named in its row: written into a staging
// folder of their own and moved into place whole (report/result_directory.hpp), replacing an
// earlier run's in one step. So a killed sweep never leaves part of a folder, and two points with
// one id (a value repeated in an axis, two copies of a file) on two workers each write a folder
// of their own, the later replacing the earlier whole, instead of removing and writing one together.
// An optimized point's folder also gets optimize.yaml and best_mapping.yaml, and the optimizer in
// its summary.* and report.html, as `stream run` writes them.
void keep_point(Row& row, const pipeline::RunResult& r, const pipeline::RunTimings& timings, const hardware::Accelerator& acc,
                const fs::path& dir, const std::string& id, const optimize::OptimizeResult* optimized) {
  const fs::path rel = fs::path("points") / id;
  report::StagedResultDirectory folder(dir / rel);
  const auto optimizer = optimized != nullptr ? std::optional(optimizer_report(*optimized, r)) : std::nullopt;
  report::write_results(r, timings, acc, folder.staging(), "cbc", false, true, {}, optimizer ? &*optimizer : nullptr);
  if (optimized != nullptr) optimize::write_optimize_files(*optimized, folder.staging());
  folder.commit();
  row["report"] = (rel / "report.html").generic_string();
}

// The point as `stream run` options, for the one spec builder (run_spec_builder.hpp).
RunRequest point_request(const ResolvedPoint& p) {
  RunRequest r;
  r.workload = p.workload;
  r.mapping = !p.mapping_search.empty()     ? p.mapping_search
              : !p.mapping_optimize.empty() ? p.mapping_optimize
              : p.mapping                   ? p.mapping->string()
                                            : "";
  r.intra_core_tiling = p.intra_core_tiling;
  r.cost_profile = cost::name(p.cost_profile);
  r.compat = name(p.compat);
  return r;
}

// The point's run: the pipeline on its mapping, the mapping search's best (its variant and how
// many were evaluated go to `found`; a search whose variants all failed fails the point) or the
// mapping optimizer's best (its outcome in `optimized`, its columns in `found`).
pipeline::RunResult run_point(const ResolvedPoint& p, const WorkloadEntry& w, const hardware::Accelerator& acc,
                              const SharedInputs& in, const std::shared_ptr<pipeline::RunCache>& cache,
                              pipeline::RunTimings& timings, Row& found, std::optional<optimize::OptimizeResult>& optimized) {
  const RunRequest request = point_request(p);
  BuiltSpec built = build_run_spec(request, in.cost_backends);
  // The sweep runs its points on its own jobs already: a point's optimizer takes one thread
  // unless its jobs= says otherwise (not the machine's every core per point).
  if (built.optimize && built.optimize->jobs == 0) built.optimize->jobs = 1;
  const bool automatic = schedules_automatic_path(request, built);
  if (automatic && !w.automatic_problem.empty()) throw Error(w.automatic_problem);
  pipeline::RunEnv env;
  env.cache = cache;
  env.timings = &timings;
  pipeline::SearchResult s;
  if (built.optimize) optimized.emplace();
  auto r = run_or_search(automatic ? *w.automatic : *w.workload, acc, built, env, &s, optimized ? &*optimized : nullptr);
  if (optimized) found.update(optimize_row_columns(*optimized));
  if (s.best) {
    found["mapping_variant"] = s.variants[*s.best].tag;
    found["variants_evaluated"] = s.variants.size();
    found["variants_failed"] = s.failed();
  }
  return r;
}

// An axis value as its row holds it: numbers and truth values as JSON's, text as valid UTF-8.
Row cell(const sweep::TypedValue& value) {
  if (const auto* text = std::get_if<std::string>(&value)) return io::to_valid_utf8(*text);
  return std::visit([](const auto& v) { return Row(v); }, value);
}

Row evaluate(const ResolvedPoint& p, const sweep::SweepFile& sweep, const SharedInputs& in,
             const std::optional<fs::path>& keep_dir, const std::shared_ptr<pipeline::RunCache>& cache, bool strict) {
  const auto t0 = std::chrono::steady_clock::now();
  Row row{{"point", p.index}, {"id", p.id}};
  for (std::size_t a = 0; a < sweep.axes.size(); ++a) row[sweep.axes[a].name] = cell(p.typed_values[a]);
  std::string status = "failed", reason = p.problem;
  if (reason.empty()) {
    const auto variant = p.overrides.empty()
                             ? std::nullopt
                             : std::optional<HardwareEntry>(load_hardware(p, *in.variants, in.cost_backends));
    const auto& h = variant ? *variant : in.hardware.at(p.hardware.string());
    const auto& w = in.workloads.at(workload_key(p.workload));
    if (!h.environment.empty() || !w.environment.empty())
      throw RetryLater{!h.environment.empty() ? h.environment : w.environment};
    reason = !h.problem.empty() ? h.problem : w.problem;
    if (h.accelerator) {
      row["area_mm2"] = h.cost.total_area_mm2;
      row["peak_energy_pj_per_cycle"] = h.cost.peak_access_energy_pj_per_cycle;
      const auto verdict = hardware::check_budget(
          h.cost, {sweep.budget.max_area_mm2, sweep.budget.max_peak_energy_pj_per_cycle, "sweep budget"});
      if (!verdict.ok) {
        status = "over_budget";
        reason = verdict.str();
      }
    }
    if (reason.empty()) try {
        Row found = Row::object();
        pipeline::RunTimings timings;
        std::optional<optimize::OptimizeResult> optimized;
        const auto r = run_point(p, w, *h.accelerator, in, cache, timings, found, optimized);
        const auto fallbacks = report::cost_fallbacks(r);
        if (strict)
          if (const auto estimate = report::first_mac_estimate(fallbacks)) throw Error(report::strict_message(*estimate));
        add_figures(row, r, fallbacks, *h.accelerator);
        row.update(found);
        if (keep_dir) keep_point(row, r, timings, *h.accelerator, *keep_dir, p.id, optimized ? &*optimized : nullptr);
        status = r.solved() ? "ok" : "unsolved";
        if (!r.solved()) reason = "a group's allocation MILP has no optimal solution";
      } catch (const std::exception& e) {
        if (auto why = environment_failure(e)) throw RetryLater{std::move(*why)};
        reason = message_of(e);
      }
  }
  row["status"] = status;
  row["reason"] = io::to_valid_utf8(reason);
  row["wall_s"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return row;
}

// A row kept as its results.jsonl line: at the end of a sweep of 10^4 points the rows are held as
// ~600-byte lines, not as parsed objects of several kB each, and parsed one at a time where needed.
struct RowText {
  Row point;         ///< the row's `point`
  std::string text;  ///< io::dump_json(row, -1)
  std::optional<std::size_t> moved_to;  ///< where the final pass moved `text` (rows of a repeated point copy it)
};

// Rows already in DIR/results.jsonl, by identity; a line a killed run cut short is skipped.
std::map<std::string, RowText> read_rows(const fs::path& file) {
  std::map<std::string, RowText> rows;
  std::ifstream in(file);
  for (std::string line; std::getline(in, line);)
    if (auto row = parse_row_line(line)) rows[row->id] = {std::move(row->point), std::move(row->text)};
  return rows;
}

// A sweep killed while writing a row leaves its last line cut short: drop it before appending.
void drop_partial_line(const fs::path& file) {
  std::error_code ec;
  if (!fs::is_regular_file(file, ec)) return;
  std::ifstream in(file, std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (text.empty() || text.back() == '\n') return;
  const auto last = text.rfind('\n');
  fs::resize_file(file, last == std::string::npos ? 0 : last + 1);
}

// Appends one line with one write(), so a line is either whole or (killed mid-write) unparsable.
class RowLog {
 public:
  explicit RowLog(const fs::path& file) : fd_(-1) {
    drop_partial_line(file);
    fd_ = ::open(file.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd_ < 0) throw Error("cannot append to the sweep results", Location{.file = file.string()}, ErrorKind::Internal);
  }
  ~RowLog() { ::close(fd_); }
  RowLog(const RowLog&) = delete;
  RowLog& operator=(const RowLog&) = delete;
  void append(const Row& row) {
    const std::string line = io::dump_json(row, -1) + "\n";
    const std::lock_guard lock(mutex_);
    if (::write(fd_, line.data(), line.size()) != static_cast<ssize_t>(line.size()))
      throw Error("cannot append to the sweep results (is the disk full?)", {}, ErrorKind::Internal);
  }

 private:
  int fd_;
  std::mutex mutex_;
};

std::string csv_field(const Row& v) {
  if (v.is_null()) return "";
  std::string s = v.is_string() ? v.get<std::string>() : v.dump();
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

Row parsed(const std::string& text) { return Row::parse(text); }

// The columns: every key any row has, in first-seen order (axes, then the figures).
template <class Rows, class Parse>
std::vector<std::string> columns(const Rows& rows, Parse parse) {
  std::vector<std::string> cols;
  for (const auto& text : rows) {
    const Row r = parse(text);
    for (const auto& [k, v] : r.items())
      if (std::find(cols.begin(), cols.end(), k) == cols.end()) cols.push_back(k);
  }
  return cols;
}

template <class Rows, class Parse>
void write_csv(const fs::path& path, const Rows& rows, Parse parse) {
  const auto cols = columns(rows, parse);
  io::AtomicFileWriter out(path);
  std::string line;
  for (std::size_t c = 0; c < cols.size(); ++c) line += (c ? "," : "") + cols[c];
  out.write(line + "\n");
  for (const auto& text : rows) {
    const Row r = parse(text);
    line.clear();
    for (std::size_t c = 0; c < cols.size(); ++c) line += (c ? "," : "") + (r.contains(cols[c]) ? csv_field(r[cols[c]]) : "");
    out.write(line + "\n");
  }
  out.commit();
}

// A row whose figures rest partly on ideal-cycle estimates (a row of an earlier version has no
// such column and counts as exact).
bool rests_on_estimates(const Row& r) {
  return r.contains("estimates") && r["estimates"].is_number() && r["estimates"].get<double>() > 0;
}

// The Pareto front over the ok rows, or over those of them with no estimate (`exact_only`).
std::vector<Row> pareto_rows(const std::vector<std::string>& rows, bool exact_only) {
  std::vector<std::size_t> ok;
  std::vector<std::vector<double>> objectives;
  for (std::size_t i = 0; i < rows.size(); ++i)
    if (const auto r = parsed(rows[i]); r["status"] == "ok" && !(exact_only && rests_on_estimates(r))) {
      ok.push_back(i);
      objectives.push_back({r["latency"].get<double>(), r["energy_pj"].get<double>(), r["area_mm2"].get<double>()});
    }
  std::vector<Row> front;
  for (auto i : sweep::pareto_front(objectives)) front.push_back(parsed(rows[ok[i]]));
  return front;
}

std::vector<std::string> ids_of(const std::vector<Row>& rows) {
  std::vector<std::string> ids;
  for (const auto& r : rows) ids.push_back(r["id"].get<std::string>());
  return ids;
}

// The final files, written row by row; `rows` (results.jsonl lines) are in product order. Returns
// the Pareto front. Each file is written whole or not at all (io/atomic_file.hpp): results.jsonl is
// the row log a resume reads, so rewriting it in place would lose every row not yet rewritten
// when the sweep is killed; a final file cut short would look complete.
std::vector<Row> write_results(const fs::path& dir, const std::vector<std::string>& rows) {
  io::AtomicFileWriter jsonl(dir / "results.jsonl");
  for (const auto& r : rows) jsonl.write(r + "\n");
  jsonl.commit();
  write_csv(dir / "results.csv", rows, parsed);
  auto front = pareto_rows(rows, false);
  write_csv(dir / "pareto.csv", front, [](const Row& r) -> const Row& { return r; });
  report::write_sweep_report(dir / "report.html", rows, ids_of(front), ids_of(pareto_rows(rows, true)));
  return front;
}

class ProgressLine {
 public:
  ProgressLine(std::size_t total, std::size_t done) : total_(total), done_(done), start_done_(done) {}
  void tick(bool failed) {
    const std::lock_guard lock(mutex_);
    ++done_;
    failed_ += failed ? 1 : 0;
    const auto now = std::chrono::steady_clock::now();
    if (done_ != total_ && now - last_ < std::chrono::milliseconds(500)) return;
    last_ = now;
    const double s = std::chrono::duration<double>(now - t0_).count();
    const double rate = s > 0 ? static_cast<double>(done_ - start_done_) / s : 0;
    std::fprintf(stderr, "[stream sweep] %zu/%zu points (%zu failed), %.1f/s, ETA %.0f s\n", done_, total_, failed_, rate,
                 rate > 0 ? static_cast<double>(total_ - done_) / rate : 0.0);
  }

 private:
  std::size_t total_, done_, start_done_, failed_ = 0;
  std::chrono::steady_clock::time_point t0_ = std::chrono::steady_clock::now(), last_{};
  std::mutex mutex_;
};

// The points the machine failed (RetryLater): how many, and the first one's number and reason.
class Retries {
 public:
  void add(std::uint64_t point, const std::string& reason) {
    const std::lock_guard lock(mutex_);
    if (count_++ == 0 || point < first_point_) {
      first_point_ = point;
      first_reason_ = reason;
    }
  }
  [[nodiscard]] std::uint64_t count() const { return count_; }
  [[nodiscard]] std::string first() const { return "point " + std::to_string(first_point_) + ": " + first_reason_; }

 private:
  std::mutex mutex_;
  std::uint64_t count_ = 0, first_point_ = 0;
  std::string first_reason_;
};

void evaluate_all(const ShardPoints& points, const std::vector<bool>& todo, const PointResolver& resolver,
                  const sweep::SweepFile& sweep, const SharedInputs& in, int jobs, const std::optional<fs::path>& keep_dir,
                  bool strict, RowLog& log, ProgressLine& progress, Retries& retries) {
  const auto routes = std::make_shared<pipeline::RouteMemos>();  // the workers' paths, searched once
  parallel_for(points.size(), jobs, [&] {
    // The worker's routes and costs, shared by its points (run_cache.hpp): the same hardware file,
    // and variants with the same topology or cores that perform alike, repeat them.
    return [&, cache = std::make_shared<pipeline::RunCache>(routes)](std::size_t k) {
      if (!todo[k]) return;
      const auto point = points.at(k);
      try {
        const auto row = evaluate(resolver.resolve(point), sweep, in, keep_dir, cache, strict);
        log.append(row);
        progress.tick(row["status"] != "ok");
      } catch (const RetryLater& failure) {
        retries.add(point.index, failure.reason);
        progress.tick(true);
      } catch (const std::bad_alloc& e) {  // outside the point's run (resolving it, its row's text)
        retries.add(point.index, "out of memory (" + std::string(e.what()) + ")");
        progress.tick(true);
      }
    };
  });
}

// A row --strict failed (its reason is report::strict_message's): counted, the first one kept.
void count_strict_failure(const Row& r, SweepOutcome& outcome) {
  if (!r.contains("reason") || !r["reason"].is_string()) return;
  const auto reason = r["reason"].get<std::string>();
  if (reason.rfind(report::kStrictPrefix, 0) != 0) return;
  if (outcome.strict_failures++ == 0) outcome.first_strict_failure = "point " + r["id"].get<std::string>() + ": " + reason;
}

// A rerun into a directory that has rows says so: silently skipping every point of a finished
// sweep looked like a sweep that did nothing.
void say_what_is_done(std::uint64_t points, std::uint64_t done, const fs::path& dir) {
  if (done == 0)
    std::fprintf(stderr, "[stream sweep] %llu points, 0 already in %s\n", static_cast<unsigned long long>(points),
                 dir.string().c_str());
  else
    std::fprintf(stderr, "[stream sweep] resuming: %llu of %llu points already done in %s (--restart starts over)\n",
                 static_cast<unsigned long long>(done), static_cast<unsigned long long>(points), dir.string().c_str());
}

// --restart: the results of earlier runs go, so every point runs again. Only what a sweep writes
// is removed (the row log, the final files, the points' folders with any staging folder a killed
// run left in them); sweep.json is rewritten next, and the lock file stays, held by this run.
void clear_results(const fs::path& dir) {
  for (const char* name : {"results.jsonl", "results.csv", "pareto.csv", "report.html"}) fs::remove(dir / name);
  fs::remove_all(dir / "points");
}

}  // namespace

SweepOutcome run_sweep(const SweepRequest& request, HostContext& ctx) {
  const auto& sweep = request.sweep;
  // Counted (and refused over 10^8 points without a sample) before any is made; each is made from
  // its number when used, and resolved when used (sweep_shard.hpp).
  const auto shard = parse_shard(request.shard);
  const ShardPoints points(sweep, shard);
  const PointResolver resolver(sweep);
  check_sweep_overrides(sweep, resolver);  // before anything is written: a typo stops the sweep at its line
  check_sweep_mapping_options(sweep);
  const fs::path& dir = request.out;
  fs::create_directories(dir);
  const SweepOutputLock output_lock(dir);  // before anything in DIR is read or written
  if (request.restart) clear_results(dir);  // under the lock: no other sweep is writing them
  write_shard_record(dir, {resolver.sweep_identity(), sweep.path.string(), shard, sweep::product_size(sweep), sweep.sample,
                           request.strict});
  const int jobs =
      request.jobs > 0 ? request.jobs : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  std::vector<bool> todo;
  const auto inputs = [&] {
    std::unique_lock<std::mutex> lock;
    if (request.plugin_lock) lock = std::unique_lock(*request.plugin_lock);
    const auto done = read_rows(dir / "results.jsonl");
    return load_inputs(points, [&](const std::string& id) { return done.count(id) > 0; }, resolver, ctx, jobs, todo);
  }();
  const auto to_do = static_cast<std::size_t>(std::count(todo.begin(), todo.end(), true));
  say_what_is_done(points.size(), points.size() - to_do, dir);
  Retries retries;
  {
    RowLog log(dir / "results.jsonl");
    ProgressLine progress(points.size(), points.size() - to_do);
    evaluate_all(points, todo, resolver, sweep, inputs, jobs, request.keep_points ? std::optional<fs::path>(dir) : std::nullopt,
                 request.strict, log, progress, retries);
  }
  // The final files hold every point or are not written: the rows of the others are kept.
  if (retries.count() > 0)
    throw Error(std::to_string(retries.count()) + " of " + std::to_string(points.size()) +
                    " points could not be evaluated for want of memory, disk or I/O, a failure of this run and not of "
                    "the point (the first, " + retries.first() + "); they have no row, and running the sweep again "
                    "retries them",
                {}, ErrorKind::Internal);
  SweepOutcome outcome;
  outcome.resumed = points.size() - to_do;
  auto all = read_rows(dir / "results.jsonl");
  // Moved, not copied (a sweep of 10^4 points holds one set of rows, not several); a point listed
  // twice (a value repeated in an axis) copies the row its first use moved into `rows`, with its
  // own point number, so that every row names its point.
  std::vector<std::string> rows;
  PassProgress progress("writing rows", points.size());
  for (std::uint64_t k = 0; k < points.size(); progress.tick(++k)) {
    const auto point = points.at(k);
    const auto row = all.find(resolver.resolve(point).id);
    if (row == all.end())
      throw Error("point " + std::to_string(point.index) + " has no row in the results after the sweep", {},
                  ErrorKind::Internal);
    if (auto& moved = row->second.moved_to) {
      rows.push_back(rows[*moved]);
    } else {
      rows.push_back(std::move(row->second.text));
      moved = rows.size() - 1;
    }
    Row r = parsed(rows.back());
    if (r["point"] != point.index) {
      r["point"] = point.index;
      rows.back() = io::dump_json(r, -1);
    }
    outcome.ok += r["status"] == "ok" ? 1 : 0;
    count_strict_failure(r, outcome);
    if (request.rows) outcome.rows.push_back(r);
  }
  outcome.points = rows.size();
  outcome.pareto = write_results(dir, rows);
  return outcome;
}

std::size_t merge_sweeps(const std::vector<fs::path>& dirs, const fs::path& out) {
  // One sweep, every shard once and complete, or an error naming the shard (sweep_shard.hpp).
  ShardRecord merged;
  const auto rows = merged_rows(dirs, merged);
  fs::create_directories(out);
  const SweepOutputLock output_lock(out);
  (void)write_results(out, rows);
  write_shard_record(out, merged);
  return rows.size();
}

}  // namespace stream::host
