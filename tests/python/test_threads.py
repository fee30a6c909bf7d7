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
        stream_cpp.evaluate_mapping("hardware/eyeriss_like_single_core.yaml", TWO_CONV, str(scratch))
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
