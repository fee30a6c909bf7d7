#include "mcp_tools.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <iostream>

#include <stream/error.hpp>
#include <stream/pipeline/metrics.hpp>
#include <stream/report/cost_fallbacks.hpp>
#include <stream/report/summary.hpp>
#include <stream/sweep/sweep_file.hpp>

#include "block_catalog.hpp"
#include "host_context.hpp"
#include "inputs.hpp"
#include "mcp_jobs.hpp"
#include "open_beneath.hpp"
#include "optimize_outcome.hpp"
#include "plugin_json.hpp"
#include "run_experiment.hpp"
#include "sweep_runner.hpp"
#include "validation.hpp"

namespace stream::host {

namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

json object_schema(json properties, json required = json::array()) {
  return {{"type", "object"}, {"properties", std::move(properties)}, {"required", std::move(required)}};
}

const json kString = {{"type", "string"}};

// A tool's arguments: every property described for the agent, and no other accepted
// (`additionalProperties: false`: the server refuses an unknown argument by name, mcp_server.hpp).
json tool_input_schema(json properties, json required = json::array()) {
  json schema = object_schema(std::move(properties), std::move(required));
  schema["additionalProperties"] = false;
  return schema;
}

// A property's schema with its description.
json with_description(json schema, const char* description) {
  schema["description"] = description;
  return schema;
}

json described_text(const char* description) { return with_description(kString, description); }

std::string text_arg(const json& args, const char* key, const std::string& fallback = "") {
  return args.contains(key) && !args[key].is_null() ? args[key].get<std::string>() : fallback;
}

constexpr const char* kHardwareWords =
    "The accelerator YAML: a file, or one of list_inputs' hardware (default: the bundled TPU-like quad core)";

McpTool list_inputs() {
  return {"list_inputs", "The bundled example inputs: hardware descriptions, workloads, mappings and sweep files "
                         "(paths relative to the bundled inputs, usable as they are in the other tools).",
          tool_input_schema({{"kind", with_description({{"type", "string"}, {"enum", {"hardware", "workload", "mapping", "sweeps"}}},
                                           "Which inputs to list (default: hardware)")}}),
          object_schema({{"inputs_dir", kString}, {"files", {{"type", "array"}, {"items", kString}}}}),
          [](const json& args) {
            const fs::path root = bundled_inputs_dir();
            const std::string kind = text_arg(args, "kind", "hardware");
            if (kind != "hardware" && kind != "workload" && kind != "mapping" && kind != "sweeps")
              throw Error("kind must be hardware, workload, mapping or sweeps, got '" + kind + "'");
            std::vector<std::string> files;
            std::error_code ec;
            for (fs::recursive_directory_iterator it(root / kind, ec), end; !ec && it != end; it.increment(ec))
              if (it->is_regular_file(ec)) files.push_back(fs::relative(it->path(), root, ec).string());
            std::sort(files.begin(), files.end());
            return json{{"inputs_dir", root.string()}, {"files", files}};
          }};
}

McpTool list_blocks(HostContext& ctx) {
  return {"list_blocks", "The reference blocks (parameterised workloads): key, label, description, parameters.",
          tool_input_schema(json::object()), object_schema({{"blocks", {{"type", "array"}}}}),
          [&ctx](const json&) { return json{{"blocks", json::parse(blocks_json(ctx.plugins().registries()).dump())}}; }};
}

McpTool list_plugins(HostContext& ctx) {
  return {"list_plugins", "The plugins found: id, version, status, what each provides.", tool_input_schema(json::object()),
          object_schema({{"plugins", {{"type", "array"}}}}), [&ctx](const json&) {
            json plugins = json::array();
            for (const auto& r : ctx.plugins().plugins()) plugins.push_back(plugin_json(r));
            return json{{"plugins", plugins}};
          }};
}

McpTool validate(HostContext& ctx) {
  return {"validate",
          "Check a hardware description (and optionally a workload and a mapping): every problem with file, line "
          "and column, or a summary of the accelerator and the automatic mapping.",
          tool_input_schema({{"hardware", described_text("The accelerator YAML to check: a file, or one of list_inputs' "
                                                         "hardware")},
                        {"workload", described_text("A workload model to check against the hardware (optional): a file, or one "
                                          "of list_inputs' workloads")},
                        {"mapping", described_text("A mapping YAML to check against the hardware and workload (optional)")},
                        {"tiling", described_text("An intra-core tiling to check, Node.D<n>=<tile>,... (optional; as stream "
                                        "validate --intra-core-tiling)")}},
                       {"hardware"}),
          object_schema({{"valid", {{"type", "boolean"}}}, {"errors", {{"type", "array"}}}, {"warnings", {{"type", "array"}}}},
                        {"valid", "errors", "warnings"}),
          [&ctx](const json& args) {
            // Paths resolve inside validate_inputs (inputs.hpp), a missing one being an error of the answer.
            ValidateRequest r{text_arg(args, "hardware"), "", "", text_arg(args, "tiling")};
            if (args.contains("workload")) r.workload = text_arg(args, "workload");
            if (args.contains("mapping")) r.mapping = text_arg(args, "mapping");
            return validation_json(validate_inputs(r, ctx), r);
          }};
}

RunRequest run_request(const json& args, const fs::path& out_dir) {
  RunRequest r;
  r.hardware = text_arg(args, "hardware", r.hardware);
  r.out = out_dir.string();
  if (args.contains("block")) {
    r.workload = WorkloadSource{.block = text_arg(args, "block")};
    const json params = args.value("params", json::object());
    for (const auto& [k, v] : params.items())
      r.workload.params.push_back(k + "=" + (v.is_string() ? v.get<std::string>() : v.dump()));
  } else {
    r.workload.file = text_arg(args, "workload", r.workload.file);
  }
  // A scalar graph input's value, as `stream run --input NAME=VALUE` (an If on it takes its branch).
  const json inputs = args.value("inputs", json::object());
  for (const auto& [k, v] : inputs.items())
    r.workload.inputs.push_back(k + "=" + (v.is_string() ? v.get<std::string>() : v.dump()));
  r.workload.cast = text_arg(args, "cast");
  r.mapping = text_arg(args, "mapping");
  r.intra_core_tiling = text_arg(args, "intra_core_tiling");
  r.fusion_cut_points = text_arg(args, "fusion_cut_points");
  if (args.contains("experiment_id")) r.experiment_id = text_arg(args, "experiment_id");
  r.time_limit = args.value("time_limit", 0.0);
  r.strict = args.value("strict", false);
  r.compat = text_arg(args, "compat", r.compat);
  return r;
}

// A finished run as the tools return it: the summary, the result directory and its files, both
// relative to the output directory; when estimates stood in, `estimate_warning` says how many and
// what share of latency and energy they carry, in the words `stream run` warns with, so that an
// agent reading the figures reads that too.
json run_summary(const RunOutcome& outcome, const fs::path& out_dir) {
  // A `mapping: optimize` run's optimizer block, its file paths relative to the output directory as `files`.
  json j = json::parse(outcome_summary(outcome, fs::relative(outcome.out_dir, out_dir)).dump());
  if (const auto note = report::fallback_note(outcome.fallbacks); !note.empty()) j["estimate_warning"] = note;
  j["solved"] = outcome.result.solved();
  j["output_dir"] = fs::relative(outcome.out_dir, out_dir).string();
  std::vector<std::string> files;
  for (const auto& e : fs::recursive_directory_iterator(outcome.out_dir))
    if (e.is_regular_file()) files.push_back(fs::relative(e.path(), out_dir).string());
  std::sort(files.begin(), files.end());
  j["files"] = files;
  return j;
}

json run_input_schema() {
  return tool_input_schema(
      {{"hardware", described_text(kHardwareWords)},
       {"workload", described_text("The workload model (ONNX, or torch.export .pt2): a file, or one of list_inputs' workloads "
                         "(default: the bundled 2-conv)")},
       {"block", described_text("Instead of a workload file, a reference block's key (list_blocks), with params")},
       {"params", with_description({{"type", "object"}}, "The block's parameters, name: value (with block)")},
       {"inputs", with_description({{"type", "object"}}, "Scalar graph inputs' values, name: value, as stream run --input "
                                                  "NAME=VALUE (an If on one takes its branch)")},
       {"mapping", described_text("A mapping YAML, search[?max=N&...] for the SwiGLU mapping search, or "
                                  "optimize[?objective=latency|energy|edp|pareto&evaluations=N&seed=K&jobs=J] for the mapping "
                                  "optimizer: the best mapping found from the automatic one, never worse; the result's "
                                  "optimizer object says what it did (default: automatic)")},
       {"intra_core_tiling", described_text("Node.D<n>=<tile>,... for the automatic mapping")},
       {"fusion_cut_points", described_text("per-layer, or node names N1,N2 (default: automatic)")},
       {"experiment_id", described_text("The result folder's name under the output directory, one path component (default: "
                              "built from the inputs)")},
       {"cast", described_text("An element type to cast the model's floating-point tensors to, as stream run --cast takes it: "
                     "bf16, f16, int8, f8e4m3fn, int4, ...")},
       {"time_limit", with_description({{"type", "number"}, {"minimum", 0}}, "Per-level MILP time limit in seconds (0: none)")},
       {"strict", with_description({{"type", "boolean"}}, "An ideal-cycle estimate for a Conv/Gemm/MatMul-like node is an "
                                                   "error instead of a figure")},
       {"compat", with_description({{"type", "string"}, {"enum", {"none", "stream-1.13"}}},
                                   "Whose automatic path, as stream run --compat: none (this tool's) or stream-1.13 (the "
                                   "reference's)")}});
}

json run_output_schema() {
  return object_schema({{"total_latency", {{"type", "integer"}}}, {"total_energy", {{"type", "number"}}},
                        {"edp", {{"type", "number"}}}, {"costs", {{"type", "object"}}}, {"estimate_warning", kString},
                        {"memory", {{"type", "array"}}},
                        {"optimizer", with_description({{"type", "object"}},
                                                       "mapping optimize: summary.json's optimizer block (objective, "
                                                       "automatic and best objective values, ratio, evaluations, spent, "
                                                       "cut_short, best_evaluation: null when the automatic mapping "
                                                       "stayed best, ...) with automatic_latency, automatic_energy_pj, "
                                                       "best_mapping and optimize_file (paths as files lists them)")},
                        {"output_dir", kString}, {"files", {{"type", "array"}}}},
                       {"total_latency", "total_energy", "edp", "output_dir", "files"});
}

void say(const std::string& s) { std::cerr << "[stream mcp] " << s << "\n"; }

McpTool run_mapping(HostContext& ctx, const fs::path& out_dir) {
  return {"run_mapping",
          "`stream run`: map a workload (a file, or a block with params) onto an accelerator; returns total latency "
          "(cycles), energy (pJ), EDP and the per-group figures, and writes the result files under output_dir. "
          "costs counts the (node, core) costs that are ideal-cycle estimates and the share (%) of latency and "
          "energy resting on them; estimate_warning says so in words when there are any. strict: an estimate for a "
          "Conv/Gemm/MatMul-like node is an error. mapping optimize?...: the optimizer's best mapping's figures, and "
          "optimizer (its automatic and best figures, evaluations spent); submit_run for a large budget.",
          run_input_schema(), run_output_schema(), [&ctx, out_dir](const json& args) {
            return run_summary(execute_run(prepare_run(run_request(args, out_dir), ctx, say)), out_dir);
          }};
}

const json kJobSchema = tool_input_schema({{"job", described_text("The job's id, as submit_run returned it")}}, {"job"});
const json kJobStatusSchema =
    object_schema({{"job", kString}, {"status", {{"type", "string"}, {"enum", {"running", "done", "failed", "cancelled"}}}},
                   {"last_step", kString}, {"error", kString}},
                  {"job", "status"});

// submit_run, job_status, job_result and cancel_job over one job table.
std::vector<McpTool> job_tools(HostContext& ctx, const fs::path& out_dir) {
  auto jobs = std::make_shared<McpJobs>([out_dir](const RunOutcome& o) { return run_summary(o, out_dir); });
  auto job_id = [](const json& args) { return text_arg(args, "job"); };
  return {{"submit_run",
           "run_mapping as a job, for long runs: the inputs are checked now, the run goes on in the background; "
           "returns the job id for job_status, job_result and cancel_job.",
           run_input_schema(), kJobSchema,
           [&ctx, out_dir, jobs](const json& args) {
             auto run = prepare_run(run_request(args, out_dir), ctx, say);
             return json{{"job", jobs->submit(std::move(run))}};
           }},
          {"job_status", "A job's status (running, done, failed, cancelled) and the step it reached.", kJobSchema,
           kJobStatusSchema, [jobs, job_id](const json& args) { return jobs->status(job_id(args)); }},
          {"job_result", "A finished job's figures, as run_mapping returns them.", kJobSchema, run_output_schema(),
           [jobs, job_id](const json& args) { return jobs->result(job_id(args)); }},
          {"cancel_job",
           "Stop a job at its next step (its partial results are removed). A mapping optimize job stops after the "
           "candidates being evaluated and ends done with the best found so far (its result's optimizer.cut_short is "
           "true).",
           kJobSchema, kJobStatusSchema,
           [jobs, job_id](const json& args) { return jobs->cancel(job_id(args)); }}};
}

// A result file's text, read from the descriptor open_beneath gave (the file checked is the file
// read); at most kMaxMcpFileBytes, a longer file is refused rather than cut.
std::string read_result_text(const fs::path& out_dir, const std::string& path) {
  if (path.size() > kMaxBeneathPathBytes)  // before any work: a 48 MB path took 21 s and 4 GB
    throw McpInvalidParams("path is " + std::to_string(path.size()) + " bytes long; at most " +
                           std::to_string(kMaxBeneathPathBytes) + " are accepted");
  const FileDescriptor fd = open_beneath(out_dir.string(), path);
  struct stat st {};
  if (fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode)) throw Error("no such result file", Location{.file = path});
  if (static_cast<std::uintmax_t>(st.st_size) > kMaxMcpFileBytes) throw Error("larger than 1 MiB", Location{.file = path});
  // One byte more than its size: a file that grew since fstat shows it, and past the bound is refused.
  std::string text(static_cast<std::size_t>(st.st_size) + 1, '\0');
  std::size_t got = 0;
  while (got < text.size()) {
    const ssize_t n = ::read(fd.get(), text.data() + got, text.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw Error(std::string("cannot read the result file: ") + std::strerror(errno), Location{.file = path});
    if (n == 0) break;
    got += static_cast<std::size_t>(n);
  }
  if (got > kMaxMcpFileBytes) throw Error("larger than 1 MiB", Location{.file = path});
  text.resize(got);
  return text;
}

McpTool read_result_file(const fs::path& out_dir) {
  return {"read_result_file",
          "Read a result file (summary.yaml, group_0/core_cost_lut.yaml, ...) by its path relative to the output "
          "directory, as run_mapping's files lists it; at most 1 MiB. Symbolic links and '..' are refused.",
          tool_input_schema({{"path", with_description({{"type", "string"}, {"maxLength", kMaxBeneathPathBytes}},
                                           "The file's path relative to the output directory (as a run's files "
                                           "list it)")}},
                       {"path"}),
          object_schema({{"path", kString}, {"text", kString}}, {"path", "text"}),
          [out_dir](const json& args) {
            const std::string path = text_arg(args, "path");
            return json{{"path", path}, {"text", read_result_text(out_dir, path)}};
          }};
}

McpTool small_sweep(HostContext& ctx, const fs::path& out_dir) {
  return {"sweep",
          "A small sweep (at most 64 points): spec is a sweep file's content (axes: hardware, workload, mapping, "
          "intra_core_tiling, cast, block parameters; docs/sweep.md). Rows per point with status and figures.",
          tool_input_schema({{"spec", with_description({{"type", "object"}}, "The sweep file's content (axes, zip, sample, "
                                                                 "budget; docs/sweep.md)")},
                        {"name", described_text("The sweep's folder under sweeps/ in the output directory (default: sweep)")},
                        {"jobs", with_description({{"type", "integer"}, {"minimum", 1}}, "Points evaluated at once (default 1)")},
                        {"restart", with_description({{"type", "boolean"}}, "Start over: evaluate every point again (default: "
                                                                         "resume, keeping the rows an earlier call left in "
                                                                         "the sweep's folder)")}},
                       {"spec"}),
          object_schema({{"rows", {{"type", "array"}}}, {"pareto", {{"type", "array"}}}, {"ok", {{"type", "integer"}}},
                         {"resumed", {{"type", "integer"}}}, {"output_dir", kString}},
                        {"rows", "ok", "resumed", "output_dir"}),
          [&ctx, out_dir](const json& args) {
            const std::string name = text_arg(args, "name", "sweep");
            report::check_experiment_id(name);
            auto spec = sweep::parse_sweep_file(args.at("spec").dump(), fs::current_path() / "<sweep spec>");
            // Counted, not built: a 1 KB spec can stand for 2^62 points.
            const auto product = sweep::product_size(spec);
            const auto n = spec.sample ? std::min(product, static_cast<std::uint64_t>(spec.sample->count)) : product;
            if (n > kMaxMcpSweepPoints)
              throw Error("the sweep has " + std::to_string(n) + " points; this tool runs at most " +
                          std::to_string(kMaxMcpSweepPoints) + " (use `stream sweep` for more)");
            const fs::path dir = out_dir / "sweeps" / name;
            SweepRequest request{std::move(spec), dir, args.value("jobs", 1), "", false};
            request.restart = args.value("restart", false);
            const auto outcome = run_sweep(request, ctx);
            return json{{"rows", json::parse(Row(outcome.rows).dump())},
                        {"pareto", json::parse(Row(outcome.pareto).dump())},
                        {"ok", outcome.ok},
                        {"resumed", outcome.resumed},
                        {"output_dir", fs::relative(dir, out_dir).string()}};
          }};
}

}  // namespace

std::vector<McpTool> stream_mcp_tools(HostContext& ctx, const fs::path& out_dir) {
  // Tools run one at a time on the server's thread, jobs beside them; only the tools use the
  // plugin host (a job's workload is prepared by submit_run: run_spec_builder.hpp), so no lock.
  std::vector<McpTool> tools = {list_inputs(), list_blocks(ctx), list_plugins(ctx), validate(ctx),
                                run_mapping(ctx, out_dir), read_result_file(out_dir), small_sweep(ctx, out_dir)};
  for (auto& t : job_tools(ctx, out_dir)) tools.push_back(std::move(t));
  return tools;
}

}  // namespace stream::host
