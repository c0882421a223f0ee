package org.gridrun.jobs.slurm;

import org.gridrun.jobs.UserInputException;

/**
 * The seed's {@code --cluster_args N,T,P}: at most N task scripts (array tasks), at most T running at once, on
 * partition P.
 *
 * @param scripts    the number of task scripts; 0 for one per experiment
 * @param concurrent the most array tasks running at once; 0 for no limit
 * @param partition  the partition, or null for the grid's {@code slurm: partition}
 */
public record ClusterArgs(int scripts, int concurrent, String partition) {
    /** One script per experiment, no limit, the grid's partition. */
    public static final ClusterArgs DEFAULT = new ClusterArgs(0, 0, null);

    /**
     * Parses {@code N,T,P}; any part may be left empty ({@code ,,gpu}) and trailing parts left out ({@code 8}).
     *
     * @throws UserInputException naming the part that is not a positive integer
     */
    public static ClusterArgs parse(String text) {
        if (text == null || text.isBlank()) {
            return DEFAULT;
        }
        String[] parts = text.split(",", 3);
        int scripts = number(parts, 0, "N (the number of task scripts)");
        int concurrent = number(parts, 1, "T (the most tasks running at once)");
        String partition = parts.length > 2 && !parts[2].isBlank() ? parts[2].trim() : null;
        return new ClusterArgs(scripts, concurrent, partition);
    }

    private static int number(String[] parts, int index, String what) {
        if (parts.length <= index || parts[index].isBlank()) {
            return 0;
        }
        try {
            int value = Integer.parseInt(parts[index].trim());
            if (value >= 1) {
                return value;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new UserInputException("--cluster-args N,T,P: " + what + " must be a positive integer, found '"
                + parts[index].trim() + "'");
    }
}
