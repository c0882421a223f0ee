"""PyTorch's side of `grid-run bench train`: the fastest and the median milliseconds of one SGD training step.

Usage: python3 bench_train.py MODEL BATCH THREADS WARMUP STEPS [DEVICE]
Builds the same network as gridrun's model of that name (mlp 784-512-512-10, the seed's MNIST lenet5 with dropout
in train mode, the CIFAR resnets (resnet20, resnet32, resnet110, ...) with option-A shortcuts, torchvision's
resnet18/34/50 on 224x224x3 images of 1000 classes, the wide ResNets wrn-D-K with dropout 0.3 on 32x32x3, the vit
of patch 4, width 192, depth 6, 3 heads and MLP 768 on 32x32x3, the lstm language model on 64 x 30 tokens), times
forward + cross-entropy + backward + SGD momentum step on random data, and prints two lines: `ms_min <value>` and
`ms_median <value>`.

PyTorch gets its best eager configuration: THREADS intra-op threads (gridrun's CPU backend's count; the caller sets
OPENBLAS_NUM_THREADS and OMP_NUM_THREADS to it too), and, for image models, both memory formats (NCHW and
channels-last) timed, the one with the lower median reported. DEVICE is cpu (default) or cuda; on cuda also cuDNN's
autotuner on and TF32 off (gridrun computes in float32 unless its tf32 key is set), each step ending with a device
synchronisation.
"""
import statistics
import sys
import time

import torch
import torch.nn as nn
import torch.nn.functional as F


class Shortcut(nn.Module):
    """Option A: every second pixel, channels zero-padded equally on both sides."""

    def __init__(self, pad):
        super().__init__()
        self.pad = pad

    def forward(self, x):
        return F.pad(x[:, :, ::2, ::2], (0, 0, 0, 0, self.pad, self.pad))


class BasicBlock(nn.Module):
    def __init__(self, cin, cout, stride):
        super().__init__()
        self.conv1 = nn.Conv2d(cin, cout, 3, stride, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(cout)
        self.conv2 = nn.Conv2d(cout, cout, 3, 1, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(cout)
        self.shortcut = Shortcut((cout - cin) // 2) if stride != 1 or cin != cout else nn.Identity()

    def forward(self, x):
        h = F.relu(self.bn1(self.conv1(x)))
        return F.relu(self.bn2(self.conv2(h)) + self.shortcut(x))


def resnet(depth, classes=10):
    blocks = (depth - 2) // 6
    layers = [nn.Conv2d(3, 16, 3, 1, 1, bias=False), nn.BatchNorm2d(16), nn.ReLU()]
    cin = 16
    for stage, planes in enumerate((16, 32, 64)):
        for i in range(blocks):
            layers.append(BasicBlock(cin, planes, 2 if stage > 0 and i == 0 else 1))
            cin = planes
    layers += [nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(64, classes)]
    return nn.Sequential(*layers), (3, 32, 32), classes


class PreActBlock(nn.Module):
    """A wide ResNet block: BN-ReLU-conv3x3-BN-ReLU-dropout-conv3x3 plus the input, or plus a strided 1x1 conv of the
    pre-activated input where the shape changes; no ReLU after the sum."""

    def __init__(self, cin, cout, stride, dropout):
        super().__init__()
        self.bn1 = nn.BatchNorm2d(cin)
        self.conv1 = nn.Conv2d(cin, cout, 3, stride, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(cout)
        self.drop = nn.Dropout(dropout)
        self.conv2 = nn.Conv2d(cout, cout, 3, 1, 1, bias=False)
        self.project = None if stride == 1 and cin == cout else nn.Conv2d(cin, cout, 1, stride, 0, bias=False)

    def forward(self, x):
        a = F.relu(self.bn1(x))
        out = self.conv2(self.drop(F.relu(self.bn2(self.conv1(a)))))
        return out + (x if self.project is None else self.project(a))


def wide_resnet(depth, width, classes=10):
    blocks = (depth - 4) // 6
    layers = [nn.Conv2d(3, 16, 3, 1, 1, bias=False)]
    cin = 16
    for stage in range(3):
        cout = (16 << stage) * width
        for i in range(blocks):
            layers.append(PreActBlock(cin, cout, 2 if stage > 0 and i == 0 else 1, 0.3))
            cin = cout
    layers += [nn.BatchNorm2d(cin), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(cin, classes)]
    return nn.Sequential(*layers), (3, 32, 32), classes


def lenet5(classes=10):
    net = nn.Sequential(
        nn.Conv2d(1, 64, 5), nn.MaxPool2d(2), nn.ReLU(),
        nn.Conv2d(64, 128, 5), nn.Dropout2d(0.5), nn.MaxPool2d(2), nn.ReLU(),
        nn.Flatten(), nn.Linear(2048, 1000), nn.ReLU(), nn.Dropout(0.5), nn.Linear(1000, classes))
    return net, (1, 28, 28), classes


def mlp(classes=10):
    return nn.Sequential(nn.Linear(784, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU(),
                         nn.Linear(512, classes)), (784,), classes


class VitBlock(nn.Module):
    """A pre-norm transformer block: x + proj(attention(qkv(norm1(x)))), then x + fc2(gelu(fc1(norm2(x))))."""

    def __init__(self, dim, heads, mlp):
        super().__init__()
        self.heads = heads
        self.norm1 = nn.LayerNorm(dim)
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)
        self.norm2 = nn.LayerNorm(dim)
        self.fc1 = nn.Linear(dim, mlp)
        self.fc2 = nn.Linear(mlp, dim)

    def forward(self, x):
        b, t, d = x.shape
        q, k, v = self.qkv(self.norm1(x)).reshape(b, t, 3, self.heads, d // self.heads).permute(2, 0, 3, 1, 4)
        attention = torch.softmax(q @ k.transpose(-2, -1) * (d // self.heads) ** -0.5, dim=-1)
        x = x + self.proj((attention @ v).transpose(1, 2).reshape(b, t, d))
        return x + self.fc2(F.gelu(self.fc1(self.norm2(x))))


class Vit(nn.Module):
    """gridrun's vit: patch 4 on 32x32x3, width 192, depth 6, 3 heads, MLP 768, class token, learned positions."""

    def __init__(self, classes=10, patch=4, dim=192, depth=6, heads=3, mlp=768):
        super().__init__()
        self.embed = nn.Conv2d(3, dim, patch, patch)
        self.cls = nn.Parameter(torch.zeros(1, 1, dim))
        self.pos = nn.Parameter(torch.zeros(1, (32 // patch) ** 2 + 1, dim))
        self.blocks = nn.Sequential(*[VitBlock(dim, heads, mlp) for _ in range(depth)])
        self.norm = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, classes)

    def forward(self, x):
        x = self.embed(x).flatten(2).transpose(1, 2)
        x = torch.cat([self.cls.expand(x.shape[0], -1, -1), x], dim=1) + self.pos
        return self.head(self.norm(self.blocks(x)[:, 0]))


def build(name):
    """The model, the shape of one input and the number of classes."""
    if name == "mlp":
        return mlp()
    if name == "lenet5":
        return lenet5()
    if name in ("resnet18", "resnet34", "resnet50"):
        import torchvision
        return getattr(torchvision.models, name)(num_classes=1000), (3, 224, 224), 1000
    if name.startswith("resnet"):
        return resnet(int(name[len("resnet"):]))
    if name.startswith("wrn-"):
        depth, width = map(int, name[len("wrn-"):].split("-"))
        return wide_resnet(depth, width)
    if name == "vit":
        return Vit(), (3, 32, 32), 10
    raise SystemExit("unknown model " + name)


def timed(step, sync, warmup, steps, block):
    """(fastest, median) milliseconds a step, of steps runs of step in blocks of block after warmup untimed ones.

    Each block is timed until sync has waited for its work, and a step takes its block's time over block: on a GPU
    the host queues a step while the device runs the one before, as a training script that does not synchronise
    every step does (gridrun's StepTimes.measure times its own steps the same way)."""
    for _ in range(warmup):
        step()
    sync()
    times = []
    for _ in range(max(1, steps // block)):
        start = time.perf_counter()
        for _ in range(block):
            step()
        sync()
        times.append((time.perf_counter() - start) * 1e3 / block)
    return min(times), statistics.median(times)


def times_ms(name, batch, warmup, steps, device, channels_last, block):
    """(fastest, median) milliseconds of a training step."""
    torch.manual_seed(1)
    model, shape, classes = build(name)
    model = model.to(device)
    x = torch.randn(batch, *shape, device=device)
    if channels_last:
        model = model.to(memory_format=torch.channels_last)
        x = x.contiguous(memory_format=torch.channels_last)
    model.train()
    opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    y = torch.randint(0, classes, (batch,), device=device)
    sync = torch.cuda.synchronize if device == "cuda" else (lambda: None)

    def step():
        opt.zero_grad(set_to_none=True)
        F.cross_entropy(model(x), y).backward()
        opt.step()

    return timed(step, sync, warmup, steps, block)


class LstmLm(nn.Module):
    """PowerSGD's LSTM language model: embedding, 3 LSTM layers of 650, dropout 0.4, decoder tied to the embedding."""

    def __init__(self, vocabulary=33278, units=650, layers=3, dropout=0.4):
        super().__init__()
        self.drop = nn.Dropout(dropout)
        self.encoder = nn.Embedding(vocabulary, units)
        self.rnn = nn.LSTM(units, units, layers, dropout=dropout)
        self.decoder = nn.Linear(units, vocabulary)
        self.decoder.weight = self.encoder.weight

    def forward(self, ids, hidden):
        out, hidden = self.rnn(self.drop(self.encoder(ids)), hidden)
        return self.decoder(self.drop(out)), hidden


def lstm_times_ms(sequences, bptt, warmup, steps, device, block):
    """One truncated-BPTT step of the LSTM language model on a window of bptt x sequences tokens."""
    torch.manual_seed(1)
    model = LstmLm().to(device)
    model.train()
    opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    x = torch.randint(0, 33278, (bptt, sequences), device=device)
    y = torch.randint(0, 33278, (bptt * sequences,), device=device)
    zeros = torch.zeros(3, sequences, 650, device=device)
    state = [(zeros, zeros)]
    sync = torch.cuda.synchronize if device == "cuda" else (lambda: None)

    def step():
        opt.zero_grad(set_to_none=True)
        hidden = tuple(h.detach() for h in state[0])
        logits, state[0] = model(x, hidden)
        F.cross_entropy(logits.view(-1, 33278), y).backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 0.25)
        opt.step()

    return timed(step, sync, warmup, steps, block)


def main():
    name, batch, threads, warmup, steps = sys.argv[1], *map(int, sys.argv[2:6])
    device = sys.argv[6] if len(sys.argv) > 6 else "cpu"
    block = int(sys.argv[7]) if len(sys.argv) > 7 else 1
    torch.set_num_threads(threads)
    if name == "lstm":
        fastest, median = lstm_times_ms(64, 30, warmup, steps, device, block)
        print("ms_min %.6f" % fastest)
        print("ms_median %.6f" % median)
        return
    if device == "cuda":
        torch.backends.cudnn.benchmark = True
        torch.backends.cudnn.allow_tf32 = False
        torch.backends.cuda.matmul.allow_tf32 = False
        warmup = max(warmup, 5)
    formats = [False, True] if len(build(name)[1]) == 3 else [False]
    fastest, median = min((times_ms(name, batch, warmup, steps, device, cl, block) for cl in formats),
                          key=lambda t: t[1])
    print("ms_min %.6f" % fastest)
    print("ms_median %.6f" % median)


if __name__ == "__main__":
    main()
