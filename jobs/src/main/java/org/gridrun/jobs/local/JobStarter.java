package org.gridrun.jobs.local;

import java.io.IOException;
import org.gridrun.engine.run.RunDir;

/** Starts the process that trains one run directory: {@link JobLauncher}'s child JVM, or a test's stand-in. */
public interface JobStarter {
    /** Starts the job of {@code dir} in pool slot {@code slot} ({@link org.gridrun.engine.backend.GpuSlot}). */
    Process start(RunDir dir, int slot) throws IOException;
}
