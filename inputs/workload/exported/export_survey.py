#!/usr/bin/python3
"""Exports the models of SURVEY.md's section "Models beyond this folder" into a directory outside
the repository (they are too large to ship): torchvision models a user brings, a LLaMA-style
decoder written in torch and a Silero-VAD-like model built with onnx.helper.

Run with Debian's python3 (torch 1.13, torchvision 0.14, onnx 1.12):
    /usr/bin/python3 inputs/workload/exported/export_survey.py OUT_DIR [name ...]
Every model: weights=None, random init (seed 0), eval mode, batch 1, 224x224 images (the size the
models are made for), opsets 13 and 17, weights cleared as in export_models.py (names, dtypes and
shapes stay, small int64 constants keep their values).
"""
import os
import sys

import onnx
import torch
import torch.nn as nn
import torch.nn.functional as F
import torchvision.models as tvm
import torchvision.models.segmentation as seg
import torchvision.models.video as video
import torchvision.models.detection as det
from onnx import TensorProto as T
from onnx import helper as h

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from export_models import SegmentationOut, numel, strip_weights  # noqa: E402


# --- a LLaMA-style decoder: RMSNorm, rotary embeddings from cached tables, GQA by repeat_interleave,
# SwiGLU MLP, causal mask; different from tests/plugins/onnx-frontend/data/torch_constant_subgraphs.py
# (attention only, tables computed in the graph, GQA by expand + reshape).

class RMSNorm(nn.Module):
    def __init__(self, d, eps=1e-6):
        super().__init__()
        self.eps, self.weight = eps, nn.Parameter(torch.ones(d))

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight


def rotate_half(x):
    x1, x2 = x.chunk(2, dim=-1)
    return torch.cat((-x2, x1), dim=-1)


class LlamaLayer(nn.Module):
    def __init__(self, d, heads, kv_heads, ffn):
        super().__init__()
        self.h, self.kvh, self.hd = heads, kv_heads, d // heads
        self.wq = nn.Linear(d, d, bias=False)
        self.wk = nn.Linear(d, kv_heads * self.hd, bias=False)
        self.wv = nn.Linear(d, kv_heads * self.hd, bias=False)
        self.wo = nn.Linear(d, d, bias=False)
        self.w1, self.w3 = nn.Linear(d, ffn, bias=False), nn.Linear(d, ffn, bias=False)
        self.w2 = nn.Linear(ffn, d, bias=False)
        self.n1, self.n2 = RMSNorm(d), RMSNorm(d)

    def attention(self, x, cos, sin, mask):
        b, n, d = x.shape
        q = self.wq(x).view(b, n, self.h, self.hd).transpose(1, 2)
        k = self.wk(x).view(b, n, self.kvh, self.hd).transpose(1, 2)
        v = self.wv(x).view(b, n, self.kvh, self.hd).transpose(1, 2)
        q, k = q * cos + rotate_half(q) * sin, k * cos + rotate_half(k) * sin
        k = torch.repeat_interleave(k, self.h // self.kvh, dim=1)
        v = torch.repeat_interleave(v, self.h // self.kvh, dim=1)
        a = torch.softmax(q @ k.transpose(-2, -1) / self.hd ** 0.5 + mask, dim=-1)
        return self.wo((a @ v).transpose(1, 2).reshape(b, n, d))

    def forward(self, x, cos, sin, mask):
        x = x + self.attention(self.n1(x), cos, sin, mask)
        y = self.n2(x)
        return x + self.w2(F.silu(self.w1(y)) * self.w3(y))


class TinyLlama(nn.Module):
    def __init__(self, vocab=32000, d=512, heads=8, kv_heads=2, ffn=1376, layers=4, max_seq=512, base=10000.0):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.layers = nn.ModuleList(LlamaLayer(d, heads, kv_heads, ffn) for _ in range(layers))
        self.norm, self.head = RMSNorm(d), nn.Linear(d, vocab, bias=False)
        hd = d // heads
        inv = 1.0 / base ** (torch.arange(0, hd, 2).float() / hd)
        ang = torch.outer(torch.arange(max_seq).float(), inv)
        ang = torch.cat((ang, ang), dim=-1)
        self.register_buffer("cos_cached", ang.cos())
        self.register_buffer("sin_cached", ang.sin())
        self.register_buffer("causal", torch.triu(torch.full((max_seq, max_seq), float("-inf")), 1))

    def forward(self, ids):
        n = ids.shape[1]
        cos, sin = self.cos_cached[:n][None, None], self.sin_cached[:n][None, None]
        mask = self.causal[:n, :n][None, None]
        x = self.emb(ids)
        for layer in self.layers:
            x = layer(x, cos, sin, mask)
        return self.head(self.norm(x))


# --- a Silero-VAD-like model built with onnx.helper: If(sr == 16000) chooses between two branches,
# each an STFT as a strided Conv1d, magnitude, a Conv1d encoder, an LSTM fed the state inputs, and a
# Conv1d + Sigmoid decoder averaged over time. Branch weights live in the outer graph.

def vad_branch(tag, n_fft, hop, opset):
    nodes, inits = [], []
    bins = n_fft // 2 + 1

    def w(name, shape):
        t = onnx.TensorProto(name=f"{tag}_{name}", data_type=T.FLOAT, dims=shape)  # cleared: no data
        inits.append(t)
        return t.name

    def c64(name, values):
        inits.append(h.make_tensor(f"{tag}_{name}", T.INT64, [len(values)], values))
        return f"{tag}_{name}"

    def n(op, ins, outs, **attrs):
        nodes.append(h.make_node(op, ins, [f"{tag}_{o}" for o in outs], name=f"{tag}_{op}_{len(nodes)}", **attrs))
        return f"{tag}_{outs[0]}"

    x = n("Unsqueeze", ["input", c64("ax1", [1])], ["x3"])
    x = n("Pad", [x, c64("pads", [0, 0, n_fft // 4, 0, 0, n_fft // 4])], ["xpad"], mode="reflect")
    spec = n("Conv", [x, w("stft_basis", [n_fft + 2, 1, n_fft])], ["spec"], strides=[hop])
    re = n("Slice", [spec, c64("s0", [0]), c64("e0", [bins]), c64("axs", [1])], ["re"])
    im = n("Slice", [spec, c64("s1", [bins]), c64("e1", [n_fft + 2]), c64("axs2", [1])], ["im"])
    mag = n("Sqrt", [n("Add", [n("Mul", [re, re], ["re2"]), n("Mul", [im, im], ["im2"])], ["pw"])], ["mag"])
    chans = [(bins, 128, 1), (128, 64, 2), (64, 64, 2), (64, 128, 1)]
    y = mag
    for i, (ci, co, s) in enumerate(chans):
        y = n("Conv", [y, w(f"enc{i}_w", [co, ci, 3]), w(f"enc{i}_b", [co])], [f"enc{i}"], pads=[1, 1], strides=[s])
        y = n("Relu", [y], [f"enc{i}_relu"])
    seq = n("Transpose", [y], ["seq"], perm=[2, 0, 1])                       # [T, 1, 128]
    lstm = [f"{tag}_Y", f"{tag}_hn", f"{tag}_cn"]
    nodes.append(h.make_node("LSTM", [seq, w("lstm_W", [1, 256, 128]), w("lstm_R", [1, 256, 64]), w("lstm_B", [1, 512]),
                                      "", "h", "c"], lstm, name=f"{tag}_LSTM", hidden_size=64))
    y = n("Squeeze", [lstm[0], c64("ax1b", [1])], ["Ys"])                    # [T, 1, 64]
    y = n("Relu", [n("Transpose", [y], ["Yt"], perm=[1, 2, 0])], ["dec_relu"])  # [1, 64, T]
    y = n("Sigmoid", [n("Conv", [y, w("dec_w", [1, 64, 1]), w("dec_b", [1])], ["dec"])], ["prob"])
    if opset >= 18:
        out = n("ReduceMean", [y, c64("ax2", [2])], ["out"], keepdims=0)
    else:
        out = n("ReduceMean", [y], ["out"], axes=[2], keepdims=0)           # [1, 1]
    nodes.append(h.make_node("Identity", [lstm[1]], [f"{tag}_hn_out"], name=f"{tag}_hn_id"))
    nodes.append(h.make_node("Identity", [lstm[2]], [f"{tag}_cn_out"], name=f"{tag}_cn_id"))
    outs = [h.make_tensor_value_info(o, T.FLOAT, None) for o in (out, f"{tag}_hn_out", f"{tag}_cn_out")]
    return h.make_graph(nodes, tag, [], outs), inits


def silero_like(opset):
    then_g, then_w = vad_branch("sr16k", 256, 128, opset)
    else_g, else_w = vad_branch("sr8k", 128, 64, opset)
    nodes = [h.make_node("Equal", ["sr", "k16000"], ["is16k"], name="Equal_sr"),
             h.make_node("If", ["is16k"], ["output", "hn", "cn"], name="If_sr", then_branch=then_g, else_branch=else_g)]
    ins = [h.make_tensor_value_info("input", T.FLOAT, [1, 512]), h.make_tensor_value_info("sr", T.INT64, []),
           h.make_tensor_value_info("h", T.FLOAT, [1, 1, 64]), h.make_tensor_value_info("c", T.FLOAT, [1, 1, 64])]
    outs = [h.make_tensor_value_info("output", T.FLOAT, [1, 1]), h.make_tensor_value_info("hn", T.FLOAT, [1, 1, 64]),
            h.make_tensor_value_info("cn", T.FLOAT, [1, 1, 64])]
    g = h.make_graph(nodes, "silero_like", ins, outs, [h.make_tensor("k16000", T.INT64, [], [16000])] + then_w + else_w)
    return h.make_model(g, opset_imports=[h.make_opsetid("", opset)])


# --- the list -------------------------------------------------------------------------------------

def image(size=224, channels=3):
    return (torch.randn(1, channels, size, size),)


def tv(name, **kw):
    return lambda: getattr(tvm, name)(weights=None, **kw)


class DetectionBoxes(nn.Module):
    """torchvision's detectors return a list of dicts; a user exports the boxes and scores."""

    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, x):
        r = self.model(x)[0]
        return r["boxes"], r["scores"]


class DetectionHeadOutputs(nn.Module):
    """The detector without its data-dependent post-processing (score threshold, top-k, NMS), as
    `stream` asks for it: backbone and head, returning the raw box regressions and class logits."""

    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, x):
        out = self.model.head(list(self.model.backbone(x).values()))
        return out["bbox_regression"], out["cls_logits"]


def specs():
    m = {}
    for name in ("shufflenet_v2_x1_0", "shufflenet_v2_x2_0", "maxvit_t", "swin_t", "swin_v2_t", "convnext_tiny",
                 "efficientnet_v2_s", "mnasnet1_0", "resnext50_32x4d", "wide_resnet50_2", "regnet_x_400mf",
                 "mobilenet_v3_large", "alexnet", "vit_b_16"):
        for opset in (13, 17):
            m[f"{name}_op{opset}"] = dict(make=tv(name), inputs=image(), opset=opset)
    for opset in (13, 17):
        m[f"fcn_resnet50_op{opset}"] = dict(
            make=lambda: SegmentationOut(seg.fcn_resnet50(weights=None, weights_backbone=None, aux_loss=False)),
            inputs=image(), opset=opset, output_names=["out"])
        m[f"llama_block_op{opset}"] = dict(make=TinyLlama, inputs=(torch.randint(0, 32000, (1, 128)),), opset=opset,
                                           input_names=["ids"], output_names=["logits"])
        m[f"silero_like_op{opset}"] = dict(onnx=lambda o=opset: silero_like(o), opset=opset)
        m[f"r3d_18_op{opset}"] = dict(make=lambda: video.r3d_18(weights=None), inputs=(torch.randn(1, 3, 16, 112, 112),),
                                      opset=opset)
    # A user who keeps the batch dynamic, as most deployment guides do.
    m["mobilenet_v3_large_dynbatch_op17"] = dict(make=tv("mobilenet_v3_large"), inputs=image(), opset=17,
                                                 input_names=["x"], output_names=["y"],
                                                 dynamic_axes={"x": {0: "batch"}, "y": {0: "batch"}})
    m["ssdlite320_mobilenet_v3_large_op17"] = dict(
        make=lambda: DetectionBoxes(det.ssdlite320_mobilenet_v3_large(weights=None, weights_backbone=None)),
        inputs=(torch.randn(1, 3, 320, 320),), opset=17)
    # Larger members of the families above: depth and width, not new operators.
    for name in ("densenet201", "vit_l_16", "efficientnet_b7", "convnext_base"):
        m[f"{name}_op17"] = dict(make=tv(name), inputs=image(), opset=17)
    m["ssdlite320_head_op17"] = dict(
        make=lambda: DetectionHeadOutputs(det.ssdlite320_mobilenet_v3_large(weights=None, weights_backbone=None)),
        inputs=(torch.randn(1, 3, 320, 320),), opset=17)
    return m


def zero_symbolic(g, self):
    """torch 1.13's exporter has no aten::zero (Swin V2 zeroes the k bias with zero_()): x * 0."""
    return g.op("Mul", self, g.op("Constant", value_t=torch.tensor(0.0)))


def export(out_dir, name, spec, keep_weights=False):
    path = os.path.join(out_dir, name + ".onnx")
    if "onnx" in spec:
        model = spec["onnx"]()
        # The checker wants a value in every tensor: check a copy whose cleared weights are zeros.
        filled = onnx.ModelProto()
        filled.CopyFrom(model)
        for t in filled.graph.initializer:
            if t.data_type == T.FLOAT and not t.raw_data:
                t.raw_data = bytes(4 * numel(t))
        onnx.checker.check_model(filled, full_check=True)
        onnx.save(model, path)
        return path
    torch.manual_seed(0)
    model = spec["make"]().eval()
    if name.startswith("swin_v2"):
        torch.onnx.register_custom_op_symbolic("aten::zero", zero_symbolic, spec["opset"])
    torch.onnx.export(model, spec["inputs"], path, opset_version=spec["opset"], input_names=spec.get("input_names"),
                      output_names=spec.get("output_names"), dynamic_axes=spec.get("dynamic_axes"))
    full = onnx.load(path)
    if not keep_weights:
        strip_weights(full)
        onnx.save(full, path)
    return path


def main(argv):
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    out_dir, names = argv[0], argv[1:]
    os.makedirs(out_dir, exist_ok=True)
    all_specs = specs()
    failed = []
    for name in names or list(all_specs):
        try:
            export(out_dir, name, all_specs[name])
            print("exported", name, flush=True)
        except Exception as e:  # keep going: one exporter failure must not hide the others
            print("FAILED", name, type(e).__name__, (str(e).splitlines() or [""])[0], file=sys.stderr, flush=True)
            failed.append(name)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
