"""evaluate_mapping as the Python Stream is called: a hardware description as a dict, a workload as
ONNX bytes or an onnx.ModelProto, and skip_if_exists=True; and StreamInputError's place when an
error lists several problems.

Expected figures (goldens.md, as test_goldens.py): the bundled 2-conv on the TPU-like quad core
takes 14344 cycles and 18911243.392 pJ; on the Eyeriss-like single core 114999 cycles. A dict or a
model object is the same input as its file, so it gives the same figures.
"""

import json
import pathlib
import tempfile

import pytest

import stream_cpp

TWO_CONV = "workload/2conv_1_8_32_32_16_32_3.onnx"
TPU = "hardware/tpu_like_quad_core.yaml"


def bundled(source_dir, relative):
    return source_dir / "inputs" / relative


def test_hardware_as_a_dict_gives_the_files_figures(scratch, source_dir):
    yaml = pytest.importorskip("yaml")
    hardware = yaml.safe_load(bundled(source_dir, TPU).read_text())
    assert hardware["cores"][0] == "./cores/tpu_like.yaml"  # a reference, resolved in the bundled hardware
    kept = json.dumps(hardware, sort_keys=True)
    r = stream_cpp.evaluate_mapping(hardware, TWO_CONV, str(scratch), experiment_id="dict")
    assert r.total_latency == 14344
    assert r.total_energy == pytest.approx(18911243.392, rel=1e-9)
    assert json.dumps(hardware, sort_keys=True) == kept  # the caller's dict is not changed
    # As json.load gives it: core ids as strings.
    as_json = json.loads(json.dumps(hardware))
    assert "0" in as_json["cores"]
    assert stream_cpp.evaluate_mapping(as_json, TWO_CONV, str(scratch), experiment_id="json").total_latency == 14344
    # The default results folder is named after the dict's name, as after a file's.
    named = stream_cpp.evaluate_mapping(hardware, TWO_CONV, str(scratch))
    assert pathlib.Path(named.output_dir).name.startswith("tpu_like_quad_core-")


def test_a_bad_hardware_dict_is_an_input_error(scratch):
    with pytest.raises(stream_cpp.StreamInputError, match="not found"):
        stream_cpp.evaluate_mapping({"name": "x", "cores": {0: "no_such_core.yaml"}}, TWO_CONV, str(scratch))
    with pytest.raises(TypeError, match="hardware must be"):
        stream_cpp.evaluate_mapping(42, TWO_CONV, str(scratch))


def temporary_copies():
    return set(pathlib.Path(tempfile.gettempdir()).glob("stream_cpp-inputs-*"))


def test_workload_as_bytes_or_a_model_proto(scratch, source_dir):
    before = temporary_copies()
    data = bundled(source_dir, TWO_CONV).read_bytes()
    r = stream_cpp.evaluate_mapping(TPU, data, str(scratch), experiment_id="bytes")
    assert r.total_latency == 14344
    assert stream_cpp.evaluate_mapping(TPU, bytearray(data), str(scratch), experiment_id="bytearray").total_latency == 14344
    onnx = pytest.importorskip("onnx")
    model = onnx.load_from_string(data)
    r = stream_cpp.evaluate_mapping(TPU, model, str(scratch))
    assert r.total_latency == 14344
    graph = model.graph.name or "model"
    assert pathlib.Path(r.output_dir).name.startswith("tpu_like_quad_core-" + graph)
    with pytest.raises(TypeError, match="workload must be"):
        stream_cpp.evaluate_mapping(TPU, 3.5, str(scratch))
    assert temporary_copies() <= before  # each run's copies are removed after it


def test_skip_if_exists_returns_the_earlier_result_without_running(scratch):
    first = stream_cpp.evaluate_mapping(TPU, TWO_CONV, str(scratch), experiment_id="once")
    assert first.total_latency == 14344
    # Other hardware into the same folder: skipped, so the figures are the earlier run's, read back.
    again = stream_cpp.evaluate_mapping("hardware/eyeriss_like_single_core.yaml", TWO_CONV, str(scratch),
                                        experiment_id="once", skip_if_exists=True)
    assert again.total_latency == 14344 and again.total_energy == first.total_energy
    assert again.solved and again.output_dir == first.output_dir
    assert [g["latency"] for g in again.groups] == [g["latency"] for g in first.groups]
    strip = lambda rows: [(c["node"], c["core_id"], c["latency_total"], c["energy_total"], c["backend"]) for c in rows]
    assert strip(again.cost_table) == strip(first.cost_table) and len(first.cost_table) == 8
    # Without it the run happens (and replaces the folder); with it and no earlier result too.
    assert stream_cpp.evaluate_mapping("hardware/eyeriss_like_single_core.yaml", TWO_CONV, str(scratch),
                                       experiment_id="once").total_latency == 114999
    fresh = stream_cpp.evaluate_mapping(TPU, TWO_CONV, str(scratch), experiment_id="new", skip_if_exists=True)
    assert fresh.total_latency == 14344 and (scratch / "new" / "summary.json").is_file()


def test_an_error_with_several_problems_gives_the_first_ones_line(scratch):
    bad = scratch / "two_problems.yaml"
    bad.write_text("name: x\ncores:\n  0: no_such_core.yaml\n  1: no_such_core_either.yaml\n")
    with pytest.raises(stream_cpp.StreamInputError) as info:
        stream_cpp.evaluate_mapping(str(bad), TWO_CONV, str(scratch))
    e = info.value
    # Every problem is listed; the two core references where the file has them (line 3 column 6,
    # line 4 column 6).
    places = {(p["line"], p["column"]) for p in e.problems if "not found" in p["message"]}
    assert places == {(3, 6), (4, 6)}, e.problems
    assert len(e.problems) >= 3  # and at least the missing core_connectivity
    # The error's own place is the first problem's (it was line 0, column 0).
    first = e.problems[0]
    assert (e.file, e.line, e.column) == (str(bad), first["line"], first["column"]) and e.line > 0
