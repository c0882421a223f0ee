"""Reference loss and gradients of gridrun's models, computed by PyTorch from gridrun's own weights.

Usage: python3 torch_reference.py MODEL DIR
DIR holds layout.txt (one tensor per line: name and gridrun's shape), params.f32 (gridrun's flat parameters),
x.f32 (the batch, channels-last), y.f32 (class indices) and shape.txt (height width channels classes batch).
Writes loss.txt and grad.f32 (gradients in gridrun's flat layout).
"""
import math
import sys
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class SeedConvnet(nn.Module):
    """The seed's MNIST cnn, without dropout (masks are not comparable across frameworks)."""

    def __init__(self, channels, classes, flat):
        super().__init__()
        self.conv1 = nn.Conv2d(channels, 64, 5)
        self.conv2 = nn.Conv2d(64, 128, 5)
        self.fc1 = nn.Linear(flat, 1000)
        self.fc2 = nn.Linear(1000, classes)

    def forward(self, x):
        x = F.relu(F.max_pool2d(self.conv1(x), 2))
        x = F.relu(F.max_pool2d(self.conv2(x), 2))
        x = F.relu(self.fc1(x.flatten(1)))
        return self.fc2(x)


class Block(nn.Module):
    def __init__(self, cin, planes, stride):
        super().__init__()
        self.conv1 = nn.Conv2d(cin, planes, 3, stride, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(planes)
        self.conv2 = nn.Conv2d(planes, planes, 3, 1, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(planes)
        self.pad = (planes - cin) // 2 if stride != 1 or cin != planes else None
        self.stride = stride

    def forward(self, x):
        out = self.bn2(self.conv2(F.relu(self.bn1(self.conv1(x)))))
        if self.pad is None:
            short = x
        else:
            short = F.pad(x[:, :, ::self.stride, ::self.stride], (0, 0, 0, 0, self.pad, self.pad))
        return F.relu(out + short)


class CifarResNet(nn.Module):
    def __init__(self, depth, channels, classes):
        super().__init__()
        n = (depth - 2) // 6
        self.conv1 = nn.Conv2d(channels, 16, 3, 1, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(16)
        cin = 16
        for stage, planes in enumerate((16, 32, 64)):
            blocks = []
            for i in range(n):
                blocks.append(Block(cin, planes, 2 if stage > 0 and i == 0 else 1))
                cin = planes
            setattr(self, "layer%d" % (stage + 1), nn.Sequential(*blocks))
        self.linear = nn.Linear(64, classes)

    def forward(self, x):
        x = F.relu(self.bn1(self.conv1(x)))
        x = self.layer3(self.layer2(self.layer1(x)))
        return self.linear(F.adaptive_avg_pool2d(x, 1).flatten(1))


class PreActBlock(nn.Module):
    """A wide ResNet block with the seed's module names: bn1, conv1, bn2, conv2 and, when the shape changes,
    convShortcut, which then takes the pre-activated input; no dropout (masks are not comparable)."""

    def __init__(self, cin, planes, stride):
        super().__init__()
        self.bn1 = nn.BatchNorm2d(cin)
        self.conv1 = nn.Conv2d(cin, planes, 3, stride, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(planes)
        self.conv2 = nn.Conv2d(planes, planes, 3, 1, 1, bias=False)
        self.identity = stride == 1 and cin == planes
        if not self.identity:
            self.convShortcut = nn.Conv2d(cin, planes, 1, stride, 0, bias=False)

    def forward(self, x):
        a = F.relu(self.bn1(x))
        out = self.conv2(F.relu(self.bn2(self.conv1(a))))
        return out + (x if self.identity else self.convShortcut(a))


class Stage(nn.Module):
    def __init__(self, blocks):
        super().__init__()
        self.layer = nn.Sequential(*blocks)

    def forward(self, x):
        return self.layer(x)


class WideResNet(nn.Module):
    def __init__(self, depth, width, channels, classes):
        super().__init__()
        n = (depth - 4) // 6
        self.conv1 = nn.Conv2d(channels, 16, 3, 1, 1, bias=False)
        cin = 16
        for stage in range(3):
            planes = (16 << stage) * width
            blocks = []
            for i in range(n):
                blocks.append(PreActBlock(cin, planes, 2 if stage > 0 and i == 0 else 1))
                cin = planes
            setattr(self, "block%d" % (stage + 1), Stage(blocks))
        self.bn1 = nn.BatchNorm2d(cin)
        self.fc = nn.Linear(cin, classes)

    def forward(self, x):
        x = self.block3(self.block2(self.block1(self.conv1(x))))
        return self.fc(F.adaptive_avg_pool2d(F.relu(self.bn1(x)), 1).flatten(1))


class VitBlock(nn.Module):
    """A pre-norm transformer block written out with PyTorch's layers: x + proj(attention(qkv(norm1(x)))), then
    x + fc2(gelu(fc1(norm2(x)))), the attention spelled out (softmax(q k^T / sqrt(d)) v per head)."""

    def __init__(self, dim, heads, mlp):
        super().__init__()
        self.heads = heads
        self.norm1 = nn.LayerNorm(dim)
        self.attn = nn.Module()
        self.attn.qkv = nn.Linear(dim, 3 * dim)
        self.attn.proj = nn.Linear(dim, dim)
        self.norm2 = nn.LayerNorm(dim)
        self.mlp = nn.Module()
        self.mlp.fc1 = nn.Linear(dim, mlp)
        self.mlp.fc2 = nn.Linear(mlp, dim)

    def forward(self, x):
        b, t, d = x.shape
        qkv = self.attn.qkv(self.norm1(x)).reshape(b, t, 3, self.heads, d // self.heads)
        q, k, v = qkv.permute(2, 0, 3, 1, 4)
        weights = torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(d // self.heads), dim=-1)
        heads = (weights @ v).transpose(1, 2).reshape(b, t, d)
        x = x + self.attn.proj(heads)
        return x + self.mlp.fc2(F.gelu(self.mlp.fc1(self.norm2(x))))


class Vit(nn.Module):
    """A ViT with a class token and learned positions; gridrun's names, pos_embed stored [tokens, dim]."""

    def __init__(self, image, channels, classes, patch, dim, depth, heads, mlp):
        super().__init__()
        self.patch_embed = nn.Module()
        self.patch_embed.proj = nn.Conv2d(channels, dim, patch, patch)
        self.cls_token = nn.Parameter(torch.zeros(dim))
        self.pos_embed = nn.Parameter(torch.zeros((image[0] // patch) * (image[1] // patch) + 1, dim))
        self.blocks = nn.Sequential(*[VitBlock(dim, heads, mlp) for _ in range(depth)])
        self.norm = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, classes)

    def forward(self, x):
        x = self.patch_embed.proj(x).flatten(2).transpose(1, 2)
        x = torch.cat([self.cls_token.expand(x.shape[0], 1, -1), x], dim=1) + self.pos_embed
        return self.head(self.norm(self.blocks(x)[:, 0]))


def build(model_name, height, width, channels, classes):
    """PyTorch's model for gridrun's name, and the (h, w, c) of a flattened fc1 input when it has one."""
    if model_name == "lenet5":
        h, w = ((height - 4) // 2 - 4) // 2, ((width - 4) // 2 - 4) // 2
        return SeedConvnet(channels, classes, h * w * 128), (h, w, 128)
    if model_name in ("resnet18", "resnet34", "resnet50"):
        import torchvision
        assert channels == 3, "torchvision's ResNets take 3 channels"
        return getattr(torchvision.models, model_name)(num_classes=classes), None
    if model_name.startswith("vit-"):
        patch, dim, depth, heads, mlp = map(int, model_name[len("vit-"):].split("-"))
        return Vit((height, width), channels, classes, patch, dim, depth, heads, mlp), None
    if model_name.startswith("wrn-"):
        depth, widen = map(int, model_name[len("wrn-"):].split("-"))
        return WideResNet(depth, widen, channels, classes), None
    return CifarResNet(int(model_name[len("resnet"):]), channels, classes), None


def to_torch(name, array, shape, flat_hwc):
    """gridrun's tensor (channels-last convs, HWC-flattened fc1) as PyTorch's."""
    t = torch.from_numpy(array.reshape(shape))
    if len(shape) == 4:
        return t.permute(0, 3, 1, 2).contiguous()
    if flat_hwc is not None and name == "fc1.weight":
        h, w, c = flat_hwc
        return t.reshape(shape[0], h, w, c).permute(0, 3, 1, 2).reshape(shape[0], -1).contiguous()
    return t


def to_gridrun(name, grad, shape, flat_hwc):
    if len(shape) == 4:
        return grad.permute(0, 2, 3, 1).contiguous()
    if flat_hwc is not None and name == "fc1.weight":
        h, w, c = flat_hwc
        return grad.reshape(shape[0], c, h, w).permute(0, 2, 3, 1).reshape(shape[0], -1).contiguous()
    return grad


def main():
    model_name, folder = sys.argv[1], sys.argv[2]
    height, width, channels, classes, batch = map(int, open(folder + "/shape.txt").read().split())
    torch.manual_seed(0)
    model, flat_hwc = build(model_name, height, width, channels, classes)
    model = model.double()
    layout = [line.split() for line in open(folder + "/layout.txt").read().splitlines()]
    params = np.fromfile(folder + "/params.f32", dtype="<f4").astype(np.float64)
    named = dict(model.named_parameters())
    offset = 0
    shapes = {}
    for name, dims in layout:
        shape = tuple(int(d) for d in dims.split("x"))
        size = int(np.prod(shape))
        shapes[name] = shape
        with torch.no_grad():
            named[name].copy_(to_torch(name, params[offset:offset + size], shape, flat_hwc))
        offset += size
    assert offset == len(params) and len(layout) == len(named), "layouts differ"
    x = np.fromfile(folder + "/x.f32", dtype="<f4").astype(np.float64).reshape(batch, height, width, channels)
    y = np.fromfile(folder + "/y.f32", dtype="<f4").astype(np.int64)
    model.train()
    loss = F.cross_entropy(model(torch.from_numpy(x).permute(0, 3, 1, 2)), torch.from_numpy(y))
    loss.backward()
    grads = [to_gridrun(name, named[name].grad, shapes[name], flat_hwc).reshape(-1) for name, _ in layout]
    torch.cat(grads).numpy().astype("<f4").tofile(folder + "/grad.f32")
    open(folder + "/loss.txt", "w").write(repr(loss.item()))


if __name__ == "__main__":
    main()
