// `stream core-cost`: the per-core cost model on a file of cases (the oracle format), or the
// (node, core) cost table of a workload on an accelerator (--hardware with --workload/--block).
//
// Each case names a core file by base name; it is looked up in --cores-dir (by default the
// reference's example cores beside the case file, then the installed inputs). Prints per case
// latency_total, energy_total, ideal_cycle, ideal_temporal_cycle, mac_spatial_utilization and the
// status (ok / fallback / stream_error with the reason). With --check, compares with each case's
// `expected` and exits 1 on any disagreement.
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>

#include <nlohmann/json.hpp>

#include "../command.hpp"
#include "../inputs.hpp"
#include "../plugin_host.hpp"
#include "../run_spec_builder.hpp"
#include "../workload_source.hpp"
#include "stream/hardware/accelerator_reader.hpp"
#include "stream/pipeline/run.hpp"
#include "stream/cost/case_file.hpp"
#include "stream/cost/cost_model.hpp"
#include "stream/error.hpp"
#include "stream/hardware/core_reader.hpp"
#include "stream/io/utf8.hpp"

// Each command in a namespace of its own: the sources compile in batches (CMakeLists.txt), and
// every command names its parts setup, run and Options.
namespace stream::host::core_cost_command {
namespace {

namespace fs = std::filesystem;

struct Options {
  std::string cases;
  std::string hardware;
  WorkloadSource workload;
  std::string mapping;
  int threads = 1;
  std::string cores_dir;
  std::string format = "text";
  bool check = false;
  int lpf_limit = cost::kDefaultLpfLimit;
  double time_budget = 0;
};

// The installed (or build-tree) inputs mirror the source tree relative to the executable.
fs::path installed_cores_dir() {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return {};
  return exe.parent_path() / ".." / "share" / "stream" / "inputs" / "hardware" / "cores";
}

fs::path default_cores_dir(const fs::path& cases_file) {
  const std::vector<fs::path> candidates = {
      cases_file.parent_path() / ".." / "stream-inputs" / "hardware" / "cores",
      installed_cores_dir(),
  };
  for (const auto& c : candidates)
    if (!c.empty() && fs::is_directory(c)) return c;
  return candidates.front();
}

std::string num(double v) {
  char buf[64];
  if (v == static_cast<double>(static_cast<long long>(v)) && std::abs(v) < 1e15)
    std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(v));
  else
    std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

// The (node, core) cost table of every fusion group of a workload, as the pipeline builds it.
void run_workload(const Options& o, HostContext& ctx) {
  const auto acc = hardware::load_accelerator(resolve_input(o.hardware));
  WorkloadSource source = o.workload;
  if (source.block.empty()) source.file = resolve_input(source.file).string();
  // The workload and spec `stream run` would use (run_spec_builder.hpp), stopped at the cost tables.
  RunRequest request;
  request.workload = source;
  request.threads = o.threads;
  request.mapping = o.mapping;
  auto built = build_run_spec(request, ctx.plugins().registries().cost_backend_list());
  built.spec.costs_only = true;
  const Workload workload = scheduled_workload(load_workload(ctx, source).workload, request, built, ctx);
  const auto result = [&] {
    try {
      return pipeline::run(workload, acc, built.spec);
    } catch (const Error& e) {  // a workload the pipeline cannot take: name its file, as `stream run` does
      throw source.file.empty() ? e : e.within(Location{.file = source.file});
    }
  }();
  nlohmann::json out = nlohmann::json::array();
  if (o.format == "text")
    std::printf("%-5s %-28s %5s %-16s %14s %22s %12s %14s %10s  %s\n", "group", "node", "core", "core type",
                "latency_total", "energy_total", "ideal_cycle", "ideal_temporal", "mac_util", "backend");
  for (const auto& g : result.groups) {
    for (const auto& [node, entries] : g.costs) {
      for (const auto& e : entries) {
        if (o.format == "json") {
          out.push_back({{"group", g.index}, {"node", node}, {"core", e.core_id}, {"core_type", e.core_type},
                         {"latency_total", e.latency_total}, {"energy_total", e.energy_total},
                         {"ideal_cycle", e.ideal_cycle}, {"ideal_temporal_cycle", e.ideal_temporal_cycle},
                         {"mac_spatial_utilization", e.mac_spatial_utilization}, {"backend", e.backend}});
          // No ZigZag figures (an AIE or ideal-cycle entry): the reference's None.
          if (e.is_estimate()) out.back()["mac_spatial_utilization"] = nullptr;
          if (!e.reason.empty()) out.back()["reason"] = e.reason;
          if (!e.detail.empty()) out.back()["detail"] = e.detail;
          continue;
        }
        std::printf("%-5d %-28s %5d %-16s %14s %22s %12s %14s %10.6g  %s\n", g.index, node.c_str(), e.core_id,
                    e.core_type.c_str(), num(e.latency_total).c_str(), num(e.energy_total).c_str(),
                    num(e.ideal_cycle).c_str(), num(e.ideal_temporal_cycle).c_str(), e.mac_spatial_utilization,
                    e.backend.c_str());
        if (!e.reason.empty()) std::printf("      reason: %s\n", e.reason.c_str());
      }
    }
  }
  if (o.format == "json") std::cout << io::dump_json(nlohmann::json{{"entries", out}}, 1) << "\n";
}

void run(const Options& o, HostContext& ctx) {
  if (o.cases.empty() == o.hardware.empty())
    throw Error("give either --cases FILE, or --hardware H with a workload (--workload W or --block KEY)");
  if (!o.hardware.empty()) return run_workload(o, ctx);
  const fs::path cases_path = resolve_input(o.cases);
  const auto cases = cost::read_cost_cases(cases_path);
  const fs::path cores_dir = o.cores_dir.empty() ? default_cores_dir(cases_path) : resolve_input(o.cores_dir);
  std::map<std::string, cost::CoreModel> cores;
  cost::CostOptions opt;
  opt.lpf_limit = o.lpf_limit;
  opt.time_budget_s = o.time_budget;
  opt.detail = false;
  nlohmann::json out = nlohmann::json::array();
  int agree = 0, disagree = 0;
  std::vector<std::string> failures;
  if (o.format == "text")
    std::printf("%-58s %-12s %14s %22s %12s %14s %10s\n", "id", "status", "latency_total", "energy_total", "ideal_cycle",
                "ideal_temporal", "mac_util");
  for (const auto& c : cases) {
    auto it = cores.find(c.core);
    if (it == cores.end()) {
      const fs::path p = cores_dir / c.core;
      if (!fs::exists(p)) throw Error("core file '" + c.core + "' not found in " + cores_dir.string(), Location{.file = o.cases, .node = c.id});
      it = cores.emplace(c.core, cost::CoreModel::from_core(hardware::load_core_file(p))).first;
    }
    const auto t0 = std::chrono::steady_clock::now();
    const cost::CoreCost r = cost::estimate(c.tile, it->second, opt);
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::string diff;
    if (o.check) {
      diff = cost::disagreement(r, c.expected);
      if (diff.empty())
        ++agree;
      else {
        ++disagree;
        failures.push_back(c.id + ": " + diff);
      }
    }
    if (o.format == "json") {
      nlohmann::json j{{"id", c.id}, {"status", cost::status_name(r.status)}};
      if (r.status != cost::CostStatus::StreamError) {
        j["latency_total"] = r.latency_total;
        j["energy_total"] = r.energy_total;
        j["ideal_cycle"] = r.ideal_cycle;
        j["ideal_temporal_cycle"] = r.ideal_temporal_cycle;
        j["mac_spatial_utilization"] = r.mac_spatial_utilization;
        j["cycles_per_op"] = r.cycles_per_op;
      }
      if (!r.reason.empty()) j["reason"] = r.reason;
      j["orderings_evaluated"] = r.orderings_evaluated;
      j["search_cut"] = r.search_cut;
      j["seconds"] = secs;
      if (o.check) j["agrees"] = diff.empty();
      out.push_back(j);
    } else {
      std::string status = cost::status_name(r.status);
      if (r.search_cut) status += "(cut)";
      if (r.status == cost::CostStatus::StreamError)
        std::printf("%-58s %-12s %14s %22s %12s %14s %10s  %s\n", c.id.c_str(), status.c_str(), "-", "-", "-", "-", "-",
                    r.reason.c_str());
      else
        std::printf("%-58s %-12s %14s %22s %12s %14s %10.6g%s%s\n", c.id.c_str(), status.c_str(), num(r.latency_total).c_str(),
                    num(r.energy_total).c_str(), num(r.ideal_cycle).c_str(), num(r.ideal_temporal_cycle).c_str(),
                    r.mac_spatial_utilization, r.reason.empty() ? "" : "  ", r.reason.c_str());
    }
  }
  if (o.format == "json") {
    nlohmann::json doc{{"cases", out}};
    if (o.check) doc["agreement"] = {{"agree", agree}, {"disagree", disagree}, {"total", agree + disagree}};
    std::cout << io::dump_json(doc, 1) << "\n";
  } else if (o.check) {
    for (const auto& f : failures) std::printf("DISAGREE %s\n", f.c_str());
    std::printf("%d/%d cases agree with the expected results\n", agree, agree + disagree);
  }
  if (o.check && disagree > 0) ctx.exit_code = 1;
}

void setup(CLI::App& app, HostContext& ctx) {
  auto* cmd = app.add_subcommand("core-cost", "Per-core cost model (latency, energy) of node tiles on cores");
  auto o = std::make_shared<Options>();
  cmd->add_option("--cases", o->cases, "Case file (oracle format: layer tiles with core names)");
  cmd->add_option("--hardware", o->hardware, "Accelerator YAML: print the (node, core) cost table of --workload on it");
  cmd->add_option("--workload", o->workload.file, "Workload file for --hardware");
  cmd->add_option("--mapping", o->mapping, "Mapping YAML for --hardware (default: automatic mapping)");
  cmd->add_option("--threads", o->threads, "Threads for the cost table")->check(CLI::Range(1, 1024));
  add_workload_source_options(*cmd, o->workload);
  cmd->add_option("--cores-dir", o->cores_dir, "Directory of core files (default: the reference's example cores)");
  cmd->add_option("--format", o->format, "Output format")->check(CLI::IsMember({"text", "json"}));
  cmd->add_flag("--check", o->check, "Compare with each case's expected result; exit 1 on any disagreement");
  cmd->add_option("--lpf-limit", o->lpf_limit, "LOMA loop-prime-factor limit (Stream uses 6)");
  cmd->add_option("--time-budget", o->time_budget, "Seconds of temporal search per case (0 = unbounded)");
  cmd->callback([&ctx, o] { run(*o, ctx); });
}

}  // namespace
STREAM_HOST_COMMAND(core_cost, setup);
}  // namespace stream::host::core_cost_command
