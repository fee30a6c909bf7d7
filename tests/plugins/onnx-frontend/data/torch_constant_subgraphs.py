# Regenerates torch_llama_block.onnx and torch_swin_window.onnx with Debian's PyTorch 1.13 exporter
# (/usr/bin/python3), float weights cleared. Both compute part of their work from constants alone,
# which the ONNX frontend evaluates at load time (plugins/onnx-frontend/src/constant_subgraphs.hpp):
#  - a LLaMA-style attention block: grouped-query attention (k and v repeated by repeat_kv's
#    expand + reshape, an Expand whose shape is a Where/Equal/ConstantOfShape chain) and rotary
#    embeddings (cos/sin tables from arange (x) inv_freq through Einsum, Concat, Cos, Sin);
#  - Swin v1 window attention: the relative-position index is int64 arithmetic over constants
#    (meshgrid, flatten, subtract, in-place adds and a multiply exported as ScatterND, ReduceSum),
#    and the bias is gathered from its table by that index.
import onnx
import torch
import torch.nn as nn


class Rotary(nn.Module):
    def __init__(self, dim, base=10000):
        super().__init__()
        self.register_buffer("inv_freq", 1.0 / (base ** (torch.arange(0, dim, 2).float() / dim)))

    def forward(self, seq_len):
        t = torch.arange(seq_len, dtype=self.inv_freq.dtype)
        freqs = torch.einsum("i,j->ij", t, self.inv_freq)
        emb = torch.cat((freqs, freqs), dim=-1)
        return emb.cos()[None, None, :, :], emb.sin()[None, None, :, :]


def rotate_half(x):
    x1 = x[..., : x.shape[-1] // 2]
    x2 = x[..., x.shape[-1] // 2 :]
    return torch.cat((-x2, x1), dim=-1)


def repeat_kv(h, n_rep):
    b, kvh, slen, hd = h.shape
    h = h[:, :, None, :, :].expand(b, kvh, n_rep, slen, hd)
    return h.reshape(b, kvh * n_rep, slen, hd)


class LlamaAttention(nn.Module):
    def __init__(self, hidden=64, heads=4, kv_heads=2):
        super().__init__()
        self.h, self.kvh, self.hd = heads, kv_heads, hidden // heads
        self.q = nn.Linear(hidden, heads * self.hd, bias=False)
        self.k = nn.Linear(hidden, kv_heads * self.hd, bias=False)
        self.v = nn.Linear(hidden, kv_heads * self.hd, bias=False)
        self.o = nn.Linear(hidden, hidden, bias=False)
        self.rot = Rotary(self.hd)

    def forward(self, x):
        b, n, _ = x.shape
        q = self.q(x).view(b, n, self.h, self.hd).transpose(1, 2)
        k = self.k(x).view(b, n, self.kvh, self.hd).transpose(1, 2)
        v = self.v(x).view(b, n, self.kvh, self.hd).transpose(1, 2)
        cos, sin = self.rot(seq_len=n)
        q = q * cos + rotate_half(q) * sin
        k = k * cos + rotate_half(k) * sin
        k = repeat_kv(k, self.h // self.kvh)
        v = repeat_kv(v, self.h // self.kvh)
        a = torch.softmax(q @ k.transpose(2, 3) / (self.hd**0.5), dim=-1)
        return self.o((a @ v).transpose(1, 2).reshape(b, n, -1))


class SwinWindowAttention(nn.Module):
    def __init__(self, dim=32, window=4, heads=2):
        super().__init__()
        self.window, self.heads, self.hd = window, heads, dim // heads
        self.table = nn.Parameter(torch.randn((2 * window - 1) * (2 * window - 1), heads))
        self.qkv = nn.Linear(dim, dim * 3)

    def forward(self, x):
        w = self.window
        coords = torch.stack(torch.meshgrid([torch.arange(w), torch.arange(w)], indexing="ij"))
        flat = torch.flatten(coords, 1)
        rel = (flat[:, :, None] - flat[:, None, :]).permute(1, 2, 0).contiguous()
        rel[:, :, 0] += w - 1
        rel[:, :, 1] += w - 1
        rel[:, :, 0] *= 2 * w - 1
        index = rel.sum(-1)
        bias = self.table[index.view(-1)].view(w * w, w * w, -1).permute(2, 0, 1).contiguous()
        B, N, C = x.shape
        qkv = self.qkv(x).reshape(B, N, 3, self.heads, self.hd).permute(2, 0, 3, 1, 4)
        q, k, v = qkv[0], qkv[1], qkv[2]
        a = (q @ k.transpose(-2, -1)) + bias.unsqueeze(0)
        return (a.softmax(-1) @ v).transpose(1, 2).reshape(B, N, C)


def export(module, example, path):
    torch.onnx.export(module.eval(), example, path, opset_version=14, input_names=["x"], output_names=["y"])
    model = onnx.load(path)
    for t in model.graph.initializer:
        if t.data_type == onnx.TensorProto.FLOAT:
            t.ClearField("raw_data")
    onnx.save(model, path)


torch.manual_seed(0)
export(LlamaAttention(), torch.randn(1, 8, 64), "torch_llama_block.onnx")
export(SwinWindowAttention(), torch.randn(2, 16, 32), "torch_swin_window.onnx")
