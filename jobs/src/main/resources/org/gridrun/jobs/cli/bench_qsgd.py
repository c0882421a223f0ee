"""PyTorch's side of `grid-run bench compressors`: a reference-style QSGD encode + decode in PyTorch.

Usage: python3 bench_qsgd.py FILE BUCKET BITS THREADS REPEAT
FILE holds the benchmark's vector as little-endian float32. QSGD as its reference implementations write it in
PyTorch: the vector cut into buckets of BUCKET values, each divided by its L2 norm, every value rounded
stochastically with torch.rand to one of the 2^BITS uniform levels in [-1, 1] (gridrun's qsgd levels), the level
indices kept as uint8 (not bit-packed: that favours PyTorch), then decoded back to float32. Prints `gbps <value>`:
4 bytes per input value over the best of REPEAT timed runs after two warm-ups, on THREADS intra-op threads.
"""
import sys
import time

import numpy as np
import torch
import torch.nn.functional as F


def encode(v, bucket, top):
    n = v.numel()
    x = F.pad(v, (0, (-n) % bucket)).view(-1, bucket)
    norms = x.norm(dim=1, keepdim=True)
    t = (x / norms + 1) * (top / 2)
    low = t.floor()
    codes = (low + (torch.rand_like(t) < t - low)).to(torch.uint8)
    return norms, codes


def decode(norms, codes, n, top):
    return ((codes.float() * (2.0 / top) - 1) * norms).view(-1)[:n]


def main():
    path, bucket, bits, threads, repeat = sys.argv[1], *map(int, sys.argv[2:6])
    torch.set_num_threads(threads)
    torch.manual_seed(1)
    v = torch.from_numpy(np.fromfile(path, dtype="<f4"))
    top = (1 << bits) - 1
    best = float("inf")
    for r in range(2 + repeat):
        start = time.perf_counter()
        norms, codes = encode(v, bucket, top)
        out = decode(norms, codes, v.numel(), top)
        elapsed = time.perf_counter() - start
        if r >= 2:
            best = min(best, elapsed)
    assert out.numel() == v.numel()
    print("gbps %.6f" % (4.0 * v.numel() / best / 1e9))


if __name__ == "__main__":
    main()
