# Regenerates sample_rate_if.onnx with onnx.helper (Debian's python3-onnx): Silero VAD's pattern,
# an If on a scalar graph input, y = If(sr == 16000) { x @ W16k [16, 32] } else { x @ W8k [16, 8] },
# x [1, 16]; weights cleared. `--input sr=VALUE` (or parse_workload(inputs=...)) decides it.
import onnx
from onnx import TensorProto as T
from onnx import helper as h


def branch(weight, out):
    return h.make_graph([h.make_node("MatMul", ["x", weight], [out], name=out + "_MatMul")], out,
                        [], [h.make_tensor_value_info(out, T.FLOAT, None)])


nodes = [
    h.make_node("Equal", ["sr", "k16000"], ["is16k"], name="Equal"),
    h.make_node("If", ["is16k"], ["y"], name="If_sr", then_branch=branch("W16k", "hi"), else_branch=branch("W8k", "lo")),
]
weights = [h.make_tensor_value_info(n, T.FLOAT, s) for n, s in (("W16k", [16, 32]), ("W8k", [16, 8]))]
graph = h.make_graph(nodes, "sample_rate_if",
                     [h.make_tensor_value_info("x", T.FLOAT, [1, 16]), h.make_tensor_value_info("sr", T.INT64, [])],
                     [h.make_tensor_value_info("y", T.FLOAT, None)],
                     [h.make_tensor("k16000", T.INT64, [], [16000])])
for name, shape in (("W16k", [16, 32]), ("W8k", [16, 8])):
    t = graph.initializer.add()
    t.name, t.data_type = name, T.FLOAT
    t.dims.extend(shape)
onnx.save(h.make_model(graph, opset_imports=[h.make_opsetid("", 17)]), "sample_rate_if.onnx")
