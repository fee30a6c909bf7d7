"""Figures resting on ideal-cycle estimates say so in Python (docs/results.md, "Estimates").

The reference's fp32 2-conv on the TPU-like quad core: the 16-bit output registers hold no 32-bit
partial sum, so both convolutions, split over the four compute cores, are estimates on every core:
8 of 8 (node, core) pairs, all used by the schedule. Every compute cycle of the run's one group
then rests on an estimate, so the latency share is 100 %. Cast to bf16 the model costs every pair:
no estimate, no warning; nor has the bundled default 2-conv (14344 cycles).
"""

import warnings

import pytest

import stream_cpp

TPU = "hardware/tpu_like_quad_core.yaml"
TWO_CONV = "workload/2conv_1_8_32_32_16_32_3.onnx"


def fp32_two_conv(source_dir):
    return str(source_dir / "tests" / "data" / "reference" / "stream-inputs" / "workload" / "2_conv.onnx")


def test_estimates_warn_with_their_own_class_and_are_attributes(scratch, source_dir):
    assert issubclass(stream_cpp.EstimateWarning, UserWarning)
    with pytest.warns(stream_cpp.EstimateWarning, match=r"8 of 8 \(node, core\) costs are ideal-cycle estimates"):
        r = stream_cpp.evaluate_mapping(TPU, fp32_two_conv(source_dir), str(scratch), experiment_id="fp32")
    assert r.estimates == 8
    assert r.scheduled_estimates == 8
    assert r.estimate_latency_share == 100.0
    assert r.estimate_energy_share >= 0.0
    assert "estimates=8" in repr(r)
    [reason] = r.estimate_reasons
    assert reason["pairs"] == 8
    assert reason["reason"].startswith("no loop ordering fits: memory 'rf_2B' holds 16 bits, less than one 32-bit")
    assert reason["detail"].startswith("NoValidLoopOrderingFoundException")
    row = r.cost_table[0]
    assert row["backend"] == "ideal-cycle" and row["reason"] == reason["reason"] and row["detail"] == reason["detail"]


def test_no_estimate_no_warning(scratch, source_dir):
    with warnings.catch_warnings():
        warnings.simplefilter("error", stream_cpp.EstimateWarning)
        r = stream_cpp.evaluate_mapping(TPU, TWO_CONV, str(scratch), experiment_id="default")
        cast = stream_cpp.evaluate_mapping(TPU, fp32_two_conv(source_dir), str(scratch), experiment_id="bf16",
                                           cast="bf16")
    for result in (r, cast):
        assert result.estimates == 0 and result.scheduled_estimates == 0
        assert result.estimate_latency_share == 0.0 and result.estimate_energy_share == 0.0
        assert result.estimate_reasons == []
    assert r.total_latency == 14344


def test_a_warning_filter_can_make_estimates_an_error(scratch, source_dir):
    with warnings.catch_warnings():
        warnings.simplefilter("error", stream_cpp.EstimateWarning)
        with pytest.raises(stream_cpp.EstimateWarning):
            stream_cpp.evaluate_mapping(TPU, fp32_two_conv(source_dir), str(scratch), experiment_id="fp32")


def test_strict_refuses_a_convolution_estimate(scratch, source_dir):
    with pytest.raises(stream_cpp.StreamInputError, match=r"--strict: group 0 node 'conv1' \(Conv\) on core 0"):
        stream_cpp.evaluate_mapping(TPU, fp32_two_conv(source_dir), str(scratch), experiment_id="strict", strict=True)
    assert not (scratch / "strict").exists()


def test_sweep_rows_carry_the_estimate_columns(scratch, source_dir):
    spec = {"axes": {"hardware": [TPU], "workload": [fp32_two_conv(source_dir)], "cast": ["none", "bf16"]}}
    with pytest.warns(stream_cpp.EstimateWarning, match="1 of 2 points rest partly on ideal-cycle estimates"):
        out = stream_cpp.sweep(spec, str(scratch / "sweep"), jobs=1)
    fp32, bf16 = out["rows"]
    assert (fp32["estimates"], fp32["estimate_latency_share"]) == (8, 100.0)
    assert (bf16["estimates"], bf16["estimate_latency_share"], bf16["estimate_energy_share"]) == (0, 0.0, 0.0)
    strict = stream_cpp.sweep(spec, str(scratch / "strict"), jobs=1, strict=True)
    assert [r["status"] for r in strict["rows"]] == ["failed", "ok"]
    assert strict["rows"][0]["reason"].startswith("--strict: group 0 node 'conv1' (Conv) on core 0")
