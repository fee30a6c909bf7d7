"""Regenerates the genuine PyTorch-exporter fixtures of this folder (torch 1.13, onnx 1.12, as in
Debian: /usr/bin/python3 gen_exports.py). Float initializers are cleared (names, types and shapes
only), as the seed asks; the exporter's shape arithmetic (Shape -> Gather -> ... chains) is kept.

  vit_tiny.onnx   patch Conv, class token cls.expand(x.shape[0], -1, -1), one
                  nn.TransformerEncoderLayer (4 heads), Linear head; dynamic batch ("batch")
  swin_window.onnx  Swin's window Pad ((4 - W % 4) % 4) and window partition from the padded
                  shape, then a Linear (static [1, 7, 6, 8])
"""
import warnings

import onnx
import torch
import torch.nn as nn
import torch.nn.functional as F

warnings.filterwarnings("ignore")


class TinyViT(nn.Module):
    def __init__(self, d=32, heads=4):
        super().__init__()
        self.patch = nn.Conv2d(3, d, 4, 4)
        self.cls = nn.Parameter(torch.zeros(1, 1, d))
        self.pos = nn.Parameter(torch.zeros(1, 17, d))
        self.enc = nn.TransformerEncoderLayer(d, heads, 64, batch_first=True)
        self.head = nn.Linear(d, 10)

    def forward(self, x):
        x = self.patch(x).flatten(2).transpose(1, 2)
        x = torch.cat([self.cls.expand(x.shape[0], -1, -1), x], 1) + self.pos
        return self.head(self.enc(x)[:, 0])


class SwinWindow(nn.Module):
    def __init__(self, c=8, w=4):
        super().__init__()
        self.w = w
        self.lin = nn.Linear(c, 3 * c)

    def forward(self, x):
        B, H, W, C = x.shape
        x = F.pad(x, (0, 0, 0, (self.w - W % self.w) % self.w, 0, (self.w - H % self.w) % self.w))
        _, Hp, Wp, _ = x.shape
        x = x.view(B, Hp // self.w, self.w, Wp // self.w, self.w, C).permute(0, 1, 3, 2, 4, 5)
        return self.lin(x.reshape(-1, self.w * self.w, C))


def export(name, model, example, dynamic_axes=None):
    model.eval()
    torch.onnx.export(model, example, name, opset_version=14, input_names=["x"], dynamic_axes=dynamic_axes)
    m = onnx.load(name)
    for t in m.graph.initializer:
        if t.data_type == onnx.TensorProto.FLOAT:
            t.ClearField("raw_data")
            t.ClearField("float_data")
    onnx.save(m, name)


export("vit_tiny.onnx", TinyViT(), torch.zeros(2, 3, 16, 16), {"x": {0: "batch"}})
export("swin_window.onnx", SwinWindow(), torch.zeros(1, 7, 6, 8))
