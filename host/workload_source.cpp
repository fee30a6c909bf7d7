#include "workload_source.hpp"

#include <filesystem>

#include <CLI/CLI.hpp>
#include <spdlog/spdlog.h>
#include <stream/error.hpp>
#include <stream/ir/cast.hpp>
#include <stream/ir/name_order.hpp>
#include <stream/registry/decompose.hpp>

#include "host_context.hpp"
#include "inputs.hpp"
#include "plugin_host.hpp"

namespace stream::host {

namespace {

std::map<std::string, std::string> key_values(const std::vector<std::string>& items, const std::string& flag,
                                              const std::string& form) {
  std::map<std::string, std::string> out;
  for (const auto& item : items) {
    const auto eq = item.find('=');
    if (eq == std::string::npos || eq == 0) throw Error(flag + " expects " + form + ", got '" + item + "'");
    out[item.substr(0, eq)] = item.substr(eq + 1);
  }
  return out;
}

}  // namespace

std::string WorkloadSource::label() const {
  std::string out = block.empty() ? std::filesystem::path(file).stem().string() : block;
  // Sorted by key (later values win, as when loading), so the same inputs give the same label.
  for (const auto& [key, value] : key_values(params, "--param", "KEY=VALUE")) out += "-" + key + "=" + value;
  for (const auto& [name, size] : key_values(dims, "--dim", "NAME=SIZE")) out += "-" + name + "=" + size;
  for (const auto& [name, value] : key_values(inputs, "--input", "NAME=VALUE")) out += "-" + name + "=" + value;
  return out;
}

void add_workload_source_options(CLI::App& cmd, WorkloadSource& source) {
  cmd.add_option("--block", source.block, "Use a reference block instead of a file (see `stream blocks list`)");
  cmd.add_option("--param,-p", source.params, "Block parameter KEY=VALUE (repeatable)");
  cmd.add_option("--dim", source.dims, "Size of a symbolic dimension, NAME=SIZE (repeatable)");
  cmd.add_option("--input", source.inputs,
                 "Value of a scalar graph input, NAME=VALUE: the model is costed for that value (an If on it takes "
                 "one branch, a Loop's trip count is known) (repeatable)");
  cmd.add_flag("--decompose", source.decompose, "Replace operators by their registered decompositions");
  cmd.add_flag("--report-unsupported", source.report_unsupported,
               "List every unsupported operator with its count instead of stopping at the first");
  cmd.add_option("--cast", source.cast,
                 "Re-type the model's floating-point tensors before costing, as a deployment compiler would "
                 "(bf16, f16, int8, f8e4m3fn, int4, ...: any element type)")
      ->check([](const std::string& t) {
        return parse_dtype(t) ? std::string() : "unknown element type '" + t + "' (known: " + dtype_names() + ")";
      });
}

namespace {

Workload load_source(HostContext& ctx, const WorkloadSource& source) {
  auto& registries = ctx.plugins().registries();
  if (!source.file.empty() && !source.block.empty()) throw Error("give either a workload file or --block, not both");
  if (source.block.empty() && !source.params.empty()) throw Error("--param needs --block");
  Workload workload;
  if (!source.block.empty()) {
    const auto& spec = registries.block(source.block);
    workload = spec.build(spec.resolve(key_values(source.params, "--param", "KEY=VALUE")));
  } else {
    if (source.file.empty()) throw Error("no workload given (a file or --block)");
    FrontendOptions options;
    options.values = key_values(source.dims, "--dim", "NAME=SIZE");
    // Graph-input values travel as "input:NAME" (a symbolic dimension cannot have a ':').
    for (const auto& [name, value] : key_values(source.inputs, "--input", "NAME=VALUE"))
      options.values["input:" + name] = value;
    if (source.report_unsupported) options.values["report_unsupported"] = "1";
    if (source.keep_layout_ops) options.values[kKeepLayoutOps] = "1";
    workload = registries.load_workload(resolve_input(source.file), options);
  }
  if (!source.decompose) return workload;
  auto result = decompose_workload(workload, registries);
  spdlog::info("decomposed {} node(s) into their sub-operators", result.decomposed.size());
  return std::move(result.workload);
}

}  // namespace

LoadedWorkload load_workload(HostContext& ctx, const WorkloadSource& source) {
  LoadedWorkload out{load_source(ctx, source)};
  if (source.cast.empty()) return out;
  auto cast = cast_floating_point(out.workload, dtype_from_string(source.cast, "--cast type"));
  spdlog::info("cast {} floating-point tensor(s) to {}", cast.retyped, source.cast);
  out.workload = std::move(cast.workload);
  out.cast_tensors = cast.retyped;
  return out;
}

Workload automatic_path_workload(const Workload& workload, HostContext& ctx) {
  return decompose_workload(in_name_order(workload), ctx.plugins().registries(), is_reference_expanded_normalization).workload;
}

}  // namespace stream::host
