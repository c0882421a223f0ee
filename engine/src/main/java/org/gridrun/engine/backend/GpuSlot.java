package org.gridrun.engine.backend;

import java.util.Map;

/**
 * Which of the visible GPUs a job trains on: its slot among the jobs that run at once, modulo the GPUs.
 *
 * <p>gridrun's launchers set {@link #VARIABLE} in each job's environment: the local executor to the job's slot in
 * its pool (0 up to {@code --jobs} − 1, a finished job's slot going to the next one), a SLURM task script to the
 * experiment's place in the script (0, 1, …). Slot {@code s} then opens visible GPU {@code s mod n} of the {@code n}
 * the driver shows the job ({@code CUDA_VISIBLE_DEVICES}, or the GPUs a batch system allocated), so jobs at once
 * spread over the GPUs evenly. A job started without it (a {@code grid-run train} by hand) opens GPU 0.
 */
public final class GpuSlot {
    /** The environment variable holding a job's slot. */
    public static final String VARIABLE = "GRIDRUN_GPU_SLOT";

    private GpuSlot() {
    }

    /**
     * The GPU ordinal of the job whose environment is {@code environment}, among {@code visible} GPUs (at least 1).
     *
     * @throws IllegalStateException when the variable is set to anything but a whole number of 0 or more
     */
    public static int ordinal(Map<String, String> environment, int visible) {
        if (visible < 1) {
            throw new IllegalArgumentException("no visible GPU to choose from: " + visible);
        }
        String text = environment.get(VARIABLE);
        if (text == null || text.isBlank()) {
            return 0;
        }
        int slot;
        try {
            slot = Integer.parseInt(text.strip());
        } catch (NumberFormatException e) {
            slot = -1;
        }
        if (slot < 0) {
            throw new IllegalStateException(VARIABLE + " must be a whole number of 0 or more (the job's slot, which "
                    + "picks GPU slot mod " + visible + "), found '" + text + "'");
        }
        return slot % visible;
    }
}
