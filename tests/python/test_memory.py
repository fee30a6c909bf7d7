"""Memory use in Python's Result (docs/results.md, "Memory use").

The bundled bf16 2-conv on the TPU-like quad core: on each compute core the fullest slot is
Conv2's, holding the transferred conv1_out tile (16 x 32 x 9 columns x 16 bits = 73,728), the
weights (32 x 16 x 3 x 3 x 16 = 73,728) and its quarter of the output (32 x 32 x 8 x 16 =
131,072): 278,528 bits of the core's 16,777,216 (1.66 %). The per-core model's top memory holds
Conv2's whole tile: its input with both halo columns (81,920), weights and output: 286,720.
"""

import stream_cpp

TPU = "hardware/tpu_like_quad_core.yaml"
TWO_CONV = "workload/2conv_1_8_32_32_16_32_3.onnx"


def test_result_memory_gives_each_cores_peak_and_levels(scratch):
    r = stream_cpp.evaluate_mapping(TPU, TWO_CONV, str(scratch), experiment_id="memory")
    compute = [c for c in r.memory if c["core"] < 4]
    assert [c["core"] for c in compute] == [0, 1, 2, 3]
    for c in compute:
        assert (c["peak_bits"], c["capacity_bits"], c["peak_share"]) == (278528, 16777216, 1.66)
        assert c["peak_group"] == 0
        levels = {level["memory"]: level for level in c["levels"]}
        assert levels["sram_2MB"]["peak_bits"] == 286720 and levels["sram_2MB"]["node"] == "Conv2"
        assert levels["rf_2B"]["peak_bits"] == 16 and levels["rf_2B"]["peak_share"] == 100
    assert r.peak_memory_share == 1.66
    assert r.as_dict()["memory"] == r.memory
