#include "stream/report/write.hpp"

#include "stream/error.hpp"
#include "stream/mapping/group_mapping.hpp"
#include "stream/io/file_output.hpp"
#include "stream/report/group_files.hpp"
#include "stream/report/layouts_file.hpp"
#include "stream/report/html_report.hpp"
#include "stream/report/schedule_svg.hpp"
#include "stream/report/summary.hpp"
#include "stream/report/timings.hpp"
#include "stream/report/trace.hpp"

namespace stream::report {

std::filesystem::path infeasible_model_path(const std::filesystem::path& directory, int group) {
  return directory / ("group_" + std::to_string(group)) / "model.mps";
}

namespace {
void write(const std::filesystem::path& p, const std::string& text) { io::write_file(p, text, io::FileMode::RefuseLink); }

// create_directory (not create_directories): the parent exists, and a symbolic link already at
// the name is an error instead of a way out of the result directory.
void make_directory(const std::filesystem::path& p) {
  std::error_code ec;
  if (!std::filesystem::create_directory(p, ec) && !ec && std::filesystem::is_symlink(std::filesystem::symlink_status(p)))
    throw Error("is a symbolic link, not a directory of results", Location{.file = p.string()}, ErrorKind::Internal);
  if (ec) throw Error("cannot create directory: " + ec.message(), Location{.file = p.string()}, ErrorKind::Internal);
}

// Each infeasible group's model: the one file of group_<i>/ that --summary-only keeps.
void write_infeasible_models(const pipeline::RunResult& r, const std::filesystem::path& dir) {
  for (const auto& g : r.groups)
    if (!g.allocation.mps.empty()) {
      make_directory(dir / ("group_" + std::to_string(g.index)));
      write(infeasible_model_path(dir, g.index), g.allocation.mps);
    }
}
}  // namespace

void write_results(const pipeline::RunResult& r, const pipeline::RunTimings& timings, const hardware::Accelerator& acc,
                   const std::filesystem::path& dir, const std::string& solver, bool inline_timings, bool group_files,
                   const std::filesystem::path& read_from, const OptimizerReport* optimizer) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw Error("cannot create directory: " + ec.message(), Location{.file = dir.string()}, ErrorKind::Internal);
  const auto metrics = pipeline::run_metrics(r, acc);
  write(dir / "summary.yaml", summary_yaml(r, inline_timings ? &timings : nullptr, &metrics, optimizer));
  const auto summary = summary_json(r, inline_timings ? &timings : nullptr, &metrics, optimizer);
  write(dir / "summary.json", summary);
  write(dir / "timings.yaml", timings_yaml(r, timings));
  write(dir / "timings.json", timings_json(r, timings));
  write_infeasible_models(r, dir);
  if (!group_files) return;
  for (const auto& g : r.groups) {
    const auto gd = dir / ("group_" + std::to_string(g.index));
    make_directory(gd);
    write(gd / "mapping.yaml", mapping::mapping_yaml(g.workload, g.mapping));
    write(gd / "core_cost_lut.yaml", core_cost_lut_yaml(g));
    write(gd / "slot_latency_breakdown.yaml", slot_latency_breakdown_yaml(g, acc));
    const auto model_file = infeasible_model_path(read_from.empty() ? dir : read_from, g.index).string();
    const auto* clocks = inline_timings ? &timings.groups.at(static_cast<std::size_t>(g.index)) : nullptr;
    write(gd / "optimization_metrics.yaml", optimization_metrics_yaml(g, solver, clocks, model_file));
    if (g.allocation.solved()) {
      write(gd / "steady_state_trace.json", steady_state_trace_json(g, acc));
      write(gd / "schedule.svg", schedule_svg(g, acc));
      write(gd / "memory_accesses.yaml", memory_accesses_yaml(g));
      if (g.layout_prices) write(gd / "layouts.yaml", layouts_yaml(r, g, acc));  // where the run priced layouts
    }
  }
  write(dir / "report.html", report_html(r, acc, summary, optimizer));
}

}  // namespace stream::report
