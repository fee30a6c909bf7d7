#!/usr/bin/python3
"""Exports real PyTorch models with torch.onnx.export, as a new user would bring them, and keeps
only their structure: every initializer's data is cleared (names, dtypes and shapes stay), except
small int64 initializers (<= 64 elements), which are the shape constants the frontend reads.
Constant nodes keep their int64 values and small (<= 64 element) values of any type; larger
floating-point Constant values are cleared like weights.

Run with Debian's python3 (torch 1.13, torchvision 0.14, onnx 1.12):
    /usr/bin/python3 inputs/workload/exported/export_models.py            # every model
    /usr/bin/python3 inputs/workload/exported/export_models.py resnet18_op13 vit_op17
It writes <name>.onnx and README.md beside this script. Weights are random (seed 0), every model
is in eval mode with batch 1 and a small input, so the graphs keep their full structure while the
tests stay small.
"""
import os
import sys

import onnx
import torch
import torch.nn as nn
import torch.nn.functional as F
import torchvision.models as tvm
import torchvision.models.segmentation as seg

HERE = os.path.dirname(os.path.abspath(__file__))
KEEP_INT64_ELEMENTS = 64
DATA_FIELDS = ("float_data", "double_data", "int32_data", "int64_data", "uint64_data", "raw_data", "string_data")


# --- models that torchvision does not provide -------------------------------------------------

class GptBlock(nn.Module):
    """A GPT-2 style pre-LN block: causal self-attention (mask sliced from a buffer by the
    sequence length, applied with masked_fill) and a GELU MLP; returns its K and V as the cache."""

    def __init__(self, d, heads, max_seq):
        super().__init__()
        self.heads = heads
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.qkv, self.proj = nn.Linear(d, 3 * d), nn.Linear(d, d)
        self.fc, self.out = nn.Linear(d, 4 * d), nn.Linear(4 * d, d)
        self.register_buffer("mask", torch.tril(torch.ones(max_seq, max_seq)).view(1, 1, max_seq, max_seq))

    def forward(self, x):
        b, t, d = x.shape
        q, k, v = self.qkv(self.ln1(x)).split(d, dim=2)
        q, k, v = (y.view(b, t, self.heads, d // self.heads).transpose(1, 2) for y in (q, k, v))
        att = (q @ k.transpose(-2, -1)) * (1.0 / (d // self.heads) ** 0.5)
        att = att.masked_fill(self.mask[:, :, :t, :t] == 0, float("-inf"))
        y = (F.softmax(att, dim=-1) @ v).transpose(1, 2).contiguous().view(b, t, d)
        x = x + self.proj(y)
        x = x + self.out(F.gelu(self.fc(self.ln2(x))))
        return x, k, v


class TinyGpt(nn.Module):
    def __init__(self, vocab=256, d=64, heads=4, layers=2, max_seq=32):
        super().__init__()
        self.tok, self.pos = nn.Embedding(vocab, d), nn.Embedding(max_seq, d)
        self.blocks = nn.ModuleList(GptBlock(d, heads, max_seq) for _ in range(layers))
        self.ln, self.head = nn.LayerNorm(d), nn.Linear(d, vocab, bias=False)

    def forward(self, ids):
        pos = torch.arange(ids.shape[1], device=ids.device).unsqueeze(0)
        x = self.tok(ids) + self.pos(pos)
        present = []
        for blk in self.blocks:
            x, k, v = blk(x)
            present.append(torch.stack((k, v)))
        return self.head(self.ln(x)), torch.stack(present)


class TransformerDecoderModel(nn.Module):
    """nn.TransformerDecoder over a target with a causal mask and an encoder memory."""

    def __init__(self, d=64, heads=4, layers=2, seq=16):
        super().__init__()
        layer = nn.TransformerDecoderLayer(d, heads, dim_feedforward=128, batch_first=True)
        self.dec = nn.TransformerDecoder(layer, layers)
        self.register_buffer("causal", nn.Transformer.generate_square_subsequent_mask(seq))

    def forward(self, tgt, memory):
        return self.dec(tgt, memory, tgt_mask=self.causal)


class RecurrentModel(nn.Module):
    def __init__(self, cell, inputs=32, hidden=64, layers=2, classes=10):
        super().__init__()
        self.rnn = cell(inputs, hidden, num_layers=layers, batch_first=True)
        self.fc = nn.Linear(hidden, classes)

    def forward(self, x):
        y, _ = self.rnn(x)
        return self.fc(y[:, -1])


def conv_block(cin, cout):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, padding=1), nn.BatchNorm2d(cout), nn.ReLU(inplace=True),
                         nn.Conv2d(cout, cout, 3, padding=1), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class TinyUNet(nn.Module):
    """Two-level UNet: MaxPool down, ConvTranspose up on one skip, bilinear Upsample (Resize) on
    the other, skip Concats, and a nearest Upsample of the logits."""

    def __init__(self, cin=3, classes=2, w=16):
        super().__init__()
        self.e1, self.e2, self.mid = conv_block(cin, w), conv_block(w, 2 * w), conv_block(2 * w, 4 * w)
        self.up2 = nn.ConvTranspose2d(4 * w, 2 * w, 2, stride=2)
        self.d2 = conv_block(4 * w, 2 * w)
        self.up1 = nn.Upsample(scale_factor=2, mode="bilinear", align_corners=False)
        self.d1 = conv_block(2 * w + w, w)
        self.head = nn.Conv2d(w, classes, 1)

    def forward(self, x):
        e1 = self.e1(x)
        e2 = self.e2(F.max_pool2d(e1, 2))
        m = self.mid(F.max_pool2d(e2, 2))
        d2 = self.d2(torch.cat((self.up2(m), e2), 1))
        d1 = self.d1(torch.cat((self.up1(d2), e1), 1))
        return F.interpolate(self.head(d1), scale_factor=2, mode="nearest")


class SuperResolution(nn.Module):
    """The sub-pixel CNN of PyTorch's super-resolution ONNX tutorial (PixelShuffle ->
    DepthToSpace)."""

    def __init__(self, upscale=3):
        super().__init__()
        self.conv1, self.conv2 = nn.Conv2d(1, 64, 5, padding=2), nn.Conv2d(64, 64, 3, padding=1)
        self.conv3, self.conv4 = nn.Conv2d(64, 32, 3, padding=1), nn.Conv2d(32, upscale ** 2, 3, padding=1)
        self.shuffle = nn.PixelShuffle(upscale)

    def forward(self, x):
        x = F.relu(self.conv3(F.relu(self.conv2(F.relu(self.conv1(x))))))
        return self.shuffle(self.conv4(x))


class SegmentationOut(nn.Module):
    """torchvision's segmentation models return a dict; the user exports its "out" tensor."""

    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, x):
        return self.model(x)["out"]


def encoder():
    layer = nn.TransformerEncoderLayer(64, 4, dim_feedforward=128, batch_first=True)
    return nn.TransformerEncoder(layer, 2)


def vit():
    return tvm.VisionTransformer(image_size=32, patch_size=8, num_layers=2, num_heads=4, hidden_dim=64, mlp_dim=128,
                                 num_classes=10)


def swin():
    return tvm.SwinTransformer(patch_size=[4, 4], embed_dim=32, depths=[2, 2], num_heads=[2, 4], window_size=[4, 4],
                               num_classes=10)


def image(size, channels=3):
    return (torch.randn(1, channels, size, size),)


# --- the fixtures: name -> (source description, constructor, example inputs, opset, extras) ---------

ENCODER_AXES = {"src": {0: "batch", 1: "seq"}, "out": {0: "batch", 1: "seq"}}


def models():
    m = {}

    def add(name, source, make, inputs, opset, **extra):
        m[name] = dict(source=source, make=make, inputs=inputs, opset=opset, **extra)

    add("resnet18_op13", "torchvision resnet18, 64x64", tvm.resnet18, image(64), 13)
    add("resnet18_op17", "torchvision resnet18, 64x64", tvm.resnet18, image(64), 17)
    add("resnet50_op17", "torchvision resnet50, 64x64", tvm.resnet50, image(64), 17)
    add("mobilenet_v2_op13", "torchvision mobilenet_v2, 64x64", tvm.mobilenet_v2, image(64), 13)
    add("mobilenet_v2_op17", "torchvision mobilenet_v2, 64x64", tvm.mobilenet_v2, image(64), 17)
    add("mobilenet_v3_small_op13", "torchvision mobilenet_v3_small, 64x64", tvm.mobilenet_v3_small, image(64), 13)
    add("mobilenet_v3_small_op17", "torchvision mobilenet_v3_small, 64x64", tvm.mobilenet_v3_small, image(64), 17)
    add("densenet121_op13", "torchvision densenet121, 64x64", tvm.densenet121, image(64), 13)
    add("inception_v3_op13", "torchvision inception_v3(aux_logits=False, init_weights=False), 96x96",
        lambda: tvm.inception_v3(aux_logits=False, init_weights=False), image(96), 13)
    add("googlenet_op13", "torchvision googlenet(aux_logits=False, init_weights=False), 64x64",
        lambda: tvm.googlenet(aux_logits=False, init_weights=False), image(64), 13)
    add("shufflenet_v2_x0_5_op17", "torchvision shufflenet_v2_x0_5, 64x64", tvm.shufflenet_v2_x0_5, image(64), 17)
    add("regnet_y_400mf_op13", "torchvision regnet_y_400mf, 64x64", tvm.regnet_y_400mf, image(64), 13)
    add("efficientnet_b0_op17", "torchvision efficientnet_b0, 64x64", tvm.efficientnet_b0, image(64), 17)
    add("squeezenet1_0_op13", "torchvision squeezenet1_0, 64x64", tvm.squeezenet1_0, image(64), 13)
    # VGG's AdaptiveAvgPool2d(7) exports only when 7 divides the feature map: 224 / 32 = 7.
    add("vgg11_op13", "torchvision vgg11, 224x224 (its 7x7 adaptive pool needs 224)", tvm.vgg11, image(224), 13)
    add("deeplabv3_mobilenet_v3_large_op13", "torchvision deeplabv3_mobilenet_v3_large(aux_loss=False), 64x64, output 'out'",
        lambda: SegmentationOut(seg.deeplabv3_mobilenet_v3_large(weights=None, weights_backbone=None, aux_loss=False)),
        image(64), 13)
    add("lraspp_mobilenet_v3_large_op17", "torchvision lraspp_mobilenet_v3_large, 64x64, output 'out'",
        lambda: SegmentationOut(seg.lraspp_mobilenet_v3_large(weights=None, weights_backbone=None)), image(64), 17)
    enc_in = (torch.randn(1, 16, 64),)
    add("transformer_encoder_op13", "nn.TransformerEncoder, 2 layers, d=64, 4 heads, ff 128, seq 16; batch and seq symbolic",
        encoder, enc_in, 13, input_names=["src"], output_names=["out"], dynamic_axes=ENCODER_AXES)
    add("transformer_encoder_op17", "nn.TransformerEncoder, 2 layers, d=64, 4 heads, ff 128, seq 16; batch and seq symbolic",
        encoder, enc_in, 17, input_names=["src"], output_names=["out"], dynamic_axes=ENCODER_AXES)
    add("transformer_encoder_static_op17", "nn.TransformerEncoder, 2 layers, d=64, 4 heads, ff 128, seq 16; static shapes",
        encoder, enc_in, 17, input_names=["src"], output_names=["out"])
    add("transformer_decoder_op17", "nn.TransformerDecoder, 2 layers, d=64, 4 heads, ff 128, tgt 16 with causal mask, memory 16",
        TransformerDecoderModel, (torch.randn(1, 16, 64), torch.randn(1, 16, 64)), 17,
        input_names=["tgt", "memory"], output_names=["out"])
    # The optimizer benchmark's (issue 39) decoder: the same layers, twice as deep.
    add("transformer_decoder_4l_op17", "nn.TransformerDecoder, 4 layers, d=64, 4 heads, ff 128, tgt 16 with causal mask, memory 16",
        lambda: TransformerDecoderModel(layers=4), (torch.randn(1, 16, 64), torch.randn(1, 16, 64)), 17,
        input_names=["tgt", "memory"], output_names=["out"])
    add("gpt_kv_op13", "GPT-style decoder: 2 pre-LN blocks, d=64, 4 heads, vocab 256, seq 16, causal mask; logits and KV cache",
        TinyGpt, (torch.randint(0, 256, (1, 16)),), 13, input_names=["ids"], output_names=["logits", "present"])
    add("gpt_kv_op17", "GPT-style decoder: 2 pre-LN blocks, d=64, 4 heads, vocab 256, seq 16, causal mask; logits and KV cache",
        TinyGpt, (torch.randint(0, 256, (1, 16)),), 17, input_names=["ids"], output_names=["logits", "present"])
    add("vit_op13", "torchvision VisionTransformer: image 32, patch 8, 2 layers, hidden 64, 4 heads, mlp 128", vit, image(32), 13)
    add("vit_op17", "torchvision VisionTransformer: image 32, patch 8, 2 layers, hidden 64, 4 heads, mlp 128", vit, image(32), 17)
    add("swin_op17", "torchvision SwinTransformer: patch 4, embed 32, depths [2,2], heads [2,4], window 4, 64x64",
        swin, image(64), 17)
    add("lstm_op13", "nn.LSTM(32, 64, 2 layers) over 16 steps + Linear on the last step",
        lambda: RecurrentModel(nn.LSTM), (torch.randn(1, 16, 32),), 13)
    add("gru_op13", "nn.GRU(32, 64, 2 layers) over 16 steps + Linear on the last step",
        lambda: RecurrentModel(nn.GRU), (torch.randn(1, 16, 32),), 13)
    add("unet_op13", "two-level UNet: ConvTranspose, bilinear Upsample, skip Concats, nearest interpolate; 64x64",
        TinyUNet, image(64), 13)
    add("super_resolution_op13", "sub-pixel CNN of PyTorch's ONNX tutorial, PixelShuffle(3); 1x64x64",
        SuperResolution, image(64, 1), 13)
    return m


# --- clearing the weights -------------------------------------------------------------------------

def numel(t):
    n = 1
    for d in t.dims:
        n *= d
    return n


def clear(t):
    for f in DATA_FIELDS:
        t.ClearField(f)


def strip_weights(model):
    for t in model.graph.initializer:
        if not (t.data_type == onnx.TensorProto.INT64 and numel(t) <= KEEP_INT64_ELEMENTS):
            clear(t)
    for n in model.graph.node:
        if n.op_type != "Constant":
            continue
        for a in n.attribute:
            if a.name == "value" and a.t.data_type != onnx.TensorProto.INT64 and numel(a.t) > KEEP_INT64_ELEMENTS:
                clear(a.t)


def export(name, spec):
    torch.manual_seed(0)
    model = spec["make"]().eval()
    path = os.path.join(HERE, name + ".onnx")
    # Not under torch.no_grad(): with grad disabled, eval-mode nn.TransformerEncoderLayer and
    # nn.MultiheadAttention take their fused fast path, which has no ONNX export.
    torch.onnx.export(model, spec["inputs"], path, opset_version=spec["opset"], input_names=spec.get("input_names"),
                      output_names=spec.get("output_names"), dynamic_axes=spec.get("dynamic_axes"))
    full = onnx.load(path)
    # The checker demands a value in every tensor, so it checks the exporter's output with its
    # weights; strict shape inference then shows the cleared model still infers every shape.
    onnx.checker.check_model(full, full_check=True)
    strip_weights(full)
    onnx.shape_inference.infer_shapes(full, check_type=True, strict_mode=True)
    onnx.save(full, path)


def op_counts(model):
    counts = {}
    for n in model.graph.node:
        counts[n.op_type] = counts.get(n.op_type, 0) + 1
    return counts


README_HEAD = """# Genuine PyTorch exporter output

Each file is a real model exported by `torch.onnx.export` (torch 1.13, torchvision 0.14, onnx
1.12), as a new user brings it, with its weights cleared: initializers keep name, dtype and shape;
only int64 initializers of at most 64 elements (shape constants the frontend reads) keep their
values. Constant nodes keep int64 and small values; larger floating-point ones are cleared. Random
weights (seed 0), eval mode, batch 1, small inputs; the structure is the model's own.

Regenerate everything (writes the .onnx files and this README):

    /usr/bin/python3 inputs/workload/exported/export_models.py

or a single file: `/usr/bin/python3 inputs/workload/exported/export_models.py <name>`.
The onnx checker (full check) runs on each export before its weights are cleared; strict shape
inference runs on the cleared model. `SURVEY.md` records what `stream run` does with each file
(`tests/pipeline/scenarios/exported_models_test.cpp` reruns it and prints the rows).

| file | source model | opset | nodes | Conv | Gemm | MatMul | size (bytes) |
|---|---|---|---|---|---|---|---|
"""

README_TAIL = """
Two smaller exports used by the frontend's shape tests (`tests/plugins/onnx-frontend/static_shapes_test.cpp`), written by
`gen_exports.py` (`/usr/bin/python3 inputs/workload/exported/gen_exports.py`): `vit_tiny.onnx`
(a ViT with a dynamic batch, class-token Expand from `Shape`) and `swin_window.onnx` (a Swin window
partition whose Pad comes from `(window - H % window) % window`).
"""


def write_readme(specs):
    rows = []
    for name, spec in specs.items():
        path = os.path.join(HERE, name + ".onnx")
        if not os.path.exists(path):
            continue
        c = op_counts(onnx.load(path))
        rows.append(f"| `{name}.onnx` | {spec['source']} | {spec['opset']} | {sum(c.values())} | {c.get('Conv', 0)} "
                    f"| {c.get('Gemm', 0)} | {c.get('MatMul', 0)} | {os.path.getsize(path)} |")
    with open(os.path.join(HERE, "README.md"), "w") as f:
        f.write(README_HEAD + "\n".join(rows) + "\n" + README_TAIL)


def main(argv):
    specs = models()
    names = argv or list(specs)
    failed = []
    for name in names:
        try:
            export(name, specs[name])
            print("exported", name)
        except Exception as e:  # keep going: one model's exporter failure must not hide the others
            print("FAILED", name, type(e).__name__, str(e).splitlines()[0] if str(e) else "", file=sys.stderr)
            failed.append(name)
    write_readme(specs)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
