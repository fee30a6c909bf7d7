"""Blocks with parameters: listed, parsed and run through Python as `stream` does."""

import json
import os
import pathlib
import subprocess

import stream_cpp


def test_blocks_lists_the_reference_blocks_with_their_parameters():
    blocks = {b["key"]: b for b in stream_cpp.blocks()}
    assert {"attention", "gqa", "mamba", "swiglu", "rmsnorm", "moe"} <= set(blocks)
    params = {p["name"]: p["default"] for p in blocks["swiglu"]["params"]}
    assert params == {"tokens": "16", "d_model": "64", "d_ff": "128", "dtype": "bf16"}


def test_parse_workload_builds_a_block_with_params():
    # SwiGLU with tokens=4, d_model=8, d_ff=16: x[4,8] @ W_gate[8,16] and x @ W_up[8,16] (m=4, n=16,
    # k=8), Silu and Mul on [4,16], then hidden[4,16] @ W_down[16,8] (m=4, n=8, k=16): 5
    # computation nodes beside 4 inputs and 1 output.
    w = stream_cpp.parse_workload("swiglu", tokens=4, d_model=8, d_ff=16)
    nodes = {n["name"]: n for n in w["nodes"]}
    assert w["totals"]["computation_nodes"] == 5 and w["totals"]["nodes"] == 10
    assert [(l["name"], l["size"]) for l in nodes["gate_proj"]["loop_dims"]] == [("m", 4), ("n", 16), ("k", 8)]
    assert [(l["name"], l["size"]) for l in nodes["down_proj"]["loop_dims"]] == [("m", 4), ("n", 8), ("k", 16)]


def test_parse_workload_reads_a_file():
    w = stream_cpp.parse_workload("workload/2conv_1_8_32_32_16_32_3.onnx")
    assert [n["name"] for n in w["nodes"] if n["kind"] == "computation"] == ["Conv1", "Conv2"]


def test_block_run_writes_what_stream_run_writes(scratch):
    # The same block and parameters through the CLI: the summaries are byte-identical (they hold
    # no clock readings), so Python runs the CLI's pipeline on the CLI's inputs.
    r = stream_cpp.evaluate_mapping("hardware/tpu_like_quad_core.yaml", "swiglu", str(scratch / "py"),
                                    experiment_id="exp", block_params={"tokens": 4})
    stream = pathlib.Path(os.environ["STREAM_BUILD_DIR"]) / "bin" / "stream"
    subprocess.run([str(stream), "run", "--block", "swiglu", "-p", "tokens=4", "--out", str(scratch / "cli"),
                    "--experiment-id", "exp"], check=True, capture_output=True)
    py_summary = (scratch / "py" / "exp" / "summary.json").read_text()
    assert py_summary == (scratch / "cli" / "exp" / "summary.json").read_text()
    assert json.loads(py_summary)["total_latency"] == r.total_latency > 0


def test_parse_workload_gives_graph_inputs_a_value(source_dir):
    # sample_rate_if.onnx: y = If(sr == 16000) { x[1,16] @ W16k[16,32] } else { x @ W8k[16,8] }.
    model = str(source_dir / "tests/plugins/onnx-frontend/data/sample_rate_if.onnx")
    for rate, name, n in (("16000", "If_sr/hi_MatMul", 32), ("8000", "If_sr/lo_MatMul", 8)):
        w = stream_cpp.parse_workload(model, inputs={"sr": rate})
        nodes = {x["name"]: x for x in w["nodes"] if x["kind"] == "computation"}
        assert list(nodes) == [name]
        assert [(l["name"], l["size"]) for l in nodes[name]["loop_dims"]] == [("m", 1), ("n", n), ("k", 16)]
