#!/usr/bin/python3
"""Runs `stream run` on every fixture of this folder on the TPU-like quad core and prints the
SURVEY.md rows: exit code, first error line or total latency, groups, wall time, and the count of
Conv/Gemm/MatMul (node, core) costs per backend ("zigzag": the per-core model; "ideal-cycle": the
fallback estimate).

    /usr/bin/python3 inputs/workload/exported/survey.py [--bf16] BUILD_DIR [OUT_DIR] [name ...]

--bf16 first re-types every float32 tensor of the model to bfloat16 (a copy in OUT_DIR), the
deployment precision of the TPU-like cores; it stands in for a `stream run --cast bf16`.
"""
import glob
import json
import os
import subprocess
import sys
import time

import onnx
import onnx.numpy_helper
import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
HARDWARE = os.path.join(ROOT, "inputs", "hardware", "tpu_like_quad_core.yaml")
LINEAR = ("Conv", "Gemm", "MatMul")
# Sizes for the symbolic dims of the exports (the encoder's dynamic_axes).
DIMS = {"batch": 1, "seq": 16}
TIMEOUT_S = 480


def symbolic_dims(model):
    names = []
    for i in model.graph.input:
        for d in i.type.tensor_type.shape.dim:
            if d.dim_param and d.dim_param not in names:
                names.append(d.dim_param)
    return names


def linear_backends(out_dir, op_types):
    """Counts of backend per (node, core) entry of the Conv/Gemm/MatMul nodes over all groups."""
    counts, fallback = {}, []
    for lut in sorted(glob.glob(os.path.join(out_dir, "group_*", "core_cost_lut.yaml"))):
        with open(lut) as f:
            doc = yaml.safe_load(f) or {}
        for node in doc.get("nodes") or []:
            if op_types.get(node["name"]) not in LINEAR:
                continue
            for core in node.get("cores") or []:
                backend = (core.get("metadata") or {}).get("backend", "?")
                counts[backend] = counts.get(backend, 0) + 1
                if backend != "zigzag" and node["name"] not in fallback:
                    fallback.append(node["name"])
    return counts, fallback[:3]


def retype_bf16(model):
    """float32 -> bfloat16 on every value, initializer, Constant, ConstantOfShape and Cast."""
    F32, BF16 = onnx.TensorProto.FLOAT, onnx.TensorProto.BFLOAT16

    def tensor(t):
        if t.data_type != F32:
            return t
        values = onnx.numpy_helper.to_array(t).flatten().tolist() if (t.raw_data or t.float_data) else None
        if values is None:
            t.data_type = BF16
            return t
        return onnx.helper.make_tensor(t.name, BF16, list(t.dims), values)

    for v in list(model.graph.input) + list(model.graph.output) + list(model.graph.value_info):
        if v.type.tensor_type.elem_type == F32:
            v.type.tensor_type.elem_type = BF16
    for t in model.graph.initializer:
        t.data_type = BF16 if t.data_type == F32 else t.data_type  # data already cleared
    for n in model.graph.node:
        for a in n.attribute:
            if a.type == onnx.AttributeProto.TENSOR:
                a.t.CopyFrom(tensor(a.t))
            elif n.op_type == "Cast" and a.name == "to" and a.i == F32:
                a.i = BF16
    return model


# Resolved by the frontend itself (aliases, constants, shape metadata), not by a parser.
FRONTEND_OPS = {"Identity", "Dropout", "Constant", "ConstantOfShape", "Shape"}


def parsed_ops(stream):
    plugins = json.loads(subprocess.run([stream, "plugins", "--format", "json"], capture_output=True, text=True,
                                        check=True).stdout)
    return {op for p in plugins for op in p["provides"]["onnx_ops"]} | FRONTEND_OPS


def no_parser(model, ops):
    """Op types in the graph without a parser (some may still be skipped as int64/bool metadata)."""
    counts = {}
    for n in model.graph.node:
        if n.op_type not in ops:
            counts[n.op_type] = counts.get(n.op_type, 0) + 1
    return counts


def survey(stream, out_root, path, ops, bf16=False):
    name = os.path.basename(path)[:-5]
    model = onnx.load(path)
    if bf16:
        os.makedirs(out_root, exist_ok=True)
        path = os.path.join(out_root, name + "_bf16.onnx")
        onnx.save(retype_bf16(model), path)
    op_types = {n.name: n.op_type for n in model.graph.node}
    out = os.path.join(out_root, name)
    cmd = [stream, "run", "--workload", path, "--hardware", HARDWARE, "--out", out, "--experiment-id", "run"]
    for d in symbolic_dims(model):
        cmd += ["--dim", f"{d}={DIMS[d]}"]
    start = time.monotonic()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT_S)
        rc, err = p.returncode, p.stderr
    except subprocess.TimeoutExpired:
        rc, err = "timeout", f"no result after {TIMEOUT_S} s"
    wall = time.monotonic() - start
    row = dict(name=name, nodes=len(model.graph.node), rc=rc, wall=round(wall, 2), cmd=" ".join(cmd),
               no_parser=no_parser(model, ops))
    if rc == 0:
        out = os.path.join(out, "run")
        with open(os.path.join(out, "summary.yaml")) as f:
            summary = yaml.safe_load(f)
        row["latency"] = summary.get("total_latency")
        row["groups"] = len(summary.get("groups") or {})
        row["backends"], row["fallback_nodes"] = linear_backends(out, op_types)
        # The hardware file's own connectivity warning is the same for every model.
        row["warnings"] = [l for l in err.splitlines() if l.startswith("warning:") and "core_connectivity" not in l]
    else:
        lines = err.splitlines()
        row["error"] = next((l for l in lines if l.startswith("error:")), lines[-1] if lines else "(no stderr)")
    return row


def main(argv):
    bf16 = bool(argv) and argv[0] == "--bf16"
    argv = argv[1:] if bf16 else argv
    stream = os.path.join(os.path.abspath(argv[0]), "bin", "stream")
    out_root = argv[1] if len(argv) > 1 else "/tmp/fx"
    names = argv[2:]
    paths = sorted(glob.glob(os.path.join(HERE, "*.onnx")))
    if names:
        paths = [p for p in paths if os.path.basename(p)[:-5] in names]
    rows, ops = [], parsed_ops(stream)
    for p in paths:
        row = survey(stream, out_root, p, ops, bf16)
        rows.append(row)
        print(yaml.safe_dump(row, default_flow_style=True, width=10000).strip(), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
