"""mapping="optimize?..." from Python: the Result is the optimizer's best and Result.optimizer says
what it did; a bad option raises StreamInputError (a ValueError) naming it, in a run and a sweep."""

import json
import os
import pickle
import signal
import threading

import pytest

import stream_cpp

HARDWARE = "hardware/tpu_like_quad_core.yaml"
TWO_CONV = "workload/2conv_1_8_32_32_16_32_3.onnx"
OPTIMIZE = "optimize?evaluations=20&seed=3"


def test_the_result_is_the_best_with_the_optimizers_outcome(scratch):
    automatic = stream_cpp.evaluate_mapping(HARDWARE, TWO_CONV, str(scratch), experiment_id="auto", summary_only=True)
    assert automatic.optimizer is None
    best = stream_cpp.evaluate_mapping(HARDWARE, TWO_CONV, str(scratch), mapping=OPTIMIZE, experiment_id="opt")
    o = best.optimizer
    assert o["objective"] == "latency"
    assert (o["evaluations"], o["spent"], o["cut_short"]) == (20, 20, False)
    # Its automatic figures are the automatic run's; its best is the Result's, never worse.
    assert o["automatic"] == o["automatic_latency"] == automatic.total_latency
    assert o["automatic_energy_pj"] == pytest.approx(automatic.total_energy, rel=1e-12)
    assert o["best"] == best.total_latency <= automatic.total_latency
    assert o["ratio"] == pytest.approx(best.total_latency / automatic.total_latency)
    assert o["best_evaluation"] is None or (1 <= o["best_evaluation"] <= 20 and best.total_latency < automatic.total_latency)
    # The best mapping's file reruns to the same figures; optimize.yaml lists the 20 evaluations.
    assert o["best_mapping"] == str(scratch / "opt" / "best_mapping.yaml")
    rerun = stream_cpp.evaluate_mapping(HARDWARE, TWO_CONV, str(scratch), mapping=o["best_mapping"], experiment_id="rerun",
                                        summary_only=True)
    assert rerun.total_latency == best.total_latency
    assert "spent: 20" in (scratch / "opt" / "optimize.yaml").read_text()
    # The block is summary.json's, plus the automatic figures and the paths.
    summary = json.loads((scratch / "opt" / "summary.json").read_text())["optimizer"]
    assert {k: o[k] for k in summary} == summary
    # skip_if_exists reads the same outcome back from the files (not rewritten).
    written = (scratch / "opt" / "summary.json").stat().st_mtime_ns
    again = stream_cpp.evaluate_mapping(HARDWARE, TWO_CONV, str(scratch), mapping=OPTIMIZE, experiment_id="opt",
                                        skip_if_exists=True)
    assert again.optimizer == o
    assert (scratch / "opt" / "summary.json").stat().st_mtime_ns == written
    # The outcome pickles with the rest.
    assert pickle.loads(pickle.dumps(best)).optimizer == o


@pytest.mark.parametrize(
    "mapping, says",
    [
        ("optimize?evaluations=0", "evaluations must be an integer from 1 to 1000000, got '0'"),
        ("optimize?objective=speed", "objective must be latency, energy, edp or pareto, got 'speed'"),
        ("optimize?jobs=x", "jobs must be an integer from 1 to 1024, got 'x'"),
        ("optimize?evals=20", "unknown option 'evals'"),
    ],
)
def test_a_bad_option_raises_naming_it(scratch, mapping, says):
    with pytest.raises(stream_cpp.StreamInputError) as info:
        stream_cpp.evaluate_mapping(HARDWARE, TWO_CONV, str(scratch / "out"), mapping=mapping)
    assert isinstance(info.value, ValueError)
    assert says in str(info.value)
    assert not (scratch / "out").exists() or not any((scratch / "out").iterdir())  # refused before any work
    with pytest.raises(stream_cpp.StreamInputError, match="checked before any point runs") as swept:
        stream_cpp.sweep({"axes": {"mapping": ["auto", mapping]}}, str(scratch / "sweep"))
    assert says in str(swept.value)


def test_a_sweep_point_has_the_optimizers_columns(scratch):
    result = stream_cpp.sweep({"axes": {"mapping": ["auto", OPTIMIZE]}}, str(scratch / "sweep"), jobs=1)
    automatic, optimized = result["rows"]
    assert optimized["status"] == "ok"
    assert optimized["evaluations_spent"] == 20 and optimized["cut_short"] is False
    assert optimized["automatic_latency"] == automatic["latency"]
    assert optimized["latency"] <= automatic["latency"]


def test_ctrl_c_keeps_the_best_found(scratch):
    # A budget far beyond the test's time, interrupted once the search runs (the automatic run of
    # the 2-conv takes milliseconds; 2 s leaves room on a loaded machine): the Result is the best so
    # far, cut short, never worse. First a run solving on two threads at once: Clp's own SIGINT
    # handler, which concurrent solves used to leave installed, would take the interrupt instead
    # (ignored, or memory corruption).
    stream_cpp.evaluate_mapping(HARDWARE, TWO_CONV, str(scratch), mapping="optimize?evaluations=200&jobs=2",
                                experiment_id="two_threads", summary_only=True)
    timer = threading.Timer(2.0, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    try:
        with pytest.warns(RuntimeWarning, match="kept the best found so far"):
            best = stream_cpp.evaluate_mapping(HARDWARE, TWO_CONV, str(scratch), mapping="optimize?evaluations=1000000&jobs=1",
                                               experiment_id="interrupted")
    finally:
        timer.cancel()
    o = best.optimizer
    assert o["cut_short"] is True
    assert 0 < o["spent"] < 1000000
    assert best.total_latency <= o["automatic_latency"]
    assert (scratch / "interrupted" / "best_mapping.yaml").exists()
