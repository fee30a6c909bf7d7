// A real MCP client (the official TypeScript SDK) against `stream mcp`: lists the tools, runs the
// default mapping and checks the README's 14344 cycles, reads a result file, checks that errors
// are tool errors naming the file, that reads outside the output directory are refused, and runs
// a two-point sweep (Eyeriss-like single core 114999 cycles, TPU-like quad core 14344; goldens.md),
// and runs as jobs: one to completion, one cancelled. A run resting on estimates (the reference's
// fp32 2-conv on the TPU-like quad core: 8 of 8 pairs, 100 % of the latency) says so in its
// structured content and its text, and `strict` makes it a tool error. Every input schema is
// closed (additionalProperties: false) with each property described; an unknown argument is a
// tool error naming it. The mapping optimizer: its figures start from the default's 14344 cycles
// and never exceed them; a bad option is a tool error naming it.
// Usage: node client.mjs STREAM_BINARY OUTPUT_DIR SCRATCH_DIR SOURCE_DIR
import { writeFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [stream, out, scratch, source] = process.argv.slice(2);
let failures = 0;
function check(what, ok, detail) {
  console.log(`${ok ? "ok  " : "FAIL"} ${what}${ok ? "" : ": " + JSON.stringify(detail)}`);
  if (!ok) failures++;
}

// The server runs in the (empty) scratch folder: relative inputs resolve as for every command.
const transport = new StdioClientTransport({ command: stream, args: ["mcp", "--out", out], cwd: scratch, stderr: "inherit" });
const client = new Client({ name: "stream-test-client", version: "1.0.0" });
await client.connect(transport);

const { tools } = await client.listTools();
const names = tools.map((t) => t.name).sort();
check("tools listed", JSON.stringify(names) === JSON.stringify(
  ["cancel_job", "job_result", "job_status", "list_blocks", "list_inputs", "list_plugins", "read_result_file",
   "run_mapping", "submit_run", "sweep", "validate"]), names);
check("every tool has input and output schemas", tools.every((t) => t.inputSchema.type === "object" && t.outputSchema), tools);

check("every input schema is closed and describes each property", tools.every((t) =>
  t.inputSchema.additionalProperties === false &&
  Object.values(t.inputSchema.properties ?? {}).every((p) => typeof p.description === "string" && p.description.length > 0)), tools);

// A misspelt argument is a tool error naming it (it ran the default hardware and succeeded).
const typo = await client.callTool({ name: "run_mapping", arguments: { hardwar: "hardware/simba_small.yaml", experiment_id: "typo" } });
check("an unknown argument is a tool error naming it", typo.isError === true &&
  typo.content[0].text.includes("run_mapping has no argument 'hardwar' (did you mean 'hardware'?)"), typo);
const noTypoRun = await client.callTool({ name: "read_result_file", arguments: { path: "typo/summary.yaml" } });
check("and nothing ran", noTypoRun.isError === true, noTypoRun);

const inputs = await client.callTool({ name: "list_inputs", arguments: { kind: "hardware" } });
check("bundled hardware listed", inputs.structuredContent.files.includes("hardware/tpu_like_quad_core.yaml"), inputs);

const blocks = await client.callTool({ name: "list_blocks", arguments: {} });
check("blocks listed", blocks.structuredContent.blocks.some((b) => b.key === "swiglu"), blocks);

const plugins = await client.callTool({ name: "list_plugins", arguments: {} });
check("plugins listed", plugins.structuredContent.plugins.some((p) => p.id === "onnx-frontend"), plugins);

const run = await client.callTool({ name: "run_mapping", arguments: { experiment_id: "default" } });
check("default mapping is 14344 cycles", !run.isError && run.structuredContent.total_latency === 14344, run);
check("result files listed", run.structuredContent?.files?.includes("default/group_0/core_cost_lut.yaml"), run);

check("the default run rests on no estimate", run.structuredContent.costs.fallback === 0 &&
  run.structuredContent.costs.latency_share === 0 && run.structuredContent.estimate_warning === undefined, run);
// Each compute core's fullest slot: 278,528 bits of 16,777,216 (tests/pipeline/memory_use_test.cpp).
check("the memory use is in the answer", run.structuredContent.memory?.[0]?.peak_bits === 278528 &&
  run.structuredContent.memory[0].peak_share === 1.66, run);

// An If on a graph input (Silero VAD's sample rate): decided by `inputs`, else an error naming both ways.
const ifModel = `${source}/tests/plugins/onnx-frontend/data/sample_rate_if.onnx`;
const decided = await client.callTool({ name: "run_mapping", arguments: { workload: ifModel, inputs: { sr: 16000 }, experiment_id: "sr" } });
check("inputs decide an If", !decided.isError && decided.structuredContent.total_latency > 0, decided);
const undecided = await client.callTool({ name: "run_mapping", arguments: { workload: ifModel, experiment_id: "sr_none" } });
check("an undecided If is an error naming --input", undecided.isError && /--input sr=VALUE/.test(JSON.stringify(undecided.content)), undecided);

const fp32 = `${source}/tests/data/reference/stream-inputs/workload/2_conv.onnx`;
const estimated = await client.callTool({ name: "run_mapping", arguments: { workload: fp32, experiment_id: "fp32" } });
const costs = estimated.structuredContent?.costs;
check("estimates are counted with their shares", !estimated.isError && costs.fallback === 8 &&
  costs.scheduled_fallback === 8 && costs.latency_share === 100, estimated);
check("the answer says so in words, in its text too",
  estimated.structuredContent.estimate_warning?.startsWith("8 of 8 (node, core) costs are ideal-cycle estimates") &&
  estimated.content[0].text.includes("carrying 100 % of the latency"), estimated);
const strict = await client.callTool({ name: "run_mapping", arguments: { workload: fp32, experiment_id: "strict", strict: true } });
check("strict makes a Conv estimate a tool error", strict.isError === true &&
  strict.content[0].text.includes("--strict: group 0 node 'conv1' (Conv) on core 0"), strict);

// compat: the reference's automatic path (attention_head on the TPU-like quad core: its two groups,
// 15,424 + 29,480 = 44,904 cycles; this tool's one folded group 32,815; goldens.md).
const attention = `${source}/tests/data/reference/stream-inputs/workload/attention_head.onnx`;
const compat = await client.callTool({ name: "run_mapping", arguments: { workload: attention, experiment_id: "compat", compat: "stream-1.13" } });
check("compat stream-1.13 gives the reference's figure", !compat.isError && compat.structuredContent.total_latency === 44904, compat);

const summary = await client.callTool({ name: "read_result_file", arguments: { path: "default/summary.yaml" } });
check("summary read", !summary.isError && summary.structuredContent.text.includes("total_latency: 14344\n"), summary);

const outside = await client.callTool({ name: "read_result_file", arguments: { path: "../client.mjs" } });
check("a read outside the output directory is refused", outside.isError === true, outside);

const bad = `${scratch}/bad.yaml`;
writeFileSync(bad, "name: x\ncores:\n  0: [1, 2\n");
const broken = await client.callTool({ name: "run_mapping", arguments: { hardware: bad } });
check("bad hardware is a tool error naming the file", broken.isError === true && broken.content[0].text.includes(bad), broken);

const report = await client.callTool({ name: "validate", arguments: { hardware: bad } });
check("validate reports the place", report.structuredContent.valid === false && report.structuredContent.errors[0].line === 4, report);

// Relative paths resolve as for every command (host/inputs.hpp): from the working directory, then
// the bundled inputs, `inputs/...` too; a missing file is an error listing every place tried.
const relative = await client.callTool({ name: "run_mapping", arguments: {
  hardware: "inputs/hardware/tpu_like_quad_core.yaml", workload: "workload/2conv_1_8_32_32_16_32_3.onnx", experiment_id: "relative" } });
check("relative bundled paths run (14344 cycles)", !relative.isError && relative.structuredContent.total_latency === 14344, relative);
const tried = (given) => `${given}: no such file (tried ${scratch}/${given}, ${source}/inputs/${given})`;
const missing = await client.callTool({ name: "run_mapping", arguments: { workload: "nope.onnx", experiment_id: "missing" } });
check("a missing workload lists the places tried", missing.isError === true && missing.content[0].text.includes(tried("nope.onnx")), missing);
const missingMapping = await client.callTool({ name: "validate", arguments: {
  hardware: "hardware/tpu_like_quad_core.yaml", mapping: "mapping/nope.yaml" } });
check("validate lists the places tried", missingMapping.structuredContent.valid === false &&
  `${missingMapping.structuredContent.errors[0].file}: ${missingMapping.structuredContent.errors[0].message}` === tried("mapping/nope.yaml"),
  missingMapping);

const sweep = await client.callTool({ name: "sweep", arguments: {
  spec: { axes: { hardware: ["eyeriss_like_single_core.yaml", "tpu_like_quad_core.yaml"] } }, name: "two" } });
const latencies = sweep.structuredContent?.rows?.map((r) => r.latency);
check("sweep gives 114999 and 14344", JSON.stringify(latencies) === "[114999,14344]", sweep);
check("a first sweep resumes nothing", sweep.structuredContent?.resumed === 0, sweep);
const again = await client.callTool({ name: "sweep", arguments: {
  spec: { axes: { hardware: ["eyeriss_like_single_core.yaml", "tpu_like_quad_core.yaml"] } }, name: "two" } });
check("the same sweep again resumes both points", again.structuredContent?.resumed === 2 &&
  JSON.stringify(again.structuredContent?.rows?.map((r) => r.latency)) === "[114999,14344]", again);
const restarted = await client.callTool({ name: "sweep", arguments: {
  spec: { axes: { hardware: ["eyeriss_like_single_core.yaml", "tpu_like_quad_core.yaml"] } }, name: "two", restart: true } });
check("restart: true evaluates both again", restarted.structuredContent?.resumed === 0 &&
  JSON.stringify(restarted.structuredContent?.rows?.map((r) => r.latency)) === "[114999,14344]", restarted);

// Jobs: the default mapping as a job, polled until done; a long run (DenseNet-121, 372 fusion
// groups, ~15 s) cancelled at once ends cancelled at its next step, without result files.
async function settle(job) {
  for (;;) {
    const s = (await client.callTool({ name: "job_status", arguments: { job } })).structuredContent;
    if (s.status !== "running") return s;
    await new Promise((r) => setTimeout(r, 20));
  }
}
const submitted = await client.callTool({ name: "submit_run", arguments: { experiment_id: "job" } });
const done = await settle(submitted.structuredContent.job);
const jobResult = await client.callTool({ name: "job_result", arguments: { job: submitted.structuredContent.job } });
check("a job runs the default mapping to 14344", done.status === "done" && jobResult.structuredContent?.total_latency === 14344, [done, jobResult]);

const long = await client.callTool({ name: "submit_run", arguments: {
  workload: "workload/exported/densenet121_op13.onnx", experiment_id: "long" } });
const cancelled = await client.callTool({ name: "cancel_job", arguments: { job: long.structuredContent.job } });
const ended = await settle(long.structuredContent.job);
check("a cancelled job ends cancelled", cancelled.isError === false && ended.status === "cancelled", [cancelled, ended]);
const noResult = await client.callTool({ name: "job_result", arguments: { job: long.structuredContent.job } });
check("a cancelled job has no result", noResult.isError === true && noResult.content[0].text.includes("cancelled"), noResult);
const leftover = await client.callTool({ name: "read_result_file", arguments: { path: "long/summary.yaml" } });
check("a cancelled job leaves no result files", leftover.isError === true, leftover);
const unknown = await client.callTool({ name: "job_status", arguments: { job: "job-99" } });
check("an unknown job is a tool error", unknown.isError === true, unknown);

// mapping optimize: the automatic mapping is the default run (14344 cycles), the best no worse.
const optimized = await client.callTool({ name: "run_mapping", arguments: { mapping: "optimize?evaluations=20&seed=3", experiment_id: "opt" } });
const optimizer = optimized.structuredContent?.optimizer;
check("an optimize run reports the optimizer's figures", !optimized.isError && optimizer.spent === 20 &&
  optimizer.automatic === 14344 && optimizer.automatic_latency === 14344 && optimizer.best === optimized.structuredContent.total_latency &&
  optimized.structuredContent.total_latency <= 14344 && optimizer.cut_short === false, optimized);
const optimizeFile = await client.callTool({ name: "read_result_file", arguments: { path: optimizer?.optimize_file ?? "opt/optimize.yaml" } });
check("its optimize.yaml reads back", !optimizeFile.isError && optimizeFile.structuredContent.text.includes("spent: 20"), optimizeFile);
const badOption = await client.callTool({ name: "run_mapping", arguments: { mapping: "optimize?objective=speed", experiment_id: "bad_option" } });
check("a bad optimize option is a tool error naming it", badOption.isError === true &&
  badOption.content[0].text.includes("objective must be latency, energy, edp or pareto, got 'speed'"), badOption);

await client.close();
process.exit(failures === 0 ? 0 : 1);
