# Regenerates torch_upsampling.onnx with Debian's PyTorch 1.13 exporter (/usr/bin/python3), weights
# cleared: a decoder with the upsampling operators PyTorch emits (nn.Upsample nearest and
# bilinear with and without align_corners -> Resize, ConvTranspose2d, PixelShuffle -> DepthToSpace CRD).
import onnx
import torch
import torch.nn as nn


class Decoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2d(3, 16, 3, padding=1)
        self.up1 = nn.Upsample(scale_factor=2, mode="nearest")
        self.up2 = nn.Upsample(scale_factor=2, mode="bilinear", align_corners=False)
        self.up3 = nn.Upsample(scale_factor=2, mode="bilinear", align_corners=True)
        self.ct = nn.ConvTranspose2d(16, 8, 4, stride=2, padding=1)
        self.ps = nn.PixelShuffle(2)
        self.c2 = nn.Conv2d(2, 4, 3, padding=1)

    def forward(self, x):
        y = self.c1(x)
        y = self.up1(y) + self.up2(y) + self.up3(y)
        return self.c2(self.ps(self.ct(y)))


torch.onnx.export(Decoder().eval(), torch.randn(1, 3, 16, 16), "torch_upsampling.onnx", opset_version=13)
model = onnx.load("torch_upsampling.onnx")
for t in model.graph.initializer:
    if t.data_type == onnx.TensorProto.FLOAT:
        t.ClearField("raw_data")
        t.ClearField("float_data")
onnx.save(model, "torch_upsampling.onnx")
