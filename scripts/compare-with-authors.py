#!/usr/bin/env python3
"""Compares gridrun's compressors with what the authors' published code does, on real layer gradients.

Feeds the same gradient tensors to `grid-run compress` and to re-implementations, written for gridrun from reading the
authors' code (never copied), of:

  - SmaQ:    nimashoghi/smart-quantization, smart_compress/compress/smart.py, SmartFP.__call__
  - JointSQ: HaoweiLi778/JointSQ, communication_hook/hooks_JointSQ.py, correlation_state.get_top_x_indices,
             mckp_greedy, quantize and get_mask
  - DGC, AC-SGD, MCGQ: the same repository's communication_hook/hooks_DGC.py, hooks_acsgd.py, hooks_mcgq.py
  - ALQ, AMQ: Tabrizian/learning-to-quantize, nuq/quantize.py, alq, finite_diff_gradient_descent, amq_norm_less and
             QuantizeMultiBucket.update_levels; estim/dist.py for the variance of adjacent levels
  - PowerSGD: epfml/powersgd, paper-code/gradient_reducers.py RankKReducer (the paper's step, reuse_query) and
             powersgd/powersgd.py PowerSGD with BasicPowerSGD (the package: alternating half iterations)

and prints one table: for each method what the authors' code gives and what gridrun gives, with the bits each sends.
The gradients are those of an MLP (784-512-256-10) after 100 SGD steps and of a small conv net (32-64-128-128
channels, 3x3) after 60, on the first 6000 Fashion-MNIST training images (the subset gridrun ships), fixed seeds.
PowerSGD, which keeps state between steps, gets the MLP's first layer at 16 consecutive steps from there (one worker:
both sides depend on the workers' gradients only through their mean), through `grid-run compress` with one --input
per step.

    python3 scripts/compare-with-authors.py [--gridrun CMD] [--repeats R] [--out DIR] [--check]
    python3 scripts/compare-with-authors.py --train    # the MLP of grids/powersgd-gap.yaml, trained in torch with
                                                       # the authors' PowerSGD steps: both variants' accuracy

--gridrun is the command that runs gridrun's CLI (default: ./grid-run of this checkout); --check exits 1 unless
gridrun meets the targets of docs/compressors-vs-papers.md (SmaQ: error <= 1.2x the authors' at <= their bits + 1.5;
JointSQ: error <= 1.2x theirs at <= 2.5 wire bits per value; PowerSGD: the same bits each step and a mean error over the
warm steps within 10 % of theirs; ALQ/AMQ: a proxy no higher than theirs, and gridrun's
level_fit=authors within 5% of this re-implementation; DGC, AC-SGD, MCGQ: error <= 1.2x theirs at no more bits than
their code sends). Needs numpy and torch (CPU).
"""
import argparse
import gzip
import json
import math
import os
import re
import shlex
import struct
import subprocess
import sys
import tempfile

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SUBSET = os.path.join(ROOT, "engine/src/main/resources/org/gridrun/engine/data/fashion-mnist-subset")


# ---------------------------------------------------------------------------------------------------------------
# Real gradients


def read_idx(path):
    with gzip.open(path, "rb") as f:
        raw = f.read()
    dims = struct.unpack(">I", raw[:4])[0] & 0xFF
    sizes = struct.unpack(">" + "I" * dims, raw[4:4 + 4 * dims])
    return np.frombuffer(raw, np.uint8, offset=4 + 4 * dims).reshape(sizes)


class ConvNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2d(1, 32, 3, padding=1)
        self.c2 = nn.Conv2d(32, 64, 3, padding=1)
        self.c3 = nn.Conv2d(64, 128, 3, padding=1)
        self.c4 = nn.Conv2d(128, 128, 3, padding=1)
        self.fc = nn.Linear(128, 10)

    def forward(self, x):
        x = F.relu(self.c1(x))
        x = F.max_pool2d(F.relu(self.c2(x)), 2)
        x = F.max_pool2d(F.relu(self.c3(x)), 2)
        x = F.relu(self.c4(x))
        return self.fc(x.mean((2, 3)))


def train_and_take_gradient(model, x, y, steps, batch, lr, seed):
    """SGD with momentum for `steps` steps, then the gradient of one more minibatch (left in .grad)."""
    opt = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
    g = torch.Generator().manual_seed(seed)
    for s in range(steps + 1):
        i = torch.randint(0, len(x), (batch,), generator=g)
        loss = F.cross_entropy(model(x[i]), y[i])
        opt.zero_grad()
        loss.backward()
        if s < steps:
            opt.step()


def fashion(folder, part, count=None):
    """Fashion-MNIST's `part` (train or t10k) from `folder`: normalised images (N x 28 x 28) and labels."""
    images = read_idx(os.path.join(folder, part + "-images-idx3-ubyte.gz"))[:count]
    labels = read_idx(os.path.join(folder, part + "-labels-idx1-ubyte.gz"))[:count]
    return (torch.tensor(images, dtype=torch.float32) / 255 - 0.2860) / 0.3530, torch.tensor(labels.astype(np.int64))


def new_mlp():
    return nn.Sequential(nn.Flatten(), nn.Linear(784, 512), nn.ReLU(), nn.Linear(512, 256), nn.ReLU(),
                         nn.Linear(256, 10))


def gradients(out):
    """Writes fc.npy (MLP first layer, 512x784), conv3.npy (128x64x3x3) and conv4.npy (128x128x3x3)."""
    x, y = fashion(SUBSET, "train", 6000)
    torch.manual_seed(0)
    mlp = new_mlp()
    conv = ConvNet()
    train_and_take_gradient(mlp, x, y, 100, 64, 0.05, 1)
    train_and_take_gradient(conv, x.unsqueeze(1), y, 60, 32, 0.02, 1)
    files = {}
    for name, grad in (("fc", mlp[1].weight.grad), ("conv3", conv.c3.weight.grad), ("conv4", conv.c4.weight.grad)):
        files[name] = os.path.join(out, name + ".npy")
        np.save(files[name], grad.numpy().astype(np.float32))
    return files


def gradient_sequence(out, steps=16):
    """Writes fc_seq_00.npy ... : the MLP's first-layer gradient (512x784) at `steps` consecutive SGD steps, from
    the MLP of gradients() (the same after 100 steps)."""
    x, y = fashion(SUBSET, "train", 6000)
    torch.manual_seed(0)
    mlp = new_mlp()
    train_and_take_gradient(mlp, x, y, 100, 64, 0.05, 1)
    opt = torch.optim.SGD(mlp.parameters(), lr=0.05, momentum=0.9)
    g = torch.Generator().manual_seed(7)
    files = []
    for s in range(steps):
        if s > 0:
            i = torch.randint(0, len(x), (64,), generator=g)
            opt.zero_grad()
            F.cross_entropy(mlp(x[i]), y[i]).backward()
        files.append(os.path.join(out, "fc_seq_%02d.npy" % s))
        np.save(files[-1], mlp[1].weight.grad.numpy().astype(np.float32))
        opt.step()
    return files


# ---------------------------------------------------------------------------------------------------------------
# Measures: relative squared error (mean over repeats) and the bias estimate, as grid-run compress reports them


def measure(v, draws):
    """draws: list of decoded tensors of v. Returns (rel sq error, bias estimate)."""
    v = v.double()
    norm = float((v * v).sum())
    error = sum(float(((d.double() - v) ** 2).sum()) for d in draws) / len(draws) / norm
    mean = torch.stack([d.double() for d in draws]).mean(0)
    return error, float(((mean - v) ** 2).sum()) / norm


def stochastic_floor(t, gen):
    """floor(t) + 1 with probability frac(t): the authors' unbiased stochastic rounding."""
    f = torch.floor(t)
    return f + (torch.rand(t.shape, generator=gen) < (t - f)).float()


# ---------------------------------------------------------------------------------------------------------------
# The authors' methods, re-implemented from reading their code


def smaq_authors(x, gen):
    """smart.py SmartFP.__call__ with its defaults: 6 bits within 1 sd, 8 bits for outliers, range 2.5 sd (not
    applied: values past it are rounded on the outlier grid anyway), stochastic rounding, statistics of the whole
    tensor (torch's unbiased std). Its size log counts 6 or 8 bits per value, no header."""
    x = x.reshape(-1).float()
    mean, std = x.mean(), x.std()
    z = (x - mean) / std
    high, low = z > 1, z < -1
    outlier = high | low
    shift = low.float() - high.float()
    scale = torch.where(outlier, torch.tensor(63 / 1.5), torch.tensor(15.0))
    t = stochastic_floor((z + shift) * scale, gen)
    decoded = (t / scale - shift) * std + mean
    bits = 8 * int(outlier.sum()) + 6 * int((~outlier).sum())
    return decoded, bits


def jointsq_authors(x, gen, rate=0.032):
    """hooks_JointSQ.py for one 4-D tensor at its first step (no residual yet): mckp_greedy's items a^2 times
    [0, 15/32, 15/512, ~(1/256 - 1/65536)/4], get_top_x_indices with a 1% random sample, its adaptation and its
    truncation in position order, the cumulative-weight cut at the budget, then quantize with n = 2, 8, 128 per width
    group (L-inf scale of the group): 2n + 1 levels each. Returns the decoded tensor and the widths."""
    v = x.reshape(-1).float()
    n = v.numel()
    max_bit = math.ceil(n * 32 * rate)
    items = ((v.abs() ** 2).unsqueeze(1) * torch.tensor([0, 0.46875, 0.029296875, 0.0009715625])).flatten()
    numel = items.numel()
    want = math.ceil(max_bit / 2)
    samples = items[torch.randint(0, numel, (int(max(1, numel * 0.01)),), generator=gen)]
    k = min(want, math.ceil(samples.numel() * want / numel))
    threshold = torch.min(torch.topk(samples, k, largest=True, sorted=False)[0])
    chosen = (items >= threshold).nonzero().view(-1)
    for _ in range(10):
        if chosen.numel() > want:
            if chosen.numel() > want * 1.3:
                chosen = chosen[torch.topk(items[chosen], want, largest=True, sorted=False)[1]]
            break
        if chosen.numel() >= 0.8 * want:
            break
        threshold = threshold * 0.8
        chosen = (items >= threshold).nonzero().view(-1)
    chosen = chosen[:want]
    kind = chosen % 4
    weight = torch.where(kind == 0, 0, torch.where(kind == 3, 4, 2))
    last = int(torch.bucketize(torch.tensor(max_bit), torch.cumsum(weight, 0)))
    chosen = chosen[:last + 1]
    kind = chosen % 4
    widths = torch.zeros(n)
    for item, width in ((1, 2), (2, 4), (3, 8)):
        widths[chosen[kind == item] // 4] = width
    decoded = torch.zeros(n)
    for width, levels in ((2, 2), (4, 8), (8, 128)):
        group = widths == width
        if group.any():
            g = v[group]
            s = g.abs().max()
            sign = ((g > 0).float() - 0.5) * 2
            decoded[group] = s * sign * stochastic_floor(g.abs() / s * levels, gen) / levels
    return decoded, widths


def dgc_authors(x, rate):
    """hooks_DGC.py at the first step (momentum and velocity are the gradient): get_mask keeps all but the
    floor(n (1 - rate)) smallest magnitudes; the kept values go out as float16, their indices as int64."""
    v = x.reshape(-1).float()
    n = v.numel()
    dropped = torch.argsort(v.abs())[:math.floor(n * (1 - rate))]
    kept = v.index_fill(0, dropped, 0)
    index = kept.nonzero().view(-1)
    decoded = torch.zeros(n)
    decoded[index] = kept[index].half().float()
    return decoded, index.numel() * (64 + 16)


def acsgd_bits_and_count(n, rate=0.032):
    """hooks_acsgd.py get_mask: the budget c, the bits b and the kept count k."""
    c = math.ceil(n * 32 * rate)
    b = math.floor(0.5 * math.log2(2 * math.log(2) * c))
    k = math.floor(c / (0.5 * math.log2(2 * math.log(2) * c)))
    return c, b, k


def acsgd_authors(x, gen):
    """hooks_acsgd.py get_mask at the first step: exact top-k, then quantize with n = 2^(b-1) (L-inf of the kept
    vector, 2^b + 1 levels); the hook all-reduces the dense float32 tensor."""
    v = x.reshape(-1).float()
    _, b, k = acsgd_bits_and_count(v.numel())
    top = torch.topk(v.abs(), k)[1]
    sparse = torch.zeros_like(v)
    sparse[top] = v[top]
    s = sparse.abs().max()
    levels = 2 ** (b - 1)
    sign = ((sparse > 0).float() - 0.5) * 2
    return s * sign * stochastic_floor(sparse.abs() / s * levels, gen) / levels, 32 * v.numel()


def mcgq_authors(x, gen, draws_per_value=0.125):
    """hooks_mcgq.py monte_carlo_gradient_quantization(vec, 0.125): N = n K points (i + r)/N on the cdf of |g|/|g|_1,
    counted per position, each worth sign(g) |g|_1 / N; the hook all-gathers the dense float32 tensor."""
    v = x.reshape(-1).float()
    n = v.numel()
    count = int(n * draws_per_value)
    cdf = torch.cumsum(v.abs() / v.abs().sum(), 0)
    r = float(torch.rand(1, generator=gen))
    points = torch.clip((torch.arange(count) + r) / count, 0.0, float(cdf[-1]))
    hits = torch.zeros(n, dtype=torch.int64)
    hits.scatter_add_(0, torch.bucketize(points, cdf).clamp(max=n - 1), torch.ones(count, dtype=torch.int64))
    return hits * torch.sign(v) / count * v.abs().sum(), 32 * n


# ---------------------------------------------------------------------------------------------------------------
# ALQ and AMQ: the density of bucket-normalised values and the authors' fitting procedures


class TruncNorm:
    """N(mu, sigma^2) conditioned on [lo, hi], with closed-form partial moments (estim/dist.py TruncNorm integrates
    the same with quad)."""

    def __init__(self, mu, sigma, lo=-1.0, hi=1.0):
        self.mu, self.sigma, self.lo, self.hi = mu, sigma, lo, hi
        self.a, self.b = (lo - mu) / sigma, (hi - mu) / sigma
        self.z = self.Phi(self.b) - self.Phi(self.a)

    @staticmethod
    def Phi(t):
        return 0.5 * (1 + math.erf(t / math.sqrt(2)))

    @staticmethod
    def phi(t):
        return math.exp(-t * t / 2) / math.sqrt(2 * math.pi)

    def cdf(self, x):
        x = min(max(x, self.lo), self.hi)
        return (self.Phi((x - self.mu) / self.sigma) - self.Phi(self.a)) / self.z

    def pdf(self, x):
        if x < self.lo or x > self.hi:
            return 0.0
        return self.phi((x - self.mu) / self.sigma) / (self.sigma * self.z)

    def ppf(self, q):
        lo, hi = self.lo, self.hi
        for _ in range(100):
            mid = 0.5 * (lo + hi)
            lo, hi = (mid, hi) if self.cdf(mid) < q else (lo, mid)
        return 0.5 * (lo + hi)

    def moments(self, x, y):
        x, y = max(x, self.lo), min(y, self.hi)
        if y <= x:
            return 0.0, 0.0, 0.0
        u, v = (x - self.mu) / self.sigma, (y - self.mu) / self.sigma
        dP, pu, pv = self.Phi(v) - self.Phi(u), self.phi(u), self.phi(v)
        m, s = self.mu, self.sigma
        return (dP / self.z, (m * dP + s * (pu - pv)) / self.z,
                (m * m * dP + 2 * m * s * (pu - pv) + s * s * (dP + u * pu - v * pv)) / self.z)

    def adjacent(self, c, d):
        """est_var_adjacent_levels: the integral of (x - c)(d - x) f(x) over [c, d]."""
        m0, m1, m2 = self.moments(c, d)
        return -m2 + (c + d) * m1 - c * d * m0

    def proxy(self, levels):
        return sum(self.adjacent(levels[j], levels[j + 1]) for j in range(len(levels) - 1))


def normless_density(x, bucket=8192):
    """What gridrun's alq/amq fit (BucketStats.normLess): the values divided by their bucket's L2 norm, pooled, as one
    normal truncated to [-1, 1]."""
    v = x.reshape(-1).astype(np.float64)
    parts = [v[i:i + bucket] / np.linalg.norm(v[i:i + bucket]) for i in range(0, v.size, bucket)
             if np.linalg.norm(v[i:i + bucket]) > 0]
    pooled = np.concatenate(parts)
    return TruncNorm(float(pooled.mean()), float(pooled.std()))


def exp_levels(bits, p):
    """get_exp_levels: -1, -p, ..., -p^(m-1), p^(m-1), ..., p, 1."""
    m = 2 ** bits // 2
    return [-p ** j for j in range(m)] + [p ** j for j in reversed(range(m))]


def alq_authors(dist, bits, epochs=30):
    """quantize.py alq (inv and sym off, their defaults) from quantile, uniform and exponential starts, each interior
    level moved by finite_diff_gradient_descent (10 steps, lr 1, eps (b - a)/1000); the lowest final proxy wins.
    Their quantile start comes from the norm-based mixture; here, as in gridrun, from the density fitted."""
    count = 2 ** bits
    quantiles = [dist.ppf(q) for q in np.linspace(0, 1, count)]
    quantiles[0], quantiles[-1] = -1.0, 1.0
    starts = [quantiles, list(np.linspace(-1, 1, count)), exp_levels(bits, 0.5)]
    best = None
    for start in starts:
        levels = [float(l) for l in start]
        for _ in range(epochs):
            for j in range(1, count - 1):
                a, b = levels[j - 1], levels[j + 1]
                f = lambda t: dist.adjacent(a, t) + dist.adjacent(t, b)
                eps = (b - a) / 1000
                t = levels[j]
                for _ in range(10):
                    t -= (f(t + eps) - f(t - eps)) / (2 * eps)
                levels[j] = t
        loss = dist.proxy(levels)
        if best is None or loss < best[0]:
            best = (loss, levels)
    return best


def amq_authors(dist, bits, lr=0.7, epochs=50):
    """quantize.py amq_norm_less from each of their starting points, then update_levels' choice by the proxy of the
    upper half of the levels. Returns (proxy of all levels, p)."""
    s = 2 ** (bits - 1) - 1
    mu, sigma = dist.mu, dist.sigma
    best = None
    for start in [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.8, 0.9]:
        p = start
        for _ in range(epochs):
            arg1 = sum((mu * (j * p ** (j - 1) if j else 0) + mu * (j + 1) * p ** j - (2 * j + 1) * p ** (2 * j))
                       * (dist.cdf(p ** j) - dist.cdf(p ** (j + 1))) for j in range(s))
            arg2 = sum(((j * p ** (j - 1) if j else 0) + (j + 1) * p ** j) * (dist.pdf(p ** (j + 1)) - dist.pdf(p ** j))
                       for j in range(s))
            p -= lr * (2 * s * p ** (2 * s - 1) * (dist.cdf(p ** s) - dist.cdf(0)) + arg1 + sigma ** 2 * arg2)
        cost = dist.proxy(exp_levels(bits, p)[2 ** bits // 2:]) if 0 < p < 1 else math.inf
        if best is None or cost < best[0]:
            best = (cost, p)
    return dist.proxy(exp_levels(bits, best[1])), best[1]


# ---------------------------------------------------------------------------------------------------------------
# gridrun


def orthonormal(a):
    """An orthonormal basis of the columns of a (n x r): QR, or the column scaled for r = 1, as their package does."""
    return a / a.norm().clamp_min(1e-16) if a.shape[1] == 1 else torch.linalg.qr(a).Q


class PowerSgdAuthors:
    """PowerSGD on one n x m weight as the authors' code runs it, for one worker or for the mean of several (every
    product is linear in the workers' matrices and then averaged, so the output depends on them only through their
    mean). `iters` None: the paper's step, as the paper code's RankKReducer (reuse_query) runs it: P = M.Q,
    orthonormalised, Q = M^T.P, output P.Q^T. Else the package's PowerSGD (start_compressing_after_num_steps=0) over
    BasicPowerSGD: `iters` half iterations a step, counted across steps; an even one orthonormalises the kept P and
    sends Q = M^T.P, an odd one the kept Q and sends P = M.Q; each adds P.Q^T to the output and subtracts it from M.
    Either way M = gradient + error, and what is left of M is the next step's error."""

    def __init__(self, n, m, rank, iters, gen):
        self.iters, self.count = iters, 0
        self.p = torch.randn(n, rank, generator=gen) if iters else None
        self.q = torch.randn(m, rank, generator=gen)
        self.error = torch.zeros(n, m)
        self.sent = 0

    def step(self, gradient):
        """The output for `gradient` (the workers' mean); self.sent: the values it sent; self.relative_error."""
        mat = gradient + self.error
        n, m = mat.shape
        rank = self.q.shape[1]
        if self.iters is None:
            p = orthonormal(mat @ self.q)
            self.q = mat.T @ p
            out, self.sent = p @ self.q.T, (n + m) * rank
        else:
            out, self.sent = torch.zeros_like(mat), 0
            for _ in range(self.iters):
                if self.count % 2 == 0:
                    self.p = orthonormal(self.p)
                    self.q = (mat - out).T @ self.p
                    self.sent += m * rank
                else:
                    self.q = orthonormal(self.q)
                    self.p = (mat - out) @ self.q
                    self.sent += n * rank
                out += self.p @ self.q.T
                self.count += 1
        self.error = mat - out
        self.relative_error = float((self.error ** 2).sum() / (mat ** 2).sum())
        return out


def powersgd_authors(sequence, rank, iters, gen):
    """Per step of `sequence` (bits per value, relative squared error against M = gradient + kept error)."""
    n, m = sequence[0].shape
    method = PowerSgdAuthors(n, m, rank, iters, gen)
    steps = []
    for g in sequence:
        method.step(g)
        steps.append((32.0 * method.sent / (n * m), method.relative_error))
    return steps


def train_mlp(variant, seed, iters=500, drop=350, workers=4, batch=32, lr=0.05, rank=2):
    """grids/powersgd-gap.yaml's MLP (784-256-10) trained in torch with the authors' PowerSGD on its two weights:
    `variant` none, paper (RankKReducer's step) or alternating (the package's, one half iteration a step). Returns
    the final test accuracy in %."""
    folder = "/usr/share/datasets/fashion-mnist"
    folder = folder if os.path.exists(os.path.join(folder, "t10k-labels-idx1-ubyte.gz")) else SUBSET
    (x, y), (x_test, y_test) = fashion(folder, "train"), fashion(folder, "t10k")
    x, x_test = x.flatten(1), x_test.flatten(1)
    torch.manual_seed(seed)
    gen = torch.Generator().manual_seed(seed)
    model = nn.Sequential(nn.Linear(784, 256), nn.ReLU(), nn.Linear(256, 10))
    params = list(model.parameters())
    opt = torch.optim.SGD(params, lr=lr, momentum=0.9)
    methods = {j: PowerSgdAuthors(*p.shape, rank, None if variant == "paper" else 1, gen)
               for j, p in enumerate(params) if p.dim() == 2 and variant != "none"}
    for s in range(iters):
        for group in opt.param_groups:
            group["lr"] = lr * (0.1 if s >= drop else 1)
        mean = [torch.zeros_like(p) for p in params]
        for _ in range(workers):
            i = torch.randint(0, len(x), (batch,), generator=gen)
            model.zero_grad()
            F.cross_entropy(model(x[i]), y[i]).backward()
            for m, p in zip(mean, params):
                m += p.grad / workers
        for j, p in enumerate(params):
            p.grad = methods[j].step(mean[j]) if j in methods else mean[j]
        opt.step()
    with torch.no_grad():
        return 100 * float((model(x_test).argmax(1) == y_test).float().mean())


def train(seeds=(1, 2)):
    """Prints the final test accuracy of train_mlp for each variant and seed."""
    torch.set_num_threads(1)
    print("| PowerSGD rank 2 in torch (the authors' algorithms) | seeds | final test accuracy (%) |")
    print("|---|---|---|")
    for variant in ("none", "paper", "alternating"):
        accs = [train_mlp(variant, seed) for seed in seeds]
        print("| %s | %s | %.2f ± %.2f (%s) |" % (variant, ", ".join(map(str, seeds)), np.mean(accs),
                                                  np.std(accs, ddof=1), ", ".join("%.2f" % a for a in accs)))


def gridrun_sequence(command, paths, seed, **params):
    """grid-run compress on consecutive steps: per step (bits per value, rel sq error of gradient + unsent)."""
    args = shlex.split(command) + ["compress", "-m", "powersgd", "--repeat", "1", "--seed", str(seed)]
    for path in paths:
        args += ["-i", path]
    for key, value in params.items():
        args += ["-p", "%s=%s" % (key, value)]
    done = subprocess.run(args, capture_output=True, text=True, cwd=ROOT)
    if done.returncode != 0:
        raise SystemExit("gridrun failed (%d): %s\n%s%s" % (done.returncode, " ".join(args), done.stdout, done.stderr))
    rows = [line.split() for line in done.stdout.splitlines() if re.match(r"^\d+\s", line)]
    return [(float(r[1]), float(r[3])) for r in rows]


POWERSGD_WARM = 4       # steps left out of the mean error: both sides start from random factors of their own
POWERSGD_SEEDS = 4      # first factors drawn per side; the per-step errors are means over them
POWERSGD_TOLERANCE = 0.10


def powersgd_rows(command, paths):
    """PowerSGD rank 2 on the MLP layer's gradient sequence: the paper's step and the package's alternating one."""
    sequence = [torch.tensor(np.load(f)) for f in paths]
    n = sequence[0].numel()
    cases = [
        ("powersgd_paper", "PowerSGD rank 2, the paper's step (paper code's RankKReducer)", dict(variant="paper"),
         lambda gen: powersgd_authors(sequence, 2, None, gen)),
        ("powersgd_alternating", "PowerSGD rank 2, alternating, one half iteration a step (their package's default)",
         dict(variant="alternating"), lambda gen: powersgd_authors(sequence, 2, 1, gen)),
        ("powersgd_alternating2", "PowerSGD rank 2, alternating, two half iterations a step (their README)",
         dict(variant="alternating", iters_per_step=2), lambda gen: powersgd_authors(sequence, 2, 2, gen)),
    ]
    rows, per_step = [], {}
    for key, name, params, theirs_fn in cases:
        theirs = [theirs_fn(torch.Generator().manual_seed(100 + k)) for k in range(POWERSGD_SEEDS)]
        ours = [gridrun_sequence(command, paths, 1 + k, rank=2, **params) for k in range(POWERSGD_SEEDS)]
        t_err = [float(np.mean([run[s][1] for run in theirs])) for s in range(len(paths))]
        o_err = [float(np.mean([run[s][1] for run in ours])) for s in range(len(paths))]
        t_bits = [theirs[0][s][0] for s in range(len(paths))]
        o_bits = [ours[0][s][0] for s in range(len(paths))]
        t_mean, o_mean = float(np.mean(t_err[POWERSGD_WARM:])), float(np.mean(o_err[POWERSGD_WARM:]))
        bits_agree = all(abs(a - b) < 1e-6 for a, b in zip(t_bits, o_bits))
        per_step[key] = dict(theirs_error=t_err, error=o_err, theirs_bits=t_bits, bits=o_bits)
        rows.append(dict(
            key=key, method="%s, MLP fc layer %dk values, %d steps" % (name, n // 1000, len(paths)),
            authors="%.4f bits/value a step on average; error %.4f (mean of steps %d-%d)" % (
                np.mean(t_bits), t_mean, POWERSGD_WARM, len(paths) - 1),
            gridrun="%.4f bits/value; error %.4f" % (np.mean(o_bits), o_mean),
            means="%s; %.3fx their error (steps differ by at most %.3f)" % (
                "the same bits every step" if bits_agree else "other bits", o_mean / t_mean,
                max(abs(a - b) for a, b in zip(o_err[POWERSGD_WARM:], t_err[POWERSGD_WARM:]))),
            ok=bool(bits_agree and close(o_mean, t_mean, POWERSGD_TOLERANCE)),
            numbers=dict(theirs_error=t_mean, error=o_mean, theirs_bits=float(np.mean(t_bits)),
                         bits=float(np.mean(o_bits)), per_step=per_step[key])))
    return rows, per_step


def gridrun(command, method, path, repeats, **params):
    args = shlex.split(command) + ["compress", "-m", method, "-i", path, "--repeat", str(repeats)]
    for key, value in params.items():
        args += ["-p", "%s=%s" % (key, value)]
    done = subprocess.run(args, capture_output=True, text=True, cwd=ROOT)
    if done.returncode != 0:
        raise SystemExit("gridrun failed (%d): %s\n%s%s" % (done.returncode, " ".join(args), done.stdout, done.stderr))
    found = {}
    for line in done.stdout.splitlines():
        m = re.match(r"^(\S.*?)\s{2,}([-0-9.eE+]+)(\s|$)", line)
        if m:
            found[m.group(1)] = float(m.group(2))
    return found


# ---------------------------------------------------------------------------------------------------------------
# The comparison


def compare(files, command, repeats):
    rows = []
    tensors = {k: torch.tensor(np.load(f)) for k, f in files.items()}
    gen = torch.Generator().manual_seed(2026)

    def runs(fn, v):
        draws, bits = [], None
        for _ in range(repeats):
            d, bits = fn(v)
            draws.append(d.reshape(-1))
        return draws, bits

    # ALQ and AMQ on the MLP's layer: the variance proxy of the fitted levels under the same density
    fc = np.load(files["fc"])
    dist = normless_density(fc)
    alq_theirs = alq_authors(dist, 3)[0]
    amq_theirs, amq_p = amq_authors(dist, 3)
    fit = dict(bits=3, bucket_size=8192, osnap_iter="0,1000000")
    g = {k: gridrun(command, "alq", files["fc"], 1, level_fit=k, **fit) for k in ("exact", "authors")}
    a = {k: gridrun(command, "amq", files["fc"], 1, level_fit=k, **fit) for k in ("exact", "authors")}
    levels = [g["exact"]["levels/%d" % j] for j in range(8)]
    rows.append(dict(
        key="alq", method="ALQ 3 bits, bucket 8192 (MLP fc layer): variance proxy of the fitted levels",
        authors="%.3g" % alq_theirs,
        gridrun="%.3g (level_fit=authors: %.3g)" % (g["exact"]["nb_error"], g["authors"]["nb_error"]),
        means="gridrun %s: it solves each coordinate exactly; their steps of size 1 barely move the levels"
              % better(g["exact"]["nb_error"], alq_theirs),
        ok=g["exact"]["nb_error"] <= alq_theirs and close(g["authors"]["nb_error"], alq_theirs, 0.05)
        and close(dist.proxy(levels), g["exact"]["nb_error"], 0.01),
        numbers=dict(theirs=alq_theirs, exact=g["exact"]["nb_error"], authors=g["authors"]["nb_error"],
                     density_check=dist.proxy(levels))))
    rows.append(dict(
        key="amq", method="AMQ 3 bits, bucket 8192 (MLP fc layer): variance proxy, p",
        authors="%.3g (p = %.3f)" % (amq_theirs, amq_p),
        gridrun="%.3g (p = %.3f; level_fit=authors: %.3g, p = %.3f)" % (
            a["exact"]["nb_error"], a["exact"]["multiplier"], a["authors"]["nb_error"], a["authors"]["multiplier"]),
        means="gridrun %s: their choice scores only the upper half of the levels"
              % better(a["exact"]["nb_error"], amq_theirs),
        ok=a["exact"]["nb_error"] <= amq_theirs and close(a["authors"]["nb_error"], amq_theirs, 0.05),
        numbers=dict(theirs=amq_theirs, p=amq_p, exact=a["exact"]["nb_error"], authors=a["authors"]["nb_error"])))

    # SmaQ on the MLP's and the conv net's layer
    for name, label in (("fc", "fc layer"), ("conv4", "conv layer")):
        v = tensors[name]
        z = (v - v.mean()) / v.std()
        draws, bits = runs(lambda t: smaq_authors(t, gen), v)
        err, bias = measure(v.reshape(-1), draws)
        ours = gridrun(command, "smaq", files[name], repeats)
        theirs_bits = bits / v.numel()
        rows.append(dict(
            key="smaq_" + name, method="SmaQ 6/8 bits, %s %dk values, %.1f %% beyond 2.5 sd" % (
                label, v.numel() // 1000, 100 * float((z.abs() > 2.5).float().mean())),
            authors="%.2f bits/value (6 or 8 counted), error %.3g, bias %.3g" % (theirs_bits, err, bias),
            gridrun="%.2f wire bits/value (%.2f value + %.4f side), error %.3g, bias %.3g" % (
                ours["bits/element"], ours["value bits"], ours["side bits"], ours["rel sq error"],
                ours["bias estimate"]),
            means="escapes send far outliers exactly: error %.2fx theirs at %+.2f bits, unbiased (their 8-bit code "
                  "cannot hold the values it is charged for)" % (ours["rel sq error"] / err,
                                                                  ours["bits/element"] - theirs_bits),
            ok=ours["rel sq error"] <= 1.2 * err and ours["bits/element"] <= theirs_bits + 1.5
            and ours["bias estimate"] <= 3 * ours["rel sq error"] / repeats,
            numbers=dict(theirs_bits=theirs_bits, theirs_error=err, bits=ours["bits/element"],
                         error=ours["rel sq error"], bias=ours["bias estimate"])))

    # JointSQ on the two conv layers
    for name in ("conv3", "conv4"):
        v = tensors[name]
        draws, widths = runs(lambda t: jointsq_authors(t, gen), v)
        err, _ = measure(v.reshape(-1), draws)
        n = v.numel()
        shares = [float((widths == w).float().mean()) for w in (0, 2, 4, 8)]
        nominal = float(widths.sum()) / n
        honest = (shares[1] * math.log2(5) + shares[2] * math.log2(17) + shares[3] * math.log2(257)
                  + entropy(shares))
        ours = gridrun(command, "jointsq", files[name], repeats)
        ours_shares = [ours["width_share/%d" % w] for w in (0, 2, 4, 8)]
        rows.append(dict(
            key="jointsq_" + name, method="JointSQ rate 0.032, conv layer %dk values" % (n // 1000),
            authors="%.2f value bits/value as counted (%.2f with 2n+1 levels and an ideal map); widths 0/2/4/8 = "
                    "%s %%; error %.3g" % (nominal, honest, "/".join("%.0f" % (100 * s) for s in shares), err),
            gridrun="%.2f wire bits/value (%.2f value + %.2f map and scales); widths %s %%; error %.3g" % (
                ours["bits/element"], ours["value bits"], ours["side bits"],
                "/".join("%.0f" % (100 * s) for s in ours_shares), ours["rel sq error"]),
            means="%.2fx their error at %.2f wire bits a value: a searched allocation, every code used, the map "
                  "coded by its neighbours" % (ours["rel sq error"] / err, ours["bits/element"]),
            ok=ours["rel sq error"] <= 1.2 * err and ours["bits/element"] <= 2.5,
            numbers=dict(theirs_value_bits=nominal, theirs_honest=honest, theirs_error=err, shares=shares,
                         bits=ours["bits/element"], error=ours["rel sq error"], gridrun_shares=ours_shares)))

    # DGC, AC-SGD, MCGQ on a conv layer, first step
    v = tensors["conv3"]
    n = v.numel()
    rate = 0.032
    draws, bits = runs(lambda t: dgc_authors(t, rate), v)
    err, _ = measure(v.reshape(-1), draws)
    ours = gridrun(command, "dgc", files["conv3"], repeats, ratio=rate)
    rows.append(dict(
        key="dgc", method="DGC, %.1f %% kept, conv layer %dk values, first step" % (100 * rate, n // 1000),
        authors="%.2f bits/value (int64 index + float16 value); error %.3g" % (bits / n, err),
        gridrun="%.2f bits/value (%d-bit index + float32 value); error %.3g" % (
            ours["bits/element"], math.ceil(math.log2(n)), ours["rel sq error"]),
        means="sampled threshold instead of an exact top-k: %.2fx their error at %.0f %% of their bits" % (
            ours["rel sq error"] / err, 100 * ours["bits/element"] / (bits / n)),
        ok=ours["rel sq error"] <= 1.2 * err and ours["bits/element"] <= bits / n,
        numbers=dict(theirs_bits=bits / n, theirs_error=err, bits=ours["bits/element"], error=ours["rel sq error"])))
    c, b, k = acsgd_bits_and_count(n)
    draws, bits = runs(lambda t: acsgd_authors(t, gen), v)
    err, _ = measure(v.reshape(-1), draws)
    ours = gridrun(command, "acsgd", files["conv3"], repeats, ratio=k / n, bits=b, adapt="false")
    rows.append(dict(
        key="acsgd", method="AC-SGD budget 0.032: top %d (%.1f %%) at %d bits, conv layer %dk values" % (
            k, 100 * k / n, b, n // 1000),
        authors="%.2f bits/value counted (k b), %d sent (dense float32); error %.3g" % (k * b / n, bits // n, err),
        gridrun="%.2f bits/value (%.2f value + %.2f index); error %.3g" % (
            ours["bits/element"], ours["value bits"], ours["side bits"], ours["rel sq error"]),
        means="the same k and b: %.2fx their error; gridrun sends indices instead of a dense tensor" % (
            ours["rel sq error"] / err),
        ok=ours["rel sq error"] <= 1.2 * err and ours["bits/element"] <= bits / n,
        numbers=dict(theirs_bits=bits / n, theirs_error=err, bits=ours["bits/element"], error=ours["rel sq error"])))
    draws, bits = runs(lambda t: mcgq_authors(t, gen), v)
    err, bias = measure(v.reshape(-1), draws)
    ours = gridrun(command, "mcgq", files["conv3"], repeats, ratio=0.125)
    rows.append(dict(
        key="mcgq", method="MCGQ 0.125 draws per value, conv layer %dk values" % (n // 1000),
        authors="%d bits/value sent (dense float32); error %.3g" % (bits // n, err),
        gridrun="%.2f bits/value (%.2f index + sign and count); error %.3g" % (
            ours["bits/element"], ours["side bits"], ours["rel sq error"]),
        means="the same systematic draws: %.2fx their error at %.0f %% of their bits" % (
            ours["rel sq error"] / err, 100 * ours["bits/element"] / (bits / n)),
        ok=ours["rel sq error"] <= 1.2 * err and ours["bits/element"] <= bits / n,
        numbers=dict(theirs_bits=bits / n, theirs_error=err, bits=ours["bits/element"], error=ours["rel sq error"])))
    return rows


def entropy(shares):
    return -sum(s * math.log2(s) for s in shares if s > 0)


def close(a, b, tolerance):
    return abs(a - b) <= tolerance * abs(b)


def better(ours, theirs):
    return "better (%.2fx)" % (ours / theirs) if ours <= theirs else "worse (%.2fx)" % (ours / theirs)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--gridrun", default=os.path.join(ROOT, "grid-run"), help="command running gridrun's CLI")
    parser.add_argument("--repeats", type=int, default=10, help="independent draws per method (default 10)")
    parser.add_argument("--out", help="directory for the gradients and results.json (default: a temporary one)")
    parser.add_argument("--check", action="store_true", help="exit 1 unless gridrun meets every target")
    parser.add_argument("--train", action="store_true",
                        help="instead: train grids/powersgd-gap.yaml's MLP with the authors' PowerSGD (both variants)")
    args = parser.parse_args()
    if args.train:
        train()
        return
    torch.manual_seed(0)
    out = args.out or tempfile.mkdtemp(prefix="gridrun-authors-")
    os.makedirs(out, exist_ok=True)
    rows = compare(gradients(out), args.gridrun, args.repeats)
    powersgd, per_step = powersgd_rows(args.gridrun, gradient_sequence(out))
    rows += powersgd
    print("| method | the authors' code | gridrun | what it means |")
    print("|---|---|---|---|")
    for r in rows:
        print("| %s | %s | %s | %s |" % (r["method"], r["authors"], r["gridrun"], r["means"]))
    print("\nPowerSGD rank 2 per step: relative squared error of gradient + kept error, theirs / gridrun "
          "(means over %d first factors each)\n" % POWERSGD_SEEDS)
    print("| step | " + " | ".join(per_step) + " |")
    print("|---|" + "---|" * len(per_step))
    for s in range(len(next(iter(per_step.values()))["error"])):
        print("| %d | %s |" % (s, " | ".join("%.4f / %.4f" % (v["theirs_error"][s], v["error"][s])
                                          for v in per_step.values())))
    with open(os.path.join(out, "results.json"), "w") as f:
        json.dump([{k: r[k] for k in ("key", "ok", "numbers")} for r in rows], f, indent=1)
    missed = [r["key"] for r in rows if not r["ok"]]
    print("\ntargets: %s" % ("all met" if not missed else "missed by " + ", ".join(missed)))
    if args.check and missed:
        sys.exit(1)


if __name__ == "__main__":
    main()
