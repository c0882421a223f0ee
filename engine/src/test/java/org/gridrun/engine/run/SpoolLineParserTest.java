package org.gridrun.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.gridrun.engine.run.MetricRecord;
import org.junit.jupiter.api.Test;

class SpoolLineParserTest {
    private final SpoolLineParser parser = new SpoolLineParser();

    @Test
    void randomRecordsWrittenAsTheSpoolWritesThemParseBack() {
        Random random = new Random(42);
        String[] names = {"loss", "Vacc", "levels/3", "débit", "bytes_sent"};
        for (int i = 0; i < 20_000; i++) {
            long step = i % 7 == 0 ? random.nextLong() : random.nextInt(1_000_000);
            double value = i % 5 == 0 ? Double.longBitsToDouble(random.nextLong()) : random.nextGaussian() * 1e3;
            if (Double.isNaN(value)) {
                value = Double.NaN;
            }
            MetricRecord r = new MetricRecord(names[i % names.length], step, value, random.nextLong());
            assertEquals(r, parse(r.name() + "," + r.step() + "," + r.value() + "," + r.wallMillis()));
        }
    }

    @Test
    void linesThatAreNotRecordsParseToNull() {
        for (String line : new String[]{"name,step,value,wall_ms", "", "loss,1,2.0", "loss,1,2.0,3,4", ",1,2.0,3",
                "loss,x,2.0,3", "loss,1,two,3", "loss,1,2.0,", "loss,-,2.0,3", "loss,99999999999999999999,1,1",
                "loss,1.5,2.0,3"}) {
            assertNull(parse(line), line);
        }
    }

    @Test
    void aNameAmongTheRememberedOnesIsNotConfusedWithItsPrefix() {
        assertEquals("loss", parse("loss,1,1.0,1").name());
        assertEquals("los", parse("los,1,1.0,1").name());
        assertEquals("loss2", parse("loss2,1,1.0,1").name());
    }

    private MetricRecord parse(String line) {
        byte[] bytes = ("xx" + line + "\n").getBytes(StandardCharsets.UTF_8);
        return parser.parse(bytes, 2, bytes.length - 1);
    }
}
