#!/usr/bin/python3
"""A MaxViT-like block stack in plain torch (torchvision 0.14 has no maxvit_t): per block, an
MBConv-like residual, a window (block) partition then a grid partition by view/permute/reshape,
multi-head attention inside each, an MLP after each; stages downsample with a strided conv.
Weights are cleared after export (the structure is what matters), as export_models.py does.

Its window attention made layout folding's refinements run without end (a one-block model: over
60 s and 1.2 GB before it was stopped); folding is now bounded (docs/plugin-author-guide.md).

    /usr/bin/python3 inputs/workload/exported/maxvit_like.py /tmp/maxvit_like.onnx 3 3 9 2
gives 2,141 ONNX nodes (blocks per stage 3, 3, 9, 2 on a 224x224 input; default 2 2 5 2)."""
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.heads = heads
        self.qkv, self.proj = nn.Linear(d, 3 * d), nn.Linear(d, d)

    def forward(self, x):  # [B', N, C]
        b, n, c = x.shape
        q, k, v = self.qkv(x).reshape(b, n, 3, self.heads, c // self.heads).permute(2, 0, 3, 1, 4)
        a = F.softmax((q @ k.transpose(-2, -1)) * (c // self.heads) ** -0.5, dim=-1)
        return self.proj((a @ v).transpose(1, 2).reshape(b, n, c))


def window_partition(x, p):  # [B, H, W, C] -> [B*H/p*W/p, p*p, C]
    b, h, w, c = x.shape
    x = x.view(b, h // p, p, w // p, p, c).permute(0, 1, 3, 2, 4, 5)
    return x.reshape(-1, p * p, c)


def window_reverse(x, p, b, h, w):
    c = x.shape[-1]
    x = x.view(b, h // p, w // p, p, p, c).permute(0, 1, 3, 2, 4, 5)
    return x.reshape(b, h, w, c)


def grid_partition(x, g):  # [B, H, W, C] -> [B*H/g*W/g, g*g, C]
    b, h, w, c = x.shape
    x = x.view(b, g, h // g, g, w // g, c).permute(0, 2, 4, 1, 3, 5)
    return x.reshape(-1, g * g, c)


def grid_reverse(x, g, b, h, w):
    c = x.shape[-1]
    x = x.view(b, h // g, w // g, g, g, c).permute(0, 3, 1, 4, 2, 5)
    return x.reshape(b, h, w, c)


class MaxVitBlock(nn.Module):
    def __init__(self, d, heads, p):
        super().__init__()
        self.p = p
        self.mb = nn.Sequential(nn.Conv2d(d, d, 1), nn.GELU(), nn.Conv2d(d, d, 3, padding=1, groups=d), nn.Conv2d(d, d, 1))
        self.ln1, self.ln2, self.ln3, self.ln4 = (nn.LayerNorm(d) for _ in range(4))
        self.block_attn, self.grid_attn = Attention(d, heads), Attention(d, heads)
        self.mlp1 = nn.Sequential(nn.Linear(d, 2 * d), nn.GELU(), nn.Linear(2 * d, d))
        self.mlp2 = nn.Sequential(nn.Linear(d, 2 * d), nn.GELU(), nn.Linear(2 * d, d))

    def forward(self, x):  # [B, C, H, W]
        x = x + self.mb(x)
        b, c, h, w = x.shape
        y = x.permute(0, 2, 3, 1)
        y = y + window_reverse(self.block_attn(window_partition(self.ln1(y), self.p)), self.p, b, h, w)
        y = y + self.mlp1(self.ln2(y))
        y = y + grid_reverse(self.grid_attn(grid_partition(self.ln3(y), self.p)), self.p, b, h, w)
        y = y + self.mlp2(self.ln4(y))
        return y.permute(0, 3, 1, 2)


class MaxVitLike(nn.Module):
    def __init__(self, blocks=(2, 2, 5, 2), dims=(64, 128, 256, 512), p=7, size=224):
        super().__init__()
        self.stem = nn.Conv2d(3, dims[0], 3, stride=2, padding=1)
        layers, cin = [], dims[0]
        for n, d in zip(blocks, dims):
            layers.append(nn.Conv2d(cin, d, 3, stride=2, padding=1))
            layers += [MaxVitBlock(d, d // 32, p) for _ in range(n)]
            cin = d
        self.stages = nn.Sequential(*layers)
        self.head = nn.Linear(dims[len(blocks) - 1], 1000)

    def forward(self, x):
        return self.head(self.stages(self.stem(x)).mean(dim=(2, 3)))


def main():
    out = sys.argv[1]
    blocks = tuple(int(a) for a in sys.argv[2:]) or (2, 2, 5, 2)
    torch.manual_seed(0)
    m = MaxVitLike(blocks=blocks).eval()
    torch.onnx.export(m, torch.randn(1, 3, 224, 224), out, opset_version=17, input_names=["x"], output_names=["y"])
    import onnx
    model = onnx.load(out)
    strip(model)
    onnx.save(model, out)
    print(out, len(model.graph.node), "nodes")


def strip(model):
    """Clears every large initializer's data (the structure is what matters), as
    inputs/workload/exported/export_models.py does."""
    for t in model.graph.initializer:
        if t.data_type == 7 and len(t.dims) <= 1 and (not t.dims or t.dims[0] <= 64):
            continue
        for f in ("float_data", "double_data", "int32_data", "int64_data", "uint64_data", "raw_data"):
            t.ClearField(f)


if __name__ == "__main__":
    main()
