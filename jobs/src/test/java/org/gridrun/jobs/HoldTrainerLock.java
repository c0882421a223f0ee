package org.gridrun.jobs;

import java.io.IOException;
import org.gridrun.engine.run.RunDir;

/**
 * What the other process of {@link ReconcilerTest} does: takes the trainer lock of the run directory
 * {@code args[0]}, as a trainer that has just started does, says {@code held}, and keeps it until its input closes.
 */
final class HoldTrainerLock {
    private HoldTrainerLock() {
    }

    public static void main(String[] args) throws IOException {
        try (TrainerLock lock = TrainerLock.tryAcquire(RunDir.at(java.nio.file.Path.of(args[0]))).orElseThrow()) {
            System.out.println("held");
            System.out.flush();
            while (System.in.read() >= 0) {
                // hold until the test closes our input
            }
        }
    }
}
