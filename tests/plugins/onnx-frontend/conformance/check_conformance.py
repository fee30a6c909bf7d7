#!/usr/bin/env python3
"""ONNX's operator conformance models through `stream parse`, with their counts as assertions.

Every `<test>/model.onnx` of Debian's libonnx-testdata (ONNX 1.12's backend node tests, opsets up to
17) is parsed by `stream parse --format json`, on every core at once, and classified by exit status
as the parse command reports it: ok (0), unsupported operator and other input errors (2, a clear
error), internal error (1), crash (a signal or another status) and hang (no answer within the
timeout). Each parsed model's graph-output shapes are compared with the dims of the test's own
`test_data_set_0/output_<i>.pb`. The test fails when fewer than --min-parsed models parse, or on any
internal error, crash, hang or differing output shape. The protobuf files are read with a small
wire-format reader of our own, so that no Python package is needed. Exit 77 (a skip) when the test
data is not installed.
Usage: check_conformance.py STREAM --min-parsed N [--data DIR] [--jobs J] [--timeout S]
"""
import argparse
import concurrent.futures
import json
import os
import subprocess
import sys

DEFAULT_DATA = "/usr/share/libonnx-testdata/data/node"
SKIP = 77


def varint(buf, i):
    value = shift = 0
    while True:
        byte = buf[i]
        i += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return value, i


def fields(buf):
    """(field number, wire type, value) of one protobuf message: ints for varints, bytes otherwise."""
    i = 0
    while i < len(buf):
        key, i = varint(buf, i)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, i = varint(buf, i)
        elif wire == 2:
            size, i = varint(buf, i)
            value, i = buf[i:i + size], i + size
        elif wire == 1:
            value, i = buf[i:i + 8], i + 8
        elif wire == 5:
            value, i = buf[i:i + 4], i + 4
        else:
            raise ValueError(f"unsupported wire type {wire}")
        yield number, wire, value


def graph_output_names(model_path):
    """ModelProto.graph (7) -> GraphProto.output (12) -> ValueInfoProto.name (1), in order."""
    with open(model_path, "rb") as f:
        model = f.read()
    names = []
    for number, _, graph in fields(model):
        if number != 7:
            continue
        for g_number, _, output in fields(graph):
            if g_number == 12:
                names.append(next((v.decode() for n, _, v in fields(output) if n == 1), ""))
    return names


def tensor_dims(pb_path):
    """TensorProto.dims (1): int64s, packed or not."""
    with open(pb_path, "rb") as f:
        tensor = f.read()
    dims = []
    for number, wire, value in fields(tensor):
        if number != 1:
            continue
        if wire == 0:
            dims.append(value)
        else:
            i = 0
            while i < len(value):
                d, i = varint(value, i)
                dims.append(d)
    return dims


def expected_shapes(test_dir):
    names = graph_output_names(os.path.join(test_dir, "model.onnx"))
    data_set = os.path.join(test_dir, "test_data_set_0")
    shapes = {}
    for i, name in enumerate(names):
        pb = os.path.join(data_set, f"output_{i}.pb")
        if os.path.isfile(pb):
            shapes[name] = tensor_dims(pb)
    return shapes


def parse_one(stream, test_dir, timeout):
    """(class, message, {graph output tensor: shape})."""
    model = os.path.join(test_dir, "model.onnx")
    try:
        done = subprocess.run([stream, "parse", model, "--format", "json"], capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "hang", f"no answer within {timeout} s", {}
    err = done.stderr.decode(errors="replace")
    message = next((line for line in err.splitlines() if "error" in line), err.strip()[:300])
    if done.returncode == 0:
        workload = json.loads(done.stdout)
        outs = {o["tensor"]: o["shape"] for n in workload["nodes"] if n.get("kind") == "out_edge" for o in n["operands"]}
        return "ok", "", outs
    if done.returncode == 2:
        return ("unsupported" if "no parser is registered" in err else "input-error"), message, {}
    if done.returncode == 1:
        return "internal", message, {}
    return "crash", f"exit status {done.returncode}: {message}", {}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("stream")
    ap.add_argument("--min-parsed", type=int, required=True)
    ap.add_argument("--data", default=DEFAULT_DATA)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--timeout", type=float, default=20)
    args = ap.parse_args()
    if not os.path.isdir(args.data):
        print(f"SKIP: {args.data} does not exist: install Debian's libonnx-testdata (scripts/setup.sh lists it "
              "among the test packages) to run the ONNX conformance check")
        return SKIP
    tests = sorted(t for t in os.listdir(args.data) if os.path.isfile(os.path.join(args.data, t, "model.onnx")))
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        results = list(pool.map(lambda t: parse_one(args.stream, os.path.join(args.data, t), args.timeout), tests))
    counts = {c: 0 for c in ("ok", "unsupported", "input-error", "internal", "crash", "hang")}
    failures, wrong, compared = [], [], 0
    for test, (cls, message, outs) in zip(tests, results):
        counts[cls] += 1
        if cls in ("internal", "crash", "hang"):
            failures.append(f"  {cls}: {test}: {message}")
        if cls == "ok":
            for name, dims in expected_shapes(os.path.join(args.data, test)).items():
                compared += name in outs
                if name in outs and outs[name] != dims:
                    wrong.append(f"  {test}: output '{name}' has shape {outs[name]}, its test data {dims}")
    print(f"{len(tests)} models: " + ", ".join(f"{k} {v}" for k, v in counts.items()))
    print(f"output shapes compared with the test data: {compared}, differing: {len(wrong)}")
    for line in failures + wrong:
        print(line)
    ok = True
    if counts["ok"] < args.min_parsed:
        print(f"FAIL: {counts['ok']} models parse, fewer than the {args.min_parsed} reached before")
        ok = False
    if failures or wrong:
        print("FAIL: internal errors, crashes, hangs or differing output shapes (listed above)")
        ok = False
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
