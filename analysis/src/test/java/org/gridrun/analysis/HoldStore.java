package org.gridrun.analysis;

import java.io.IOException;
import java.nio.file.Path;

/**
 * What the holding process of {@link StoreSecretTest} does in its own JVM: opens the store at {@code args[0]} for
 * itself alone, as {@code grid-run db serve} does, says {@code open}, and holds it until its input closes.
 */
final class HoldStore {
    private HoldStore() {
    }

    public static void main(String[] args) throws IOException {
        try (ResultsStore store = ResultsStore.openFile(Path.of(args[0]), false)) {
            System.out.println("open");
            System.out.flush();
            while (System.in.read() >= 0) {
                // hold until the test closes our input
            }
        }
    }
}
