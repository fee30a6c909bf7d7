"""Stream from Python: the bundled 2-conv workload on two accelerators, with the figures printed.

Run it from the build tree (after building):

    PYTHONPATH=build/python /usr/bin/python3 examples/python/evaluate_2conv.py [OUTPUT_DIR]

or, after `cmake --install build --prefix PREFIX`, with PREFIX's site-packages on PYTHONPATH.
"""

import sys

import stream_cpp


def main(output_path: str) -> None:
    for hardware in ["hardware/tpu_like_quad_core.yaml", "hardware/eyeriss_like_single_core.yaml"]:
        result = stream_cpp.evaluate_mapping(hardware, "workload/2conv_1_8_32_32_16_32_3.onnx", output_path)
        print(f"{hardware}: {result.total_latency} cycles, {result.total_energy:.6g} pJ, EDP {result.edp:.6g}")
        for group in result.groups:
            slowest = max(group["cost_table"], key=lambda entry: entry["latency_total"])
            print(f"  group {group['index']}: {group['latency']} cycles, {group['status']}, slowest (node, core): "
                  f"{slowest['node']} on core {slowest['core_id']}, {slowest['latency_total']:g} cycles")
        print(f"  files in {result.output_dir}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "outputs")
