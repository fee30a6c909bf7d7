"""Relative input paths resolve as for every `stream` command (host/inputs.hpp): as given from the
working directory, then under the bundled inputs, then (for `inputs/...`) under the bundled inputs
without that first part. A file found nowhere is a StreamInputError listing every place tried.

Expected: the 2-conv on the TPU-like quad core is 14344 cycles (the README's figure, goldens.md);
array_cores_2conv.yaml has 5 core counts x 2 array sizes = 10 points.
"""

import os
import pathlib

import pytest

import stream_cpp

SOURCE = os.environ.get("STREAM_SOURCE_DIR", str(pathlib.Path(__file__).parents[2]))
BUNDLED = pathlib.Path(os.path.normpath(SOURCE)) / "inputs"  # as the module names it: no "..", links kept


@pytest.fixture
def elsewhere(scratch, monkeypatch):
    """The test runs in its own empty directory, which holds none of the inputs."""
    monkeypatch.chdir(scratch)
    return scratch.resolve()


def places(where: pathlib.Path, given: str) -> str:
    return f"no such file (tried {where / given}, {BUNDLED / given})"


def test_evaluate_mapping_finds_bundled_inputs_from_any_directory(elsewhere):
    r = stream_cpp.evaluate_mapping("inputs/hardware/tpu_like_quad_core.yaml",
                                    "workload/2conv_1_8_32_32_16_32_3.onnx", "out")
    assert r.total_latency == 14344


def test_parse_workload_and_validate_find_bundled_inputs(elsewhere):
    parsed = stream_cpp.parse_workload("inputs/workload/2conv_1_8_32_32_16_32_3.onnx")
    assert [n["type"] for n in parsed["nodes"]].count("Conv") == 2
    v = stream_cpp.validate("hardware/tpu_like_quad_core.yaml", workload="workload/2conv_1_8_32_32_16_32_3.onnx")
    assert v["valid"] and len(v["accelerator"]["cores"]) == 7


def test_sweep_file_is_found_under_the_bundled_inputs(elsewhere):
    out = stream_cpp.sweep("inputs/sweeps/array_cores_2conv.yaml", "sweep-out", jobs=2)
    assert len(out["rows"]) == 10 and out["ok"] == 10


def test_a_missing_file_lists_every_place_tried(elsewhere):
    with pytest.raises(stream_cpp.StreamInputError) as info:
        stream_cpp.load_accelerator("hardware/nope.yaml")
    assert info.value.file == "hardware/nope.yaml"
    assert info.value.message == places(elsewhere, "hardware/nope.yaml")
    with pytest.raises(stream_cpp.StreamInputError) as info:
        stream_cpp.evaluate_mapping("hardware/tpu_like_quad_core.yaml", "nope.onnx", "out")
    assert info.value.message == places(elsewhere, "nope.onnx")
    with pytest.raises(stream_cpp.StreamInputError) as info:
        stream_cpp.sweep("sweeps/nope.yaml", "sweep-out")
    assert info.value.message == places(elsewhere, "sweeps/nope.yaml")
    # validate reports it as data, as every other problem of its inputs.
    v = stream_cpp.validate("hardware/tpu_like_quad_core.yaml", mapping="mapping/nope.yaml")
    assert not v["valid"]
    assert [e["message"] for e in v["errors"]] == [places(elsewhere, "mapping/nope.yaml")]
