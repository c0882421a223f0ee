#!/usr/bin/env bash
# The GPU check of gridrun's CUDA backend, for a Linux x86-64 machine with an NVIDIA GPU and no Java or network.
#
#   scripts/gpu-check.sh bundle [FILE]   here (Java 17+, Maven, xz, zip): builds the self-contained bundle FILE
#                                        (default target/gpu-bundle/gridrun-gpu.tar.xz): a jlinked Java runtime,
#                                        the shaded grid-run.jar, the engine's tests with JUnit's console launcher,
#                                        this script and the quick-start grid (the Fashion-MNIST subset is in the jar)
#   scripts/gpu-check.sh run [FILE]      on the GPU machine: unpacks the bundle and runs the CUDA tests with
#                                        GRIDRUN_REQUIRE_CUDA=1 (a missing GPU fails instead of skipping), the
#                                        resume tests (backend auto picks the GPU), grid-run bench train --backend
#                                        cuda beside PyTorch when python3 imports a CUDA torch, bench compressors
#                                        --backend cuda against a device copy, and a short quick
#                                        start on cuda; prints a summary table last and exits non-zero on a failure
#                                        Environment: GPU_CHECK_STEPS="tests train ..." runs only the steps named
#                                        (backends tests train train-eager train-vit train-lstm train-qsgd
#                                        train-qsgd-eager compressors compressors-kernels train-kernels quickstart
#                                        quickstart-status; default all), GPU_CHECK_TIMEOUT=S
#                                        stops each step after S seconds, GPU_CHECK_LOG_DIR=D keeps the log and the
#                                        JUnit reports in D
#   scripts/gpu-check.sh paper FILE [STEPS]  on the GPU machine: the paper-gpu grid on cuda, every run cut to STEPS
#                                        steps (default 5000, the whole grid) with its schedule scaled; prints the
#                                        grid's table and the wall time, scaled to 5000 steps
#
# Copy the bundle and this script to the GPU machine (or run from a checkout that has both); the bundle alone also
# works: tar xf gridrun-gpu.tar.xz && gridrun-gpu/gpu-check.sh run-unpacked gridrun-gpu
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
default_bundle="$root/target/gpu-bundle/gridrun-gpu.tar.xz"
junit_version=1.10.3

bundle() {
  local file="${1:-$default_bundle}"
  local work; work="$(mktemp -d)"
  trap 'rm -rf "$work"' RETURN
  local dir="$work/gridrun-gpu"
  mkdir -p "$dir" "$(dirname "$file")"
  echo "gpu-check: building gridrun and its tests (Maven)" >&2
  (cd "$root" && mvn -B -q -ntp -DskipTests package \
      && mvn -B -q -ntp -pl engine test-compile \
      && mvn -B -q -ntp dependency:copy -Dartifact="org.junit.platform:junit-platform-console-standalone:$junit_version" \
           -DoutputDirectory="$work" -Dmdep.stripVersion=true)
  cp "$root/jobs/target/grid-run.jar" "$dir/"
  # The CPU's bundled natives (OpenBLAS, oneDNN: tens of MB) stay behind: the bundle must stay under the device's
  # 64 MiB, and on the GPU machine the CPU backend, used only as the agreement tests' reference, falls back to its
  # Java paths without them (list backends says so).
  if unzip -l "$dir/grid-run.jar" 'org/bytedeco/*/linux-x86_64/*' >/dev/null 2>&1; then
    zip -q -d "$dir/grid-run.jar" 'org/bytedeco/*/linux-x86_64/*'
  fi
  jar --create --file "$dir/engine-tests.jar" -C "$root/engine/target/test-classes" .
  cp "$work/junit-platform-console-standalone.jar" "$dir/junit.jar"
  cp "$here/gpu-check.sh" "$dir/"
  mkdir -p "$dir/grids" && cp "$root/grids/quickstart.yaml" "$root/grids/paper-gpu.yaml" "$dir/grids/"
  echo "gpu-check: linking a Java runtime (jlink)" >&2
  local modules
  modules="$(jdeps --multi-release 17 --print-module-deps --ignore-missing-deps "$dir/grid-run.jar"),jdk.unsupported,jdk.crypto.ec,jdk.zipfs"
  jlink --add-modules "$modules" --strip-debug --no-man-pages --no-header-files \
      --strip-native-debug-symbols=exclude-debuginfo-files --output "$dir/java" 2>/dev/null
  echo "gpu-check: compressing" >&2
  tar -C "$work" -cf - gridrun-gpu | xz -T2 -6 > "$file"
  echo "gpu-check: wrote $file ($(du -h "$file" | cut -f1))"
}

# Runs a command, keeping its output in the log and its status for the summary; a step GPU_CHECK_STEPS leaves out is
# skipped, and GPU_CHECK_TIMEOUT bounds each step's seconds.
step() {
  local name="$1"; shift
  if [ -n "${GPU_CHECK_STEPS:-}" ] && [[ " $GPU_CHECK_STEPS " != *" $name "* ]]; then
    return 0
  fi
  echo "=== $name: $*" | tee -a "$log"
  local status=0 started; started=$(date +%s)
  if [ -n "${GPU_CHECK_TIMEOUT:-}" ]; then
    timeout --kill-after=10 "$GPU_CHECK_TIMEOUT" "$@" 2>&1 | tee -a "$log" || status=${PIPESTATUS[0]}
  else
    "$@" 2>&1 | tee -a "$log" || status=${PIPESTATUS[0]}
  fi
  echo "=== $name: exit $status after $(( $(date +%s) - started )) s" | tee -a "$log"
  results+=("$name|$status")
  [ "$status" = 0 ] || failed=1
}

run_unpacked() {
  local dir; dir="$(cd "$1" && pwd)"
  local java="$dir/java/bin/java"
  local work; work="$(mktemp -d)"
  local keep="${GPU_CHECK_LOG_DIR:-$work}"
  mkdir -p "$keep"
  log="$keep/gpu-check.log"
  results=()
  failed=0
  export GRIDRUN_REQUIRE_CUDA=1
  # The emulator's cases ran wherever the tests ran without a GPU; here they would only spend the GPU's time.
  export GRIDRUN_SKIP_EMULATOR=1
  echo "gpu-check: log in $log"
  command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader \
      | tee -a "$log" || true
  step backends "$java" -jar "$dir/grid-run.jar" list backends
  # The CUDA backend's tests (every operation against the CPU, whole-model gradients, training runs) and the resume
  # tests, whose default backend (auto) is the GPU here.
  step tests "$java" -jar "$dir/junit.jar" execute --disable-banner --details=tree \
      --class-path "$dir/grid-run.jar:$dir/engine-tests.jar" --scan-classpath "$dir/engine-tests.jar" \
      --include-classname '^org\.gridrun\.engine\.(backend\.cuda\.(Cuda\w*|DeviceCodecTiming|StepGraph)Test|train\.(ResumeTest|TrainJobTest))$' \
      --reports-dir "$work/junit"
  step train "$java" -jar "$dir/grid-run.jar" bench train --backend cuda
  step train-eager "$java" -jar "$dir/grid-run.jar" bench train --backend cuda --no-cuda-graph --no-torch
  step train-vit "$java" -jar "$dir/grid-run.jar" bench train --backend cuda --model vit
  step train-lstm "$java" -jar "$dir/grid-run.jar" bench train --backend cuda --model lstm
  step train-qsgd "$java" -jar "$dir/grid-run.jar" bench train --backend cuda --model resnet20 \
      --method qsgd --set bits=3 --workers 4
  step train-qsgd-eager "$java" -jar "$dir/grid-run.jar" bench train --backend cuda --model resnet20 \
      --method qsgd --set bits=3 --workers 4 --set cuda_graph=false
  step compressors "$java" -jar "$dir/grid-run.jar" bench compressors --backend cuda
  # Where the time goes: each kernel's device time (GRIDRUN_CUDA_PROFILE=1), for the level quantizers and the
  # selections, and for the steps furthest from their goals, kernel by kernel (a graph's kernels are not timed alone).
  step compressors-kernels env GRIDRUN_CUDA_PROFILE=1 "$java" -jar "$dir/grid-run.jar" bench compressors \
      --backend cuda --method qsgd --method nuq --method topk --method jointsq --repeat 3
  step train-kernels env GRIDRUN_CUDA_PROFILE=1 "$java" -jar "$dir/grid-run.jar" bench train --backend cuda \
      --no-cuda-graph --no-torch --model resnet110 --model vit --model lstm --warmup 2 --steps 5
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
  local work; work="$(mktemp -d)"
  xz -dc "$file" | tar -C "$work" -xf -
  run_unpacked "$work/gridrun-gpu"
}

# The paper-gpu grid on this GPU, whole or cut to STEPS steps a run (every run's schedule scaled alike: learning-rate
# drops, evaluations, variance logs and the adaptive methods' level fits) to time it
# within a short lease: the wall time of STEPS steps times 5000/STEPS estimates the whole grid's. PAPER_JOBS runs
# share the GPU at once (default 8). Prints the grid's table last.
paper() {
  local file="${1:-$default_bundle}"
  local steps="${2:-5000}"
  local work; work="$(mktemp -d)"
  xz -dc "$file" | tar -C "$work" -xf -
  local dir="$work/gridrun-gpu"
  local grid="$work/paper-gpu.yaml"
  local d1=$((steps * 3 / 5)) d2=$((steps * 4 / 5)) every=$((steps >= 20 ? steps / 20 : 1))
  local f1=$((steps >= 50 ? steps / 50 : 1)) f2=$((steps >= 5 ? steps / 5 : 1)) f3=$((steps * 3 / 5))
  sed -e "s/^  niters: 5000/  niters: $steps/" -e "s/^  lr_decay_iters: '3000,4000'/  lr_decay_iters: '$d1,$d2'/" \
      -e "s/osnap_iter: '100,1000,3000'/osnap_iter: '$f1,$f2,$f3'/" \
      -e "s/^  chkpt_iter: 250 /  chkpt_iter: $every /" -e "s/^  gvar_log_iter: 250 /  gvar_log_iter: $every /" \
      -e 's/^defaults:$/defaults:\n  backend: cuda/' "$dir/grids/paper-gpu.yaml" > "$grid"
  grep -q "^  niters: $steps" "$grid" && grep -q '^  backend: cuda' "$grid" \
      && grep -q "osnap_iter: '$f1,$f2,$f3'" "$grid" \
      || { echo "gpu-check: could not set niters, the level fits and backend in paper-gpu.yaml"; exit 1; }
  nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader 2>/dev/null || true
  local start status=0; start=$(date +%s)
  "$dir/java/bin/java" -jar "$dir/grid-run.jar" --grid "$grid" --workdir "$work/pg" --jobs "${PAPER_JOBS:-8}" \
      --report-every 0 || status=$?
  local seconds=$(( $(date +%s) - start ))
  echo "gpu-check: paper-gpu, $steps steps a run: $seconds s wall; 5000 steps a run: about $((seconds * 5000 / steps)) s"
  [ "$status" = 0 ] || echo "gpu-check: paper-gpu exited $status (runs failed; see the table above and $work/pg)"
  return "$status"
}

case "${1:-}" in
  bundle) shift; bundle "$@" ;;
  run) shift; run "$@" ;;
  run-unpacked) shift; run_unpacked "${1:-$here}" ;;
  paper) shift; paper "$@" ;;
  *) sed -n '2,19p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 2 ;;
esac
