"""evaluate_mapping's layout= is `stream run --layout`: the same modes, files and figures.

Expected figures (docs/layout.md, "Before and after"): the 2-conv on tpu_like_quad_core_dma (a DMA
model with 32 setup cycles per descriptor on its off-chip bus) takes 14,472 cycles, the 14,344 of
the file without a DMA model plus 4 descriptor setups on the critical path, under both modes; the
choice changes no tensor, since every option costs what the model's order costs.
"""

import json
import os
import pathlib
import subprocess

import pytest

import stream_cpp

TWO_CONV = "workload/2conv_1_8_32_32_16_32_3.onnx"
DMA = "hardware/tpu_like_quad_core_dma.yaml"


def cli_run(scratch, *args):
    stream = pathlib.Path(os.environ["STREAM_BUILD_DIR"]) / "bin" / "stream"
    subprocess.run([str(stream), "run", "--hardware", DMA, "--workload", TWO_CONV, "--out", str(scratch / "cli"),
                    "--experiment-id", "exp", *args], check=True, capture_output=True)
    return scratch / "cli" / "exp"


def test_choose_writes_what_stream_run_layout_choose_writes(scratch):
    r = stream_cpp.evaluate_mapping(DMA, TWO_CONV, str(scratch / "py"), experiment_id="exp", layout="choose")
    assert r.total_latency == 14472 == 14344 + 4 * 32
    py = scratch / "py" / "exp"
    summary = json.loads((py / "summary.json").read_text())
    assert summary["layouts"]["mode"] == "choose" and summary["layouts"]["changed_tensors"] == 0
    assert summary["layouts"]["first_pass_latency"] == r.total_latency
    layouts = (py / "group_0" / "layouts.yaml").read_text()
    assert "options:" in layouts and "chosen: model" in layouts
    cli = cli_run(scratch, "--layout", "choose")
    for name in ["summary.json", "summary.yaml", "group_0/layouts.yaml"]:
        assert (py / name).read_text() == (cli / name).read_text(), name


def test_fixed_is_the_default_and_only_prices(scratch):
    r = stream_cpp.evaluate_mapping(DMA, TWO_CONV, str(scratch / "py"), experiment_id="exp")
    assert r.total_latency == 14472
    layouts = (scratch / "py" / "exp" / "group_0" / "layouts.yaml").read_text()
    assert "chosen: model" in layouts and "options:" not in layouts
    cli = cli_run(scratch)
    assert (scratch / "py" / "exp" / "summary.json").read_text() == (cli / "summary.json").read_text()


def test_an_unknown_mode_is_an_input_error(scratch):
    with pytest.raises(stream_cpp.StreamInputError, match="best"):
        stream_cpp.evaluate_mapping(DMA, TWO_CONV, str(scratch / "py"), layout="best")
    assert not (scratch / "py").exists() or not any((scratch / "py").iterdir())
