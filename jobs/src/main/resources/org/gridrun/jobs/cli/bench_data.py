"""torchvision's side of `grid-run bench data`: images per second of ImageNet's training input pipeline.

Usage: python3 bench_data.py DIR THREADS BATCH WARMUP BATCHES
Reads DIR/train with torchvision's ImageFolder (Pillow decoding), the standard training transforms
(RandomResizedCrop(224), RandomHorizontalFlip(), ToTensor(), Normalize with ImageNet's statistics) and a DataLoader
with THREADS worker processes and batches of BATCH, shuffled, drawn as one long epoch (so no batch waits for an
epoch's workers to restart, as gridrun's sampler never restarts either). WARMUP batches are drawn untimed (workers
starting, files cached), then BATCHES timed. Prints `images_per_second <value>`, `images_per_cpu_second <value>`
(the CPU time of the main process and its workers over the timed batches, read from /proc; nan elsewhere) and
`decoder <what decodes JPEGs>`.
"""
import math
import os
import sys
import time

import PIL
import torch
import torchvision
import torchvision.transforms as T
from PIL import features
from torch.utils.data import DataLoader, RandomSampler


def decoder():
    try:
        turbo = features.version_feature("libjpeg_turbo")
    except ValueError:  # a Pillow older than 8.2 does not know the feature
        turbo = None
    if turbo:
        return "Pillow %s with libjpeg-turbo %s" % (PIL.__version__, turbo)
    return "Pillow %s with libjpeg %s" % (PIL.__version__, features.version("jpg"))


def cpu_seconds(loader_iter):
    """CPU seconds so far of this process (all threads) and of the loader's worker processes; nan if unknown."""
    total = time.process_time()
    try:
        tick = os.sysconf("SC_CLK_TCK")
        for worker in loader_iter._workers:
            with open("/proc/%d/stat" % worker.pid) as f:
                fields = f.read().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / tick
    except (AttributeError, OSError, ValueError):
        return math.nan
    return total


def main():
    root, threads, batch, warmup, batches = sys.argv[1], *map(int, sys.argv[2:6])
    transform = T.Compose([
        T.RandomResizedCrop(224),
        T.RandomHorizontalFlip(),
        T.ToTensor(),
        T.Normalize([0.485, 0.456, 0.406], [0.229, 0.224, 0.225]),
    ])
    data = torchvision.datasets.ImageFolder(root + "/train", transform)
    sampler = RandomSampler(data, num_samples=(warmup + batches + 2 * threads + 2) * batch)
    loader = DataLoader(data, batch_size=batch, sampler=sampler, num_workers=threads, drop_last=True)
    torch.set_num_threads(1)
    it = iter(loader)
    for _ in range(warmup):
        next(it)
    cpu = cpu_seconds(it)
    start = time.perf_counter()
    images = 0
    for _ in range(batches):
        x, _ = next(it)
        images += x.shape[0]
    elapsed = time.perf_counter() - start
    cpu = cpu_seconds(it) - cpu
    print("images_per_second %.3f" % (images / elapsed))
    print("images_per_cpu_second %.3f" % (images / cpu if cpu > 0 else math.nan))
    print("decoder " + decoder())


if __name__ == "__main__":
    main()
