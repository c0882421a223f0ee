package org.gridrun.jobs.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a user sees of a failure: a bad file is exit 2 and one line; exception names only under --verbose. */
class ErrorHandlerTest {
    @TempDir
    Path tmp;

    @Test
    void aBadFileIsOneLineAndItsTraceComesOnlyWithVerbose() throws Exception {
        Path file = Files.write(tmp.resolve("g.npy"), new byte[] {1, 2, 3});
        Cli.Result plain = Cli.run(tmp, "compress", "-m", "qsgd", "-i", file.toString());
        assertEquals(2, plain.exit());
        assertEquals(1, plain.err().strip().lines().count(), plain.err());
        assertFalse(plain.err().contains("Exception"), plain.err());

        Cli.Result verbose = Cli.run(tmp, "compress", "-m", "qsgd", "-i", file.toString(), "--verbose");
        assertEquals(2, verbose.exit());
        assertTrue(verbose.err().startsWith(plain.err().strip()), verbose.err());
        assertTrue(verbose.err().contains("org.gridrun.engine.run.BadFileException: " + file), verbose.err());
    }

    @Test
    void aFailureWithoutAMessageNeverShowsItsClassName() {
        Cli.Result r = FuzzTally.throughErrorHandler(() -> {
            throw new NullPointerException();
        });
        assertEquals(1, r.exit());
        assertEquals("grid-run: error: an internal error without a message\n"
                + "(run again with --verbose for the stack trace)", r.err().strip());
    }
}
