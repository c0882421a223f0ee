#!/usr/bin/env bash
# The GPU check of gridrun's CUDA backend, for a Linux x86-64 machine with an NVIDIA GPU and no Java or network.
#
#   scripts/gpu-check.sh bundle [FILE]   here (Java 17+, Maven, xz, zip): builds the self-contained bundle FILE
#                                        (default target/gpu-bundle/gridrun-gpu.tar.xz): a jlinked Java runtime,
#                                        the shaded grid-run.jar, the engine's tests with JUnit's console launcher,
#                                        this script and the quick-start grid; the jar's PTX and Fashion-MNIST
#                                        subset come from the checkout on the GPU machine (from_checkout)
#   scripts/gpu-check.sh run [FILE]      on the GPU machine: unpacks the bundle and runs the CUDA tests with
#                                        GRIDRUN_REQUIRE_CUDA=1 (a missing GPU fails instead of skipping), the
#                                        resume tests (backend auto picks the GPU), grid-run bench train --backend
#                                        cuda beside PyTorch when python3 imports a CUDA torch, bench compressors
#                                        --backend cuda against a device copy, and a short quick
#                                        start on cuda; prints a summary table last and exits non-zero on a failure
#                                        Environment: GPU_CHECK_STEPS="tests train ..." runs only the steps named
#                                        (backends tests train train-eager train-vit train-lstm train-qsgd
#                                        train-qsgd-eager compressors compressors-kernels train-kernels train-pair
#                                        quickstart quickstart-status; default all), GPU_CHECK_TESTS=REGEX the test
#                                        classes to run (default every CUDA one), GPU_CHECK_TIMEOUT=S
#                                        stops each step after S seconds, GPU_CHECK_LOG_DIR=D keeps the log and the
#                                        JUnit reports in D
#   scripts/gpu-check.sh paper FILE [STEPS]  on the GPU machine: the paper-gpu grid on cuda, every run cut to STEPS
#                                        steps (default 5000, the whole grid) with its schedule scaled, on the full
#                                        Fashion-MNIST that bundle writes beside FILE; stops after PAPER_SECONDS,
#                                        saves its state in PAPER_OUT and goes on from it in the next lease; prints
#                                        the grid's table and, once every run has ended, the paper's tables
#   scripts/gpu-check.sh lease FILE      on the GPU machine, one call of a short lease (LEASE_SECONDS): the tests
#                                        of workers at once, run's other steps alone on the GPU, then paper for
#                                        what is left with the other tests beside it (see lease below)
#
# Run it from a checkout at the bundle's commit on the GPU machine (the device tool sends one with every call): the
# bundle's jar takes its PTX and Fashion-MNIST subset from there. Elsewhere: tar xf gridrun-gpu.tar.xz &&
# GRIDRUN_CHECKOUT=CHECKOUT gridrun-gpu/gpu-check.sh run-unpacked gridrun-gpu
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
default_bundle="$root/target/gpu-bundle/gridrun-gpu.tar.xz"
junit_version=1.10.3
subset=org/gridrun/engine/data/fashion-mnist-subset/

# Copies the jar $1 to $2 with its entries stored (uncompressed), leaving out those whose names match the regular
# expression $3 (optional) at their start. Those that also match $4 (optional) are listed in $5 with their SHA-256,
# for complete_jar to put back from a checkout.
stored_jar() {
  python3 -c 'import hashlib, re, sys, zipfile
left_out = re.compile(sys.argv[3]) if sys.argv[3] else None
listed = re.compile(sys.argv[4]) if sys.argv[4] else None
sums = []
with zipfile.ZipFile(sys.argv[1]) as src, zipfile.ZipFile(sys.argv[2], "w", zipfile.ZIP_STORED) as dst:
    for entry in src.infolist():
        if left_out is None or not left_out.match(entry.filename):
            dst.writestr(entry, src.read(entry), compress_type=zipfile.ZIP_STORED)
        elif listed is not None and listed.match(entry.filename) and not entry.is_dir():
            sums.append(f"{hashlib.sha256(src.read(entry)).hexdigest()}  {entry.filename}\n")
if listed is not None:
    open(sys.argv[5], "w").write("".join(sums))' "$1" "$2" "${3:-}" "${4:-}" "${5:-}"
}

# The jar's entries that the checkout holds as they are (engine/src/main/resources/…): the kernels' PTX and the
# Fashion-MNIST subset, 3.6 MB of a call's 64 MiB that every call sends twice otherwise (checkout and bundle).
# bundle leaves them out of its jar and lists them in from-checkout.sha256; complete_jar puts them back.
from_checkout='org/gridrun/engine/backend/cuda/[^/]+[.]ptx$|org/gridrun/engine/data/fashion-mnist-subset/'

# Puts back into the unpacked bundle $1's grid-run.jar the entries bundle left out of it (from-checkout.sha256 there),
# from the checkout's engine resources (GRIDRUN_CHECKOUT, default the checkout holding this script), each checked
# against its SHA-256; python3 only.
complete_jar() {
  local dir="$1"
  [ -f "$dir/from-checkout.sha256" ] || return 0
  python3 - "$dir/grid-run.jar" "$dir/from-checkout.sha256" "${GRIDRUN_CHECKOUT:-$root}/engine/src/main/resources" <<'PY'
import hashlib, pathlib, sys, zipfile
jar, listing, resources = sys.argv[1], pathlib.Path(sys.argv[2]), pathlib.Path(sys.argv[3])
with zipfile.ZipFile(jar, "a", zipfile.ZIP_STORED) as z:
    for line in listing.read_text().splitlines():
        digest, name = line.split(maxsplit=1)
        path = resources / name
        if not path.is_file():
            sys.exit(f"gpu-check: no {path}: the bundle's jar takes its PTX and Fashion-MNIST subset from a checkout "
                     "at the bundle's commit (GRIDRUN_CHECKOUT=DIR names one)")
        data = path.read_bytes()
        if hashlib.sha256(data).hexdigest() != digest:
            sys.exit(f"gpu-check: {path} is not the file the bundle was built with: build the bundle again "
                     "(scripts/gpu-check.sh bundle) from this checkout")
        z.writestr(zipfile.ZipInfo(name, (2026, 1, 1, 0, 0, 0)), data)
listing.unlink()
PY
}

bundle() {
  local file="${1:-$default_bundle}"
  local work; work="$(mktemp -d)"
  trap 'rm -rf "$work"' RETURN
  local dir="$work/gridrun-gpu" tests="$work/tests/gridrun-gpu" beside
  mkdir -p "$dir" "$tests" "$(dirname "$file")"
  beside="$(cd "$(dirname "$file")" && pwd)"
  echo "gpu-check: building gridrun and its tests (Maven)" >&2
  (cd "$root" && mvn -B -q -ntp -DskipTests package \
      && mvn -B -q -ntp -pl engine test-compile \
      && mvn -B -q -ntp dependency:copy -Dartifact="org.junit.platform:junit-platform-console-standalone:$junit_version" \
           -DoutputDirectory="$work" -Dmdep.stripVersion=true)
  # The jar goes in stored (uncompressed), so that xz packs its classes and PTX across files: 13 MB of the bundle
  # instead of 23. Left out: the CPU's bundled natives (OpenBLAS, oneDNN: tens of MB; on the GPU machine the CPU
  # backend, only the agreement tests' reference there, falls back to its Java paths and list backends says so) and
  # PDFBox, which XChart needs only to write PDFs (gridrun writes PNG and SVG).
  # The PTX and the Fashion-MNIST subset stay out too, listed for complete_jar (from_checkout).
  stored_jar "$root/jobs/target/grid-run.jar" "$dir/grid-run.jar" \
      "org/bytedeco/[^/]+/linux-x86_64/|org/apache/(pdfbox|fontbox)/|de/rototor/|$from_checkout" "$from_checkout" \
      "$dir/from-checkout.sha256"
  cp "$here/gpu-check.sh" "$dir/"
  mkdir -p "$dir/grids" "$dir/figures" && cp "$root/grids/quickstart.yaml" "$root/grids/paper-gpu.yaml" "$dir/grids/"
  cp "$root/figures/paper-gpu.yaml" "$dir/figures/"
  echo "gpu-check: linking a Java runtime (jlink)" >&2
  local modules
  modules="$(jdeps --multi-release 17 --print-module-deps --ignore-missing-deps "$dir/grid-run.jar"),jdk.unsupported,jdk.crypto.ec,jdk.zipfs"
  jlink --add-modules "$modules" --strip-debug --no-man-pages --no-header-files \
      --strip-native-debug-symbols=exclude-debuginfo-files --output "$dir/java" 2>/dev/null
  # jlink leaves libjvm.so's symbol table (4 MB; 0.8 MB of the bundle): Java needs only its dynamic symbols.
  strip --strip-unneeded "$dir/java/lib/server/libjvm.so" 2>/dev/null || true
  # The tests travel in their own archive, unpacked over the bundle by run: paper's carry (bundle and data) must
  # leave room for the checkout within the device's 64 MiB.
  jar --create --no-compress --file "$tests/engine-tests.jar" -C "$root/engine/target/test-classes" .
  stored_jar "$work/junit-platform-console-standalone.jar" "$tests/junit.jar"
  echo "gpu-check: compressing" >&2
  tar -C "$work" -cf - gridrun-gpu | xz -T2 -6 > "$file"
  tar -C "$work/tests" -cf - gridrun-gpu | xz -T2 -6 > "$beside/gridrun-gpu-tests.tar.xz"
  echo "gpu-check: wrote $file ($(du -h "$file" | cut -f1)), $beside/gridrun-gpu-tests.tar.xz" \
      "($(du -h "$beside/gridrun-gpu-tests.tar.xz" | cut -f1))"
  # The full Fashion-MNIST for paper, beside the bundle: what the subset in the jar does not hold (its first 6,000
  # training and 2,000 test images), uncompressed, then xz; paper puts the files back together and checks them
  # against their SHA-256. 23 MB: bundle, data and checkout must fit the device's 64 MiB together.
  local fm=/usr/share/datasets/fashion-mnist data="$beside/fashion-mnist.tar.xz"
  if [ -f "$data" ]; then
    echo "gpu-check: kept $data"
  elif [ -f "$fm/train-images-idx3-ubyte.gz" ]; then
    mkdir "$work/fashion-mnist"
    python3 - "$fm" "$root/engine/src/main/resources/$subset" "$work/fashion-mnist" <<'PY'
import gzip, hashlib, pathlib, sys
full, subset, out = map(pathlib.Path, sys.argv[1:])
sums = []
for name in ("train-images-idx3-ubyte", "train-labels-idx1-ubyte", "t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte"):
    data = gzip.decompress((full / (name + ".gz")).read_bytes())
    header = 16 if "images" in name else 8
    shipped = gzip.decompress((subset / (name + ".gz")).read_bytes())[header:]
    if not data[header:].startswith(shipped):
        sys.exit(f"gpu-check: the shipped {name} is not the start of {full / name}")
    (out / (name + ".rest")).write_bytes(data[:header] + data[header + len(shipped):])
    sums.append(f"{hashlib.sha256(data).hexdigest()}  {name}\n")
(out / "SHA256SUMS").write_text("".join(sums))
PY
    tar -C "$work/fashion-mnist" -cf - . | xz -T2 -6 > "$data.part" && mv "$data.part" "$data"
    echo "gpu-check: wrote $data ($(du -h "$data" | cut -f1))"
  else
    echo "gpu-check: no $fm (apt-get install dataset-fashion-mnist): paper will train on the shipped subset"
  fi
  # What each call sends: the checkout (its tracked files) and what it carries, 64 MiB at most together.
  local tree; tree="$(cd "$root" && git ls-files -z 2>/dev/null | xargs -0 stat -c %s 2>/dev/null \
      | awk '{s += $1} END {print s + 0}')"
  local code tests_size data_size=0
  code=$(( tree + $(stat -c %s "$file") )) tests_size=$(stat -c %s "$beside/gridrun-gpu-tests.tar.xz")
  [ -f "$data" ] && data_size=$(stat -c %s "$data")
  echo "gpu-check: a call sends (MiB, of 64 at most): run $(( (code + tests_size) >> 20 )) (checkout, bundle, tests);" \
      "paper $(( (code + data_size) >> 20 )) (and data); lease $(( (code + tests_size + data_size) >> 20 )) (all)"
  # for paper, which keeps killed runs' checkpoints in its state as far as the next call's carry has room
  echo $(( code + tests_size + data_size )) > "$beside/carry-bytes"
  return 0
}

# Puts the full Fashion-MNIST together in DIR from paper's data (the .rest files there) and the subset in JAR,
# checking each file against SHA256SUMS; python3 only (the GPU machine has no unzip).
restore_fashion_mnist() {
  python3 - "$1" "$2" "$subset" <<'PY'
import gzip, hashlib, pathlib, sys, zipfile
out, jar, subset = pathlib.Path(sys.argv[1]), sys.argv[2], sys.argv[3]
with zipfile.ZipFile(jar) as z:
    for line in (out / "SHA256SUMS").read_text().splitlines():
        digest, name = line.split()
        rest = (out / (name + ".rest")).read_bytes()
        header = 16 if "images" in name else 8
        data = rest[:header] + gzip.decompress(z.read(subset + name + ".gz"))[header:] + rest[header:]
        if hashlib.sha256(data).hexdigest() != digest:
            sys.exit(f"gpu-check: {name} put back together does not match its SHA-256")
        (out / name).write_bytes(data)
        (out / (name + ".rest")).unlink()
PY
}

# Every step of run, in its order (GPU_CHECK_STEPS picks some).
all_steps="backends tests train train-eager train-vit train-lstm train-qsgd train-qsgd-eager compressors"
all_steps+=" compressors-kernels train-kernels train-pair quickstart quickstart-status"

# Runs a command, keeping its output in the log and its status for the summary; a step GPU_CHECK_STEPS leaves out is
# skipped, and GPU_CHECK_TIMEOUT bounds each step's seconds.
step() {
  local name="$1"; shift
  if [ -n "${GPU_CHECK_STEPS:-}" ] && [[ " $GPU_CHECK_STEPS " != *" $name "* ]]; then
    return 0
  fi
  echo "=== $name: $*" | tee -a "$log"
  local status=0 started command=("$@"); started=$(date +%s)
  if declare -F "$1" > /dev/null; then
    # a function of this script: timeout runs programs, so a bash that has it runs it
    export -f "$1"
    command=(bash -c '"$@"' _ "$@")
  fi
  if [ -n "${GPU_CHECK_TIMEOUT:-}" ]; then
    timeout --kill-after=10 "$GPU_CHECK_TIMEOUT" "${command[@]}" 2>&1 | tee -a "$log" || status=${PIPESTATUS[0]}
  else
    "${command[@]}" 2>&1 | tee -a "$log" || status=${PIPESTATUS[0]}
  fi
  echo "=== $name: exit $status after $(( $(date +%s) - started )) s" | tee -a "$log"
  results+=("$name|$status")
  [ "$status" = 0 ] || failed=1
}

# The paper-gpu trainer step (resnet20, 4 workers of 32, qinf at 3 bits, against none) timed by bench train alone, then
# in two processes at once on the same GPU, as the local pool runs paper-gpu (PoolSize: 2 a GPU). Two processes are
# two CUDA contexts, which the GPU time-slices: two at once pay only where a step of each pair takes less than twice
# the step alone. Arguments: the java and the unpacked bundle; BACKEND (default cuda), PAIR_WARMUP and PAIR_STEPS
# (default 20 and 200) let it be tried elsewhere.
pair_bench() {
  local java="$1" dir="$2" out status=0 first second
  out="$(mktemp -d)"
  local bench=("$java" -jar "$dir/grid-run.jar" bench train --backend "${BACKEND:-cuda}" --model resnet20
      --method qinf --set bits=3 --workers 4 --warmup "${PAIR_WARMUP:-20}" --steps "${PAIR_STEPS:-200}")
  echo "-- alone"
  "${bench[@]}" || return $?
  "${bench[@]}" > "$out/first" 2>&1 &
  first=$!
  "${bench[@]}" > "$out/second" 2>&1 &
  second=$!
  wait "$first" || status=$?
  wait "$second" || status=$?
  echo "-- two at once, the first"
  cat "$out/first"
  echo "-- two at once, the second"
  cat "$out/second"
  rm -rf "$out"
  return "$status"
}

# Every JVM here runs the host's quantizer kernels on the Vector API, as ./grid-run's do (a plain java -jar would run
# them scalar: same bits, slower).
vector_api() {
  [[ "${JDK_JAVA_OPTIONS:-}" == *jdk.incubator.vector* ]] \
      || export JDK_JAVA_OPTIONS="--add-modules=jdk.incubator.vector${JDK_JAVA_OPTIONS:+ $JDK_JAVA_OPTIONS}"
}

run_unpacked() {
  local dir; dir="$(cd "$1" && pwd)"
  local java="$dir/java/bin/java"
  complete_jar "$dir"
  local work; work="$(mktemp -d)"
  local keep="${GPU_CHECK_LOG_DIR:-$work}"
  mkdir -p "$keep"
  log="$keep/gpu-check.log"
  junit_dir="$work/junit"
  results=()
  failed=0
  export GRIDRUN_REQUIRE_CUDA=1
  # The emulator's cases ran wherever the tests ran without a GPU; here they would only spend the GPU's time.
  export GRIDRUN_SKIP_EMULATOR=1
  vector_api
  echo "gpu-check: log in $log"
  command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader \
      | tee -a "$log" || true
  step backends "$java" -jar "$dir/grid-run.jar" list backends
  # The CUDA backend's tests (every operation against the CPU, whole-model gradients, training runs) and the resume
  # tests, whose default backend (auto) is the GPU here; GPU_CHECK_TESTS (a regular expression of class names) runs
  # fewer, where a lease is short.
  local all_tests='^org\.gridrun\.engine\.(backend\.cuda\.(Cuda\w*|DeviceCodecTiming|RadixSelect|StepGraph)Test|train\.(ResumeTest|TrainJobTest))$'
  step tests "$java" -jar "$dir/junit.jar" execute --disable-banner --details=tree \
      --class-path "$dir/grid-run.jar:$dir/engine-tests.jar" --scan-classpath "$dir/engine-tests.jar" \
      --include-classname "${GPU_CHECK_TESTS:-$all_tests}" \
      ${GPU_CHECK_EXCLUDE_TESTS:+--exclude-classname "$GPU_CHECK_EXCLUDE_TESTS"} --reports-dir "$work/junit"
  # on a GPU both sides time blocks of 5 steps with one wait a block: 50 steps are 10 blocks
  step train "$java" -jar "$dir/grid-run.jar" bench train --backend cuda --steps 50
  step train-eager "$java" -jar "$dir/grid-run.jar" bench train --backend cuda --no-cuda-graph --no-torch
  step train-vit "$java" -jar "$dir/grid-run.jar" bench train --backend cuda --model vit
  step train-lstm "$java" -jar "$dir/grid-run.jar" bench train --backend cuda --model lstm
  # its graph runs the 4 workers' passes at the same time (concurrent_workers); a line under its row times none's
  # step with them one after another, in the same run
  step train-qsgd "$java" -jar "$dir/grid-run.jar" bench train --backend cuda --model resnet20 \
      --method qsgd --set bits=3 --workers 4 --steps 50
  step train-qsgd-eager "$java" -jar "$dir/grid-run.jar" bench train --backend cuda --model resnet20 \
      --method qsgd --set bits=3 --workers 4 --set cuda_graph=false
  step compressors "$java" -jar "$dir/grid-run.jar" bench compressors --backend cuda
  # Where the time goes: each kernel's device time (GRIDRUN_CUDA_PROFILE=1), for the level quantizers, the
  # selections and the slowest of the other device codecs on the H200 (smaq, s2fp8, mcgq, randomk, dgc), and for
  # the steps furthest from their goals, kernel by kernel (a graph's kernels are not timed alone).
  step compressors-kernels env GRIDRUN_CUDA_PROFILE=1 "$java" -jar "$dir/grid-run.jar" bench compressors \
      --backend cuda --method qsgd --method nuq --method topk --method jointsq --method smaq --method s2fp8 \
      --method mcgq --method randomk --method dgc --repeat 3
  step train-kernels env GRIDRUN_CUDA_PROFILE=1 "$java" -jar "$dir/grid-run.jar" bench train --backend cuda \
      --no-cuda-graph --no-torch --model resnet110 --model vit --model lstm --warmup 2 --steps 5
  step train-pair pair_bench "$java" "$dir"
  # The quick start as shipped, its defaults told to train on the GPU (auto would too; this names it).
  sed -e 's/^defaults:$/defaults:\n  backend: cuda/' "$dir/grids/quickstart.yaml" > "$work/quickstart-cuda.yaml"
  grep -q '^  backend: cuda' "$work/quickstart-cuda.yaml" || { echo "gpu-check: could not set backend: cuda"; exit 1; }
  step quickstart "$java" -jar "$dir/grid-run.jar" --grid "$work/quickstart-cuda.yaml" --workdir "$work/qs" --jobs 1
  step quickstart-status "$java" -jar "$dir/grid-run.jar" status --workdir "$work/qs"
  echo
  echo "== gpu-check summary (log: $log)"
  grep -E "tests (successful|failed|skipped|aborted)" "$log" | sed 's/^/  /' || true
  sed -n '/^=== train/,/^=== quickstart/p' "$log" | grep -v '^=== quickstart' | sed 's/^/  /' || true
  printf '%-20s %s\n' "step" "result"
  for r in "${results[@]}"; do
    printf '%-20s %s\n' "${r%%|*}" "$([ "${r##*|}" = 0 ] && echo ok || echo "FAILED (exit ${r##*|})")"
  done
  [ "$keep" = "$work" ] || tar -C "$work" -czf "$keep/junit-reports.tgz" junit 2>/dev/null || true
  return "$failed"
}

run() {
  local file="${1:-$default_bundle}"
  local work tests; work="$(mktemp -d)"; tests="$(dirname "$file")/gridrun-gpu-tests.tar.xz"
  xz -dc "$file" | tar -C "$work" -xf -
  if [ -f "$tests" ]; then
    xz -dc "$tests" | tar -C "$work" -xf -
  else
    echo "gpu-check: no $tests beside the bundle: the tests step will fail"
  fi
  run_unpacked "$work/gridrun-gpu"
}

# The paper-gpu grid on this GPU, whole or cut to STEPS steps a run (every run's schedule scaled alike: learning-rate
# drops, evaluations, variance logs and the adaptive methods' level fits). A lease is shorter than the whole grid, so
# the grid goes on from lease to lease:
#   PAPER_SECONDS=S  stops the grid after S seconds: grid-run sends its trainers SIGTERM, each records KILLED,
#                    and the next lease runs them again;
#   PAPER_OUT=D      writes the work so far to D/paper-state.tar.xz (the grid file as cut, the run directories and
#                    the store; of the checkpoints, the killed runs' that the next call's carry has room for, so
#                    that it resumes them bit for bit: see below);
#   PAPER_STATE=F    starts from such a state (default: paper-state.tar.xz beside FILE, when there), with its grid
#                    file, whatever STEPS says;
#   PAPER_RERUN='K=V …'  first runs again, from their first step, the state's completed runs that match (grid-run
#                    resubmit --completed --where K=V …: values of one key are alternatives), as after a fix.
# The full Fashion-MNIST is read from fashion-mnist.tar.xz beside FILE (PAPER_DATA), which bundle writes when
# Debian's dataset-fashion-mnist is installed; without it the runs train on the shipped 6,000-image subset and say
# so. PAPER_JOBS runs share the GPU at once (default 2: with 8, the H200 made fewer steps a second in all than one
# run alone does); PAPER_BACKEND (default cuda) lets the same steps be tried on a machine without a GPU. When every
# run has ended, prints the spec figures/paper-gpu.yaml's tables (Markdown) last. PAPER_SERIAL=1 makes a new grid
# run each run's workers one after another (concurrent_workers: false); lease sets it where the tests of workers at
# once (CudaWorkerLanesTest, StepGraphTest) failed on this GPU.
# The status files of paper-gpu's completed runs under the work directory $1, relative to it.
completed_status() {
  (cd "$1" && { grep -l '^COMPLETED' runs/paper-gpu/*/*/status 2>/dev/null || true; })
}

# paper-gpu's work directory $1 (its grid file, run directories and store; no reports or trainer locks) as the
# tar.xz $2, less what the tar options that follow leave out.
pack_state() {
  local work="$1" out="$2"
  shift 2
  tar -C "$work" --exclude=reports --exclude=.trainer.lock "$@" -cf - . | xz -T0 -6 > "$out"
}

# The checkpoints of paper-gpu's killed runs under the work directory $1 (relative to it), the most advanced first
# (the step its KILLED line names), as many as fit $2 bytes.
killed_checkpoints() {
  python3 - "$1" "$2" <<'PY'
import glob, os, re, sys
work, room = sys.argv[1], int(sys.argv[2])
found = []
for status in glob.glob(os.path.join(work, "runs/paper-gpu/*/*/status")):
    checkpoint = os.path.join(os.path.dirname(status), "checkpoint.bin")
    states = [line for line in open(status) if line.strip() and not line.startswith("#")]
    if not os.path.exists(checkpoint) or not states or not states[-1].startswith("KILLED"):
        continue
    at = re.search(r"at step (\d+)", states[-1])
    found.append((-int(at.group(1)) if at else 0, os.path.relpath(checkpoint, work), os.path.getsize(checkpoint)))
for _, path, size in sorted(found):
    if size <= room:
        print(path)
        room -= size
PY
}

# How many of paper-gpu's runs under the work directory $1 have completed.
completed_runs() {
  completed_status "$1" | wc -l
}

# Runs the command after $1 (paper's start, in seconds since the epoch) within what is left of PAPER_SECONDS, or
# unbounded without it: SIGTERM when the time is up, so its trainers save checkpoints; exit 124 with under 10 s left.
within_paper_seconds() {
  local started="$1"; shift
  if [ -z "${PAPER_SECONDS:-}" ]; then
    "$@"
    return
  fi
  local left=$((PAPER_SECONDS - ($(date +%s) - started)))
  [ "$left" -gt 10 ] || return 124
  timeout --signal=TERM --kill-after=60 "$left" "$@"
}

paper() {
  local file="${1:-$default_bundle}"
  local steps="${2:-5000}"
  local beside; beside="$(cd "$(dirname "$file")" && pwd)"
  local state="${PAPER_STATE:-$beside/paper-state.tar.xz}" data="${PAPER_DATA:-$beside/fashion-mnist.tar.xz}"
  local backend="${PAPER_BACKEND:-cuda}"
  # Fixed paths: a run resumed in the next lease finds its run directory, store and data where it left them.
  local top=/tmp/gridrun-paper
  local work="$top/work" dir="$top/gridrun-gpu" grid="$top/work/paper-gpu.yaml"
  rm -rf "$top" && mkdir -p "$work" "$top/data"
  xz -dc "$file" | tar -C "$top" -xf -
  complete_jar "$dir"
  if [ -f "$data" ]; then
    xz -dc "$data" | tar -C "$top/data" -xf -
    restore_fashion_mnist "$top/data" "$dir/grid-run.jar"
    export GRIDRUN_DATA_DIR="$top/data"
    echo "gpu-check: paper-gpu trains on the full Fashion-MNIST ($data)"
  else
    echo "gpu-check: no $data: paper-gpu trains on the shipped 6,000-image Fashion-MNIST subset"
  fi
  if [ -f "$state" ]; then
    xz -dc "$state" | tar -C "$work" -xf -
    [ -f "$grid" ] || { echo "gpu-check: $state holds no paper-gpu.yaml"; exit 1; }
    steps="$(sed -n 's/^  niters: \([0-9]*\).*/\1/p' "$grid")"
    echo "gpu-check: resuming paper-gpu ($steps steps a run) from $state: $(completed_runs "$work") of 26 runs" \
        "completed"
  else
    local d1=$((steps * 3 / 5)) d2=$((steps * 4 / 5)) every=$((steps >= 20 ? steps / 20 : 1))
    local f1=$((steps >= 50 ? steps / 50 : 1)) f2=$((steps >= 5 ? steps / 5 : 1)) f3=$((steps * 3 / 5))
    sed -e "s/^  niters: 5000/  niters: $steps/" -e "s/^  lr_decay_iters: '3000,4000'/  lr_decay_iters: '$d1,$d2'/" \
        -e "s/osnap_iter: '100,1000,3000'/osnap_iter: '$f1,$f2,$f3'/" \
        -e "s/^  chkpt_iter: 250 /  chkpt_iter: $every /" -e "s/^  gvar_log_iter: 250 /  gvar_log_iter: $every /" \
        -e "s/^defaults:$/defaults:\n  backend: $backend/" "$dir/grids/paper-gpu.yaml" > "$grid"
    grep -q "^  niters: $steps" "$grid" && grep -q "^  backend: $backend" "$grid" \
        && grep -q "osnap_iter: '$f1,$f2,$f3'" "$grid" \
        || { echo "gpu-check: could not set niters, the level fits and backend in paper-gpu.yaml"; exit 1; }
    if [ "${PAPER_SERIAL:-0}" = 1 ]; then
      sed -i -e "s/^  backend: $backend$/  backend: $backend\n  concurrent_workers: false/" "$grid"
      grep -q "^  concurrent_workers: false" "$grid" || { echo "gpu-check: could not set concurrent_workers"; exit 1; }
      echo "gpu-check: paper-gpu runs its workers one after another (PAPER_SERIAL=1)"
    fi
  fi
  nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader 2>/dev/null || true
  vector_api
  local java="$dir/java/bin/java" start status=0; start=$(date +%s)
  local command=("$java" -jar "$dir/grid-run.jar" --grid "$grid" --workdir "$work" --jobs "${PAPER_JOBS:-2}"
      --report-every 0)
  if [ -n "${PAPER_RERUN:-}" ]; then
    # runs the state holds as completed under code since fixed: run again from their first step, first
    local rerun=("$java" -jar "$dir/grid-run.jar" resubmit --grid "$grid" --workdir "$work" --completed
        --jobs "${PAPER_JOBS:-2}" --report-every 0) condition
    for condition in $PAPER_RERUN; do rerun+=(--where "$condition"); done
    echo "gpu-check: paper-gpu reruns its completed runs where $PAPER_RERUN"
    # its exit is not 0 while other runs of the grid have not completed; the grid's own run below says how it ends
    within_paper_seconds "$start" "${rerun[@]}" || true
  fi
  within_paper_seconds "$start" "${command[@]}" || status=$?
  local seconds=$(( $(date +%s) - start ))
  local done; done="$(completed_runs "$work")"
  echo "gpu-check: paper-gpu, $steps steps a run: $seconds s wall this time; $done of 26 runs completed"
  if [ -n "${PAPER_OUT:-}" ]; then
    mkdir -p "$PAPER_OUT"
    # Checkpoints stay behind (about 3 MB a run, barely compressible), except killed runs' as far as the next call's
    # carry has room for them (bundle's carry-bytes beside FILE, against PAPER_CARRY_MIB, default 64, less 1 MiB):
    # the most advanced first. A killed run with its checkpoint goes on from it in the next call, bit for bit; one
    # without starts again from its first step, with the same figures. PAPER_KEEP_CHECKPOINTS=1 keeps every one.
    local state="$PAPER_OUT/paper-state.tar.xz" room=0
    # packed first without checkpoints: the room they have is what that state leaves
    pack_state "$work" "$state" --exclude=checkpoint.bin
    if [ "${PAPER_KEEP_CHECKPOINTS:-0}" = 1 ]; then
      room=$(( 1 << 40 ))
    elif [ -f "$beside/carry-bytes" ]; then
      room=$(( ${PAPER_CARRY_MIB:-64} * 1048576 - $(cat "$beside/carry-bytes") - $(stat -c %s "$state") - 1048576 ))
    fi
    killed_checkpoints "$work" "$room" > "$top/kept-checkpoints"
    if [ -s "$top/kept-checkpoints" ]; then
      (cd "$work" && find . -name checkpoint.bin | sed 's|^\./||' | { grep -vxF -f "$top/kept-checkpoints" || true; }) \
          > "$top/left-out-checkpoints"
      pack_state "$work" "$state" -X "$top/left-out-checkpoints"
      echo "gpu-check: the state keeps the checkpoints of $(wc -l < "$top/kept-checkpoints") killed runs," \
          "which go on from them in the next call"
    fi
    echo "gpu-check: wrote $state ($(du -h "$state" | cut -f1))"
  fi
  if [ "$done" = 26 ]; then
    "$java" -jar "$dir/grid-run.jar" figures --spec "$dir/figures/paper-gpu.yaml" --workdir "$work" || status=$?
  elif [ "$status" = 124 ]; then
    echo "gpu-check: stopped after PAPER_SECONDS=$PAPER_SECONDS; the next lease goes on from the state"
    status=0
  fi
  [ "$status" = 0 ] || echo "gpu-check: paper-gpu exited $status (runs failed; see the table above and $work)"
  return "$status"
}

# Whether the JUnit reports under $1 hold a failure of the tests of the workers' passes at once.
lanes_failed() {
  [ -n "$1" ] && [ -d "$1" ] || return 1
  python3 - "$1" <<'PY'
import glob, sys, xml.etree.ElementTree as ET
failed = False
for report in glob.glob(sys.argv[1] + "/**/*.xml", recursive=True):
    for case in ET.parse(report).iter("testcase"):
        if case.get("classname", "").endswith((".CudaWorkerLanesTest", ".StepGraphTest")) \
                and (case.find("failure") is not None or case.find("error") is not None):
            failed = True
sys.exit(0 if failed else 1)
PY
}

# The tests of the workers' passes at once (concurrent_workers), which paper-gpu relies on.
lanes_tests='^org\.gridrun\.engine\.backend\.cuda\.(CudaWorkerLanes|StepGraph)Test$'

# One call of a short lease, LEASE_SECONDS long (default 560, under the device's 600 s a call), in three parts:
#   1. backends, and the tests of the workers' passes at once (lanes_tests), alone; where they fail, paper-gpu runs
#      each run's workers one after another (PAPER_SERIAL=1);
#   2. the other steps of GPU_CHECK_STEPS (the benches, the quick start), alone on the GPU, so that their timings
#      are the card's;
#   3. paper-gpu in the background for what is left (its log in paper.log), its state written to PAPER_OUT (default
#      GPU_CHECK_LOG_DIR) for the next call, while the other tests of GPU_CHECK_TESTS run beside it: they time
#      nothing, and a lease's minutes go to the grid instead of waiting for them.
# Each part keeps its log and JUnit reports in its own folder of GPU_CHECK_LOG_DIR (1-lanes, 2-steps, 3-tests); a
# summary of the three and the grid's table come last.
lease() {
  local file="${1:-$default_bundle}" started status=0 lanes=0 steps=0 tests=0 paper_status=0
  started=$(date +%s)
  local keep="${GPU_CHECK_LOG_DIR:-$(mktemp -d)}"
  local out="${PAPER_OUT:-$keep}"
  local wanted=" ${GPU_CHECK_STEPS:-$all_steps} " others="" name
  for name in $all_steps; do
    [[ "$wanted" != *" $name "* || "$name" = backends || "$name" = tests ]] || others+="$name "
  done
  mkdir -p "$keep"
  local part_steps="backends"
  [[ "$wanted" != *" tests "* ]] || part_steps+=" tests"
  GPU_CHECK_STEPS="$part_steps" GPU_CHECK_TESTS="$lanes_tests" GPU_CHECK_LOG_DIR="$keep/1-lanes" run "$file" || lanes=$?
  if lanes_failed "${junit_dir:-}"; then
    # the workers' passes at once did not give the bits of one after another here: the grid must not rely on them
    echo "gpu-check: CudaWorkerLanesTest or StepGraphTest failed: paper-gpu runs with concurrent_workers: false"
    export PAPER_SERIAL=1
  fi
  if [ -n "$others" ]; then
    GPU_CHECK_STEPS="$others" GPU_CHECK_LOG_DIR="$keep/2-steps" run "$file" || steps=$?
  fi
  local left=$(( ${LEASE_SECONDS:-560} - ($(date +%s) - started) - 60 )) pid=""
  if [ "$left" -ge 60 ]; then
    PAPER_SECONDS="$left" PAPER_OUT="$out" paper "$file" > "$keep/paper.log" 2>&1 &
    pid=$!
    echo "gpu-check: paper-gpu started for $left s (log: $keep/paper.log); the other tests run beside it"
  else
    echo "gpu-check: $left s left of LEASE_SECONDS after the check: no paper-gpu this call"
  fi
  if [[ "$wanted" = *" tests "* ]]; then
    # bounded by the grid's seconds, not GPU_CHECK_TIMEOUT: the GPU is shared with it now
    GPU_CHECK_STEPS="tests" GPU_CHECK_EXCLUDE_TESTS="$lanes_tests" GPU_CHECK_LOG_DIR="$keep/3-tests" \
        GPU_CHECK_TIMEOUT="$(( left > ${GPU_CHECK_TIMEOUT:-0} ? left : ${GPU_CHECK_TIMEOUT:-0} ))" run "$file" \
        || tests=$?
  fi
  if [ -n "$pid" ]; then
    wait "$pid" || paper_status=$?
    echo
    echo "== paper-gpu (the end of $keep/paper.log)"
    tail -n 40 "$keep/paper.log"
  fi
  echo
  echo "== gpu-check lease summary ($(( $(date +%s) - started )) s)"
  printf '%-34s %s\n' "1. backends, workers-at-once tests" "$([ "$lanes" = 0 ] && echo ok || echo "FAILED ($keep/1-lanes)")"
  printf '%-34s %s\n' "2. ${others:-no other steps}" "$([ "$steps" = 0 ] && echo ok || echo "FAILED ($keep/2-steps)")"
  printf '%-34s %s\n' "3. the other tests" "$([ "$tests" = 0 ] && echo ok || echo "FAILED ($keep/3-tests)")"
  printf '%-34s %s\n' "   paper-gpu beside them" "$([ -z "$pid" ] && echo "not run" \
      || { [ "$paper_status" = 0 ] && grep -h '^gpu-check: paper-gpu, ' "$keep/paper.log" | tail -n 1 \
      || echo "FAILED ($keep/paper.log)"; })"
  [ "$lanes" = 0 ] && [ "$steps" = 0 ] && [ "$tests" = 0 ] && [ "$paper_status" = 0 ]
}

case "${1:-}" in
  bundle) shift; bundle "$@" ;;
  run) shift; run "$@" ;;
  run-unpacked) shift; run_unpacked "${1:-$here}" ;;
  paper) shift; paper "$@" ;;
  lease) shift; lease "$@" ;;
  *) sed -n '2,28p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 2 ;;
esac
