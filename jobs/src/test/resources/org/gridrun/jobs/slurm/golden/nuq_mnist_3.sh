#!/bin/bash
# Written by grid-run 1.0 for grid nuq, run mnist: task script 3, 2 experiments in parallel, then wait.
export OPENBLAS_NUM_THREADS=${OPENBLAS_NUM_THREADS:-1} OMP_NUM_THREADS=${OMP_NUM_THREADS:-1}
trap 'kill -USR1 $(jobs -pr) 2>/dev/null' USR1
train() { exec "$GRIDRUN_JAVA" --add-modules jdk.incubator.vector -XX:MaxRAMPercentage=37.5 $GRIDRUN_JAVA_OPTS -Djava.awt.headless=true -cp "$GRIDRUN_CLASSPATH" org.gridrun.jobs.cli.GridRun train "$@"; }
d=runs/nuq/mnist/mnist_003_method_qsgd; mkdir -p "$d"
GRIDRUN_GPU_SLOT=0 train --experiment '{"grid":"nuq","run":"mnist","name":"mnist_003_method_qsgd"}' "$d" >> "$d/log" 2>&1 &
d='runs/nuq/mnist/mnist_007_method_it'\''s'; mkdir -p "$d"
GRIDRUN_GPU_SLOT=1 train --experiment '{"name":"mnist_007_method_it'\''s"}' "$d" >> "$d/log" 2>&1 &
while [ -n "$(jobs -pr)" ]; do wait; done
