package org.gridrun.jobs.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.gridrun.engine.train.Headline;
import org.gridrun.engine.train.TrainListener;
import org.junit.jupiter.api.Test;

/** Progress output: a bar redrawn in place on a terminal, plain lines anywhere else. */
class ProgressBarListenerTest {
    private static String replay(boolean terminal) {
        return replay(terminal, Headline.ACCURACY);
    }

    private static String replay(boolean terminal, Headline headline) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        TrainListener listener = ProgressBarListener.forOutput(out, terminal);
        listener.onStart("mlp on fashion-mnist");
        listener.onLog(10, 20, 0.5, 1234);
        listener.onLog(20, 20, 0.25, 2345);
        listener.onEval(20, headline, 0.3, 0.875);
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void notATerminalGetsPlainLines() {
        String text = replay(false);
        assertFalse(text.contains("\r"), text);
        assertEquals(String.join(System.lineSeparator(), "mlp on fashion-mnist",
                "step 10/20  loss 0.5000  1234 samples/s", "step 20/20  loss 0.2500  2345 samples/s",
                "step 20  test loss 0.3000  test accuracy 87.50%", ""), text);
    }

    @Test
    void aTerminalGetsOneLineRedrawnWithStepLossAccuracyAndThroughput() {
        String text = replay(true);
        assertTrue(text.contains("\r[###############               ] 10/20  loss 0.5000  acc -  1234 samples/s"), text);
        assertTrue(text.endsWith("\r[" + "#".repeat(30) + "] 20/20  loss 0.2500  acc 87.50%  2345 samples/s"
                + System.lineSeparator()), text);
    }

    @Test
    void aLanguageModelShowsItsPerplexityNotItsAccuracy() {
        assertTrue(replay(false, Headline.PERPLEXITY).contains("step 20  test loss 0.3000  test perplexity 1.35"
                + System.lineSeparator()));
        assertTrue(replay(true, Headline.PERPLEXITY).contains("20/20  loss 0.2500  ppl 1.35  2345 samples/s"));
    }
}
