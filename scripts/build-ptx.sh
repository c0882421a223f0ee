#!/usr/bin/env bash
# Compiles gridrun's CUDA kernels (engine/src/main/cuda/*.cu) to PTX, one module per source file.
#
#   scripts/build-ptx.sh            writes the committed resources under
#                                   engine/src/main/resources/org/gridrun/engine/backend/cuda/
#   scripts/build-ptx.sh DIR        writes them to DIR instead (the up-to-date test compares the two)
#
# The PTX targets compute_75, the oldest architecture nvcc 13 accepts, so any newer GPU JIT-compiles it. nvcc 13
# stamps its PTX with ISA version 9.0, which only a CUDA 13 driver reads; the kernels use nothing newer than ISA 8.0,
# so the header is lowered to 8.0 and a CUDA 12 driver loads the same files.
#
# --fmad=false: nvcc fuses no a * b + c into an FMA unless the source asks for one (fmaf, __fmaf_rn), as the
# emulator (g++ -ffp-contract=off) and the JVM compute, so that the emulator's bits are the GPU's for every kernel.
# With nvcc's default, the batch-norm statistics, GELU and the softmax cross-entropy rows were fused on the GPU only.
set -euo pipefail
shopt -s nullglob
root=$(cd "$(dirname "$0")/.." && pwd)
src="$root/engine/src/main/cuda"
out=${1:-$root/engine/src/main/resources/org/gridrun/engine/backend/cuda}
mkdir -p "$out"
command -v nvcc >/dev/null || { echo "build-ptx: nvcc is not on the PATH (install the CUDA toolkit)" >&2; exit 2; }
for cu in "$src"/*.cu; do
    name=$(basename "$cu" .cu)
    nvcc -ptx -arch=compute_75 -O3 -std=c++17 --fmad=false -I "$src" -o "$out/$name.ptx.tmp" "$cu"
    sed -e 's/^\.version 9\.[0-9]*$/.version 8.0/' "$out/$name.ptx.tmp" > "$out/$name.ptx"
    rm "$out/$name.ptx.tmp"
done
