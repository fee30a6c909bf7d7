"""sweep(): a few design points from a dict and from a sweep file, with the figures of the goldens.

Expected: the 2-conv on the Eyeriss-like single core 114999 cycles and on the TPU-like quad core
14344 (goldens.md, as in test_goldens.py); a point whose hardware file does not exist is a row
with status failed and its reason, and the other points still run.
"""

import csv

import stream_cpp


def test_sweep_of_a_dict(scratch):
    spec = {"axes": {"hardware": ["eyeriss_like_single_core.yaml", "tpu_like_quad_core.yaml", "no_such_system.yaml"],
                     "workload": ["2conv_1_8_32_32_16_32_3.onnx"]}}
    out = stream_cpp.sweep(spec, str(scratch), jobs=2)
    rows = out["rows"]
    assert [r["point"] for r in rows] == [0, 1, 2]  # product order
    assert [r["status"] for r in rows] == ["ok", "ok", "failed"]
    assert [r.get("latency") for r in rows] == [114999, 14344, None]
    assert "no_such_system.yaml" in rows[2]["reason"]
    assert out["ok"] == 2
    with open(scratch / "results.csv", newline="") as f:
        table = list(csv.DictReader(f))
    assert [t["latency"] for t in table] == ["114999", "14344", ""]
    # Resumed: every point is already in results.jsonl, so none runs again and the rows are the same.
    again = stream_cpp.sweep(spec, str(scratch))
    assert [r["id"] for r in again["rows"]] == [r["id"] for r in rows]
    assert [r["wall_s"] for r in again["rows"]] == [r["wall_s"] for r in rows]
    # A row made wrong by hand: resuming keeps it, restart=True evaluates every point again.
    log = scratch / "results.jsonl"
    log.write_text(log.read_text().replace('"latency":14344', '"latency":1'))
    assert [r.get("latency") for r in stream_cpp.sweep(spec, str(scratch))["rows"]] == [114999, 1, None]
    assert [r.get("latency") for r in stream_cpp.sweep(spec, str(scratch), restart=True)["rows"]] == [114999, 14344, None]


def test_sweep_of_a_file_with_block_parameters(scratch):
    # Two SwiGLU sizes as a block-parameter axis; the larger does more work, so it takes longer.
    spec_file = scratch / "swiglu.yaml"
    spec_file.write_text("axes:\n  hardware: [tpu_like_quad_core.yaml]\n  workload: ['block:swiglu']\n"
                         "  tokens: [4, 16]\n")
    out = stream_cpp.sweep(str(spec_file), str(scratch / "out"))
    rows = out["rows"]
    assert [r["status"] for r in rows] == ["ok", "ok"]
    assert [r["tokens"] for r in rows] == [4, 16]  # numbers in the file, numbers in the rows
    assert rows[0]["latency"] < rows[1]["latency"]
    assert (scratch / "out" / "pareto.csv").is_file()
