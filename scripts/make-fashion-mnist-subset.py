#!/usr/bin/env python3
"""Regenerates the Fashion-MNIST subset shipped inside gridrun's engine jar.

Takes the first 6000 training and the first 2000 test images (with their labels) of the full set installed by
Debian's dataset-fashion-mnist and writes them as valid IDX files, gzip-compressed under the original names, into
engine/src/main/resources/org/gridrun/engine/data/fashion-mnist-subset/. The gzip header carries no time stamp
and no file name, so the output is byte-for-byte reproducible. Prints the class balance of each part.

    python3 scripts/make-fashion-mnist-subset.py [--source DIR] [--train N] [--test N] [--out DIR]

Standard library only.
"""
import argparse
import gzip
import io
import os
import struct
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_OUT = os.path.join(ROOT, "engine/src/main/resources/org/gridrun/engine/data/fashion-mnist-subset")
CLASSES = ["T-shirt/top", "Trouser", "Pullover", "Dress", "Coat", "Sandal", "Shirt", "Sneaker", "Bag",
           "Ankle boot"]


def read_idx(path, dims):
    """Returns (sizes, data) of an IDX file of unsigned bytes with `dims` dimensions."""
    with gzip.open(path, "rb") as f:
        raw = f.read()
    magic = struct.unpack(">I", raw[:4])[0]
    expected = 0x0800 | dims
    if magic != expected:
        sys.exit(f"{path}: bad magic number 0x{magic:08x}, expected 0x{expected:08x}")
    sizes = list(struct.unpack(">" + "I" * dims, raw[4:4 + 4 * dims]))
    return sizes, raw[4 + 4 * dims:]


def write_idx(path, sizes, data):
    """Writes an IDX file of unsigned bytes, gzip-compressed with a fixed header (mtime 0, no name)."""
    header = struct.pack(">I", 0x0800 | len(sizes)) + struct.pack(">" + "I" * len(sizes), *sizes)
    buffer = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=buffer, compresslevel=9, mtime=0) as f:
        f.write(header + data)
    with open(path, "wb") as out:
        out.write(buffer.getvalue())


def subset(source, out, prefix, count):
    """Writes the first `count` images and labels of split `prefix` (train or t10k); returns the labels."""
    image_sizes, images = read_idx(os.path.join(source, f"{prefix}-images-idx3-ubyte.gz"), 3)
    label_sizes, labels = read_idx(os.path.join(source, f"{prefix}-labels-idx1-ubyte.gz"), 1)
    if count > image_sizes[0] or image_sizes[0] != label_sizes[0]:
        sys.exit(f"{source}: {prefix} has {image_sizes[0]} images and {label_sizes[0]} labels, asked for {count}")
    pixels = image_sizes[1] * image_sizes[2]
    write_idx(os.path.join(out, f"{prefix}-images-idx3-ubyte.gz"), [count] + image_sizes[1:],
              images[:count * pixels])
    write_idx(os.path.join(out, f"{prefix}-labels-idx1-ubyte.gz"), [count], labels[:count])
    return labels[:count]


def balance(name, labels):
    counts = [0] * len(CLASSES)
    for label in labels:
        counts[label] += 1
    print(f"{name}: {len(labels)} images; per class: "
          + ", ".join(f"{c} {CLASSES[c]}={n}" for c, n in enumerate(counts))
          + f" (min {min(counts)}, max {max(counts)})")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--source", default="/usr/share/datasets/fashion-mnist",
                        help="directory of the full set (apt-get install dataset-fashion-mnist)")
    parser.add_argument("--train", type=int, default=6000, help="training images to keep (the first N)")
    parser.add_argument("--test", type=int, default=2000, help="test images to keep (the first N)")
    parser.add_argument("--out", default=DEFAULT_OUT, help="output directory")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    balance("train", subset(args.source, args.out, "train", args.train))
    balance("test", subset(args.source, args.out, "t10k", args.test))
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
