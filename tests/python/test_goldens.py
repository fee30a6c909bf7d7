"""The README's goldens through Python: evaluate_mapping gives the figures `stream run` gives and
writes the same files.

Expected figures (goldens.md, "2-conv and SwiGLU on the eight example systems"; the same table
tests/pipeline/scenarios/hardware_matrix_test.cpp checks): the bundled 2-conv on the TPU-like quad
core (the default of `stream run` and scripts/run.sh) takes 14344 cycles, MAC spatial utilisation
0.4155290102, end to end 0.1003904071; on the Eyeriss-like single core 114999 cycles. The energy of
the default, 1.89112e+07 pJ, and its EDP 2.71263e+11 = 14344 x 18911243.392 are the README's.
"""

import json
import pathlib
import pickle

import pytest

import stream_cpp

TWO_CONV = "workload/2conv_1_8_32_32_16_32_3.onnx"


def test_default_run_is_14344_with_all_files(scratch):
    r = stream_cpp.evaluate_mapping("hardware/tpu_like_quad_core.yaml", TWO_CONV, str(scratch), experiment_id="exp")
    assert r.total_latency == 14344
    assert r.total_energy == pytest.approx(18911243.392, rel=1e-9)
    assert r.edp == pytest.approx(14344 * 18911243.392, rel=1e-9)
    assert r.mac_spatial_utilization == pytest.approx(0.4155290102, abs=1e-9)
    assert r.end_to_end_mac_utilization == pytest.approx(0.1003904071, abs=1e-9)
    assert r.solved
    assert len(r.groups) == 1 and r.groups[0]["latency"] == 14344 and r.groups[0]["status"] == "OPTIMAL"
    out = scratch / "exp"
    assert r.output_dir == str(out)
    for name in ["mapping.yaml", "core_cost_lut.yaml", "slot_latency_breakdown.yaml", "optimization_metrics.yaml",
                 "steady_state_trace.json", "schedule.svg", "memory_accesses.yaml"]:
        assert (out / "group_0" / name).is_file(), name
    summary = json.loads((out / "summary.json").read_text())
    assert summary["total_latency"] == r.total_latency and summary["total_energy"] == r.total_energy
    assert "total_latency: 14344\n" in (out / "summary.yaml").read_text()


def test_cost_table_holds_the_per_core_figures(scratch):
    # The cost table of the default run: Conv1 and Conv2 on each of the four identical compute
    # cores, 2376 and 4656 cycles (the figures tests/pipeline/scenarios/stream_run_test.cpp reads in
    # core_cost_lut.yaml), 8 entries as the summary's costs.entries says.
    r = stream_cpp.evaluate_mapping("hardware/tpu_like_quad_core.yaml", TWO_CONV, str(scratch))
    table = r.cost_table
    assert len(table) == 8
    assert {(e["node"], e["latency_total"]) for e in table} == {("Conv1", 2376), ("Conv2", 4656)}
    assert sorted(e["core_id"] for e in table if e["node"] == "Conv1") == [0, 1, 2, 3]
    assert all(e["group"] == 0 and e["backend"] == "zigzag" for e in table)


def test_eyeriss_single_core_is_114999(scratch):
    r = stream_cpp.evaluate_mapping("hardware/eyeriss_like_single_core.yaml", TWO_CONV, str(scratch))
    assert r.total_latency == 114999
    assert r.mac_spatial_utilization == pytest.approx(0.6772569799, abs=1e-9)
    # The experiment id `stream run` builds: <hardware stem>-<workload stem>-constraint_optimization.
    assert r.output_dir.endswith("eyeriss_like_single_core-2conv_1_8_32_32_16_32_3-constraint_optimization")


def test_result_prints_and_pickles(scratch):
    r = stream_cpp.evaluate_mapping("hardware/tpu_like_quad_core.yaml", TWO_CONV, str(scratch), summary_only=True)
    assert "total_latency=14344 cycles" in repr(r) and "1.89112e+07 pJ" in repr(r)
    again = pickle.loads(pickle.dumps(r))
    assert again.total_latency == 14344 and again.as_dict() == r.as_dict()
    assert not (pathlib.Path(r.output_dir) / "group_0").exists()  # summary_only: no per-group files


def test_compat_gives_the_references_attention_groups(scratch, source_dir):
    # attention_head on the TPU-like quad core: one folded group, 32815 cycles, by default; the
    # reference's two groups, 15424 + 29480 = 44904, with compat="stream-1.13" (goldens.md).
    attention = str(source_dir / "tests/data/reference/stream-inputs/workload/attention_head.onnx")
    ours = stream_cpp.evaluate_mapping("hardware/tpu_like_quad_core.yaml", attention, str(scratch), experiment_id="ours")
    assert ours.total_latency == 32815 and len(ours.groups) == 1
    ref = stream_cpp.evaluate_mapping("hardware/tpu_like_quad_core.yaml", attention, str(scratch), experiment_id="ref",
                                      compat="stream-1.13")
    assert [g["latency"] for g in ref.groups] == [15424, 29480]
    assert ref.total_latency == 44904
    with pytest.raises(stream_cpp.StreamInputError, match="unknown compatibility mode 'x'"):
        stream_cpp.evaluate_mapping("hardware/tpu_like_quad_core.yaml", attention, str(scratch), compat="x")
