"""Runs in two threads at once: each gets its own figures, and a run releases the GIL."""

import threading
import time

import stream_cpp

TWO_CONV = "workload/2conv_1_8_32_32_16_32_3.onnx"


def test_two_threads_run_concurrently_with_their_own_figures(scratch):
    # Eyeriss single core 114999 cycles, TPU-like quad core 14344 (goldens.md); each thread runs
    # its system three times into its own directory.
    systems = {"eyeriss_like_single_core": 114999, "tpu_like_quad_core": 14344}
    latencies = {name: [] for name in systems}
    errors = []

    def work(name):
        try:
            for i in range(3):
                r = stream_cpp.evaluate_mapping(f"hardware/{name}.yaml", TWO_CONV, str(scratch / name),
                                                experiment_id=f"run{i}")
                latencies[name].append(r.total_latency)
        except Exception as e:  # reported below: an exception in a thread does not fail the test by itself
            errors.append(e)

    threads = [threading.Thread(target=work, args=(name,)) for name in systems]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert latencies == {name: [golden] * 3 for name, golden in systems.items()}


def test_a_run_releases_the_gil(scratch):
    # Were the GIL held for the whole call, no Python code of this thread could run between the
    # call's start and end: record both and count this thread's ticks inside the window.
    window = {}

    def work():
        window["start"] = time.monotonic()
        for i in range(4):  # long enough for a few ticks on a loaded machine
            stream_cpp.evaluate_mapping("hardware/eyeriss_like_single_core.yaml", TWO_CONV, str(scratch),
                                        experiment_id=f"run{i}")
        window["end"] = time.monotonic()

    ticks = []
    t = threading.Thread(target=work)
    t.start()
    while t.is_alive():
        ticks.append(time.monotonic())
        time.sleep(0.001)
    t.join()
    inside = [x for x in ticks if window["start"] < x < window["end"]]
    assert len(inside) >= 3, (window, len(ticks))


def test_a_run_need_not_wait_for_a_sweep_in_another_thread(scratch, source_dir):
    # The sweep of 125 hardware variants takes seconds on one job; a 2-conv run takes a fraction of
    # that. Started once the sweep is under way, the run ends before the sweep: a sweep holds the
    # plugin host only while it loads its inputs (and for each point's expansion), not throughout.
    spec = str(source_dir / "inputs" / "sweeps" / "tpu_variants_2conv.yaml")
    done = {}

    def sweep():
        stream_cpp.sweep(spec, str(scratch / "sweep"), jobs=1)
        done["sweep"] = time.monotonic()

    t = threading.Thread(target=sweep)
    t.start()
    results = scratch / "sweep" / "results.jsonl"
    while t.is_alive() and (not results.exists() or results.stat().st_size == 0):
        time.sleep(0.005)
    r = stream_cpp.evaluate_mapping("hardware/tpu_like_quad_core.yaml", TWO_CONV, str(scratch / "run"))
    done["run"] = time.monotonic()
    t.join()
    assert r.total_latency == 14344
    assert done["run"] < done["sweep"], done
