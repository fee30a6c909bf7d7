"""C++ errors reach Python as exceptions that carry the file, place and message."""

import pytest

import stream_cpp

TWO_CONV = "workload/2conv_1_8_32_32_16_32_3.onnx"


def test_malformed_hardware_is_an_input_error_naming_the_file(scratch):
    bad = scratch / "bad.yaml"
    bad.write_text("name: x\ncores:\n  0: [1, 2\n")  # the flow sequence is never closed
    with pytest.raises(stream_cpp.StreamInputError) as info:
        stream_cpp.evaluate_mapping(str(bad), TWO_CONV, str(scratch / "out"))
    e = info.value
    assert e.file == str(bad)
    assert "YAML syntax error" in e.message and str(bad) in str(e)
    assert isinstance(e, stream_cpp.StreamError) and isinstance(e, ValueError)
    assert not (scratch / "out").exists() or not any((scratch / "out").iterdir())  # nothing half-written


def test_missing_hardware_file_is_named(scratch):
    missing = scratch / "nope.yaml"
    with pytest.raises(stream_cpp.StreamInputError) as info:
        stream_cpp.load_accelerator(str(missing))
    assert info.value.file == str(missing) and info.value.message == f"no such file (tried {missing})"


def test_unknown_block_parameter_is_an_input_error(scratch):
    with pytest.raises(stream_cpp.StreamInputError, match="no parameter 'tokenz'"):
        stream_cpp.evaluate_mapping("hardware/tpu_like_quad_core.yaml", "swiglu", str(scratch), block_params={"tokenz": 3})


def test_bad_experiment_id_is_refused_before_any_work(scratch):
    with pytest.raises(stream_cpp.StreamInputError):
        stream_cpp.evaluate_mapping("hardware/tpu_like_quad_core.yaml", TWO_CONV, str(scratch), experiment_id="a/b")


def test_validate_reports_problems_as_data(scratch):
    bad = scratch / "bad.yaml"
    bad.write_text("name: x\ncores:\n  0: [1, 2\n")
    report = stream_cpp.validate(str(bad))
    assert report["valid"] is False
    assert report["errors"][0]["file"] == str(bad) and report["errors"][0]["line"] == 4
