#!/usr/bin/env python3
"""Writes a copy of an ONNX model whose first graph input has another spatial size.

Usage: resize_onnx_input.py IN.onnx OUT.onnx HEIGHT WIDTH

For models whose layers take their shapes from the input (convolutions, pools, a global pool and
Flatten before the classifier, as torchvision's ResNets): the graph's first input gets
[N, C, HEIGHT, WIDTH] and nothing else changes (the exported files hold no intermediate shapes).
Made with protoc's text format (Debian's protobuf-compiler and libonnx-dev's onnx.proto), so it
needs neither PyTorch nor the onnx Python package.
inputs/workload/resnet50_224_op17.onnx is
    resize_onnx_input.py inputs/workload/exported/resnet50_op17.onnx inputs/workload/resnet50_224_op17.onnx 224 224
"""
import re
import subprocess
import sys

PROTO_DIR = "/usr/include/onnx"


def protoc(mode, data):
    return subprocess.run(["protoc", f"--{mode}=onnx.ModelProto", f"-I{PROTO_DIR}", f"{PROTO_DIR}/onnx.proto"],
                          input=data, capture_output=True, check=True).stdout


def main():
    src, dst, height, width = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    text = protoc("decode", open(src, "rb").read()).decode()
    if "value_info" in text:
        sys.exit(f"{src}: has intermediate shapes (value_info), which this script does not rewrite")
    start = text.index("\n  input {")
    end = text.index("\n  }", start)
    dims = list(re.finditer(r"dim_value: (\d+)", text[start:end]))
    if len(dims) != 4:
        sys.exit(f"{src}: the first graph input is not 4-D")
    block = text[start:end]
    for match, value in reversed(list(zip(dims[2:], (height, width)))):
        block = block[:match.start()] + f"dim_value: {value}" + block[match.end():]
    open(dst, "wb").write(protoc("encode", (text[:start] + block + text[end:]).encode()))


if __name__ == "__main__":
    main()
