#include "run_spec_builder.hpp"

#include <sstream>

#include <stream/allocate/constraint_selection.hpp>
#include <stream/compat.hpp>
#include <stream/cost/cost_profile.hpp>
#include <stream/layout/choice.hpp>
#include <stream/mapping/mapping.hpp>
#include <stream/optimize/optimizer.hpp>
#include <stream/pipeline/run_config.hpp>

#include "host_context.hpp"
#include "inputs.hpp"
#include "plugin_host.hpp"

namespace stream::host {

namespace {

void set_cut_points(const std::string& text, pipeline::RunSpec& spec) {
  if (text == "per-layer") {
    spec.cut_mode = pipeline::CutMode::PerLayer;
  } else if (!text.empty()) {
    spec.cut_mode = pipeline::CutMode::Explicit;
    std::stringstream ss(text);
    for (std::string item; std::getline(ss, item, ',');)
      if (!item.empty()) spec.cut_points.push_back(item);
  }
}

void set_constraints(const RunRequest& o, pipeline::RunSpec& spec) {
  if (!o.config.empty()) {
    const auto config = pipeline::load_run_config(resolve_input(o.config));
    spec.constraints = config.constraints;
    if (config.nb_cols_to_use) spec.nb_cols_to_use = *config.nb_cols_to_use;
  }
  spec.constraints = allocate::parse_constraint_selection(o.constraint_selection, spec.constraints);
  if (o.nb_cols_to_use > 0) spec.nb_cols_to_use = o.nb_cols_to_use;
}

void set_mapping(const RunRequest& o, BuiltSpec& built) {
  if (pipeline::is_search_spec(o.mapping)) {
    built.search = pipeline::parse_search_spec(o.mapping);  // a bad key: before any work
    built.search_text = o.mapping;
  } else if (optimize::is_optimize_spec(o.mapping)) {
    built.optimize = optimize::parse_optimize_spec(o.mapping);  // a bad option: before any work
    built.optimize_text = o.mapping;
  } else if (!o.mapping.empty()) {
    built.spec.mapping = resolve_input(o.mapping);
    // Read now: a file `--mapping optimize` wrote maps the automatic path's workload.
    built.automatic_path_mapping = mapping::load_mapping_file(*built.spec.mapping).workload == mapping::MappedWorkload::AutomaticPath;
  }
  if (!o.intra_core_tiling.empty()) built.spec.intra_core_tiling = mapping::parse_tiling_spec(o.intra_core_tiling);
}

}  // namespace

BuiltSpec build_run_spec(const RunRequest& o, const std::vector<CostBackend>& cost_backends) {
  BuiltSpec built;
  auto& spec = built.spec;
  spec.layout = layout::parse_layout_mode(o.layout, "--layout");
  spec.cost_profile = cost::parse_cost_profile(o.cost_profile, "--cost-profile");
  spec.compat = parse_compat(o.compat, "--compat");
  set_mapping(o, built);
  if (built.optimize && spec.layout == layout::LayoutMode::Choose)  // before any work, naming the options
    throw Error("--mapping optimize: --layout choose is not supported (the optimizer compares mappings under fixed layouts)");
  set_cut_points(o.fusion_cut_points, spec);
  spec.threads = o.threads;
  spec.time_limit_s = o.time_limit;
  spec.memory_fallback = !o.no_memory_fallback;
  spec.deduplicate = !o.no_dedup;
  set_constraints(o, spec);
  spec.cost_backends = cost_backends;
  return built;
}

std::string constraint_line(const pipeline::RunSpec& spec) {
  if (spec.constraints == allocate::ConstraintSelection{} && spec.nb_cols_to_use == schedule::kDefaultNbColsToUse) return "";
  return "constraint selection " + allocate::to_string(spec.constraints) + ", nb_cols_to_use " + std::to_string(spec.nb_cols_to_use);
}

bool schedules_automatic_path(const RunRequest& o, BuiltSpec& built) {
  // A mapping file or a search's variants keep the model's order and nodes (run_spec.hpp), unless
  // the file maps the automatic path's workload (the optimizer's, whose candidates are automatic).
  const bool mapped = built.spec.has_mapping() && !built.automatic_path_mapping;
  const bool automatic = !mapped && !built.search && !o.no_decompose && !o.workload.decompose;
  built.spec.order = automatic ? pipeline::WorkloadOrder::AsPrepared : pipeline::WorkloadOrder::ByName;
  return automatic;
}

Workload scheduled_workload(const Workload& loaded, const RunRequest& o, BuiltSpec& built, HostContext& ctx) {
  return schedules_automatic_path(o, built) ? automatic_path_workload(loaded, ctx) : loaded;
}

pipeline::RunResult run_or_search(const Workload& workload, const hardware::Accelerator& acc, const BuiltSpec& built,
                                  const pipeline::RunEnv& env, pipeline::SearchResult* search, optimize::OptimizeResult* optimized) {
  if (built.optimize) {
    auto r = optimize::optimize_mapping(workload, acc, *built.optimize, built.spec, env);
    if (env.timings != nullptr) *env.timings = r.best_timings;
    auto best = std::move(r.best_run);
    if (optimized != nullptr) *optimized = std::move(r);
    return best;
  }
  if (!built.search) return pipeline::run(workload, acc, built.spec, env);
  pipeline::RunSpec variants = built.spec;
  variants.keep_infeasible_models = false;  // a failed variant's model is not the result's
  auto s = pipeline::search_mapping(workload, acc, *built.search, variants, env);
  if (!s.best)
    throw Error("mapping search: all " + std::to_string(s.variants.size()) + " variants failed; the first (" +
                s.variants.front().tag + "): " + s.variants.front().reason);
  if (env.timings != nullptr && s.best_timings) *env.timings = *s.best_timings;
  auto best = std::move(*s.best_run);
  if (search != nullptr) *search = std::move(s);
  return best;
}

}  // namespace stream::host
