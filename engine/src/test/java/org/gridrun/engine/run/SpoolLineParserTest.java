package org.gridrun.engine.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

class SpoolLineParserTest {
    private final SpoolLineParser parser = new SpoolLineParser(false);

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
            assertEquals(r, parse(new SpoolLineParser(true), SpoolLineParser.line(r.name(), r.step(), r.value(),
                    r.wallMillis())));
        }
    }

    @Test
    void aCheckedLineChangedInAnyOneByteIsNoRecord() {
        SpoolLineParser checked = new SpoolLineParser(true);
        String line = SpoolLineParser.line("loss", 12, 0.25, 1_700_000_000_012L);
        assertEquals("loss,12,0.25,1700000000012," + line.substring(line.lastIndexOf(',') + 1), line);
        Random random = new Random(7);
        for (int i = 0; i < line.length(); i++) {
            char[] damaged = line.toCharArray();
            damaged[i] = (char) ('0' + (damaged[i] - '0' + 1 + random.nextInt(9)) % 10);
            if (!String.valueOf(damaged).equals(line)) {
                assertNull(parse(checked, String.valueOf(damaged)), String.valueOf(damaged));
                assertNull(parse(String.valueOf(damaged)), "an older spool verifies checked lines too");
            }
        }
        assertNull(parse(checked, line.substring(0, line.lastIndexOf(','))), "a checked spool needs the checksum");
        assertNull(parse(checked, line.toUpperCase(java.util.Locale.ROOT).replace("LOSS", "loss")), "lowercase hex");
    }

    @Test
    void theParserOfASpoolIsCheckedWhenItsHeaderSaysSo() {
        byte[] checked = (MetricSpool.HEADER + "\n").getBytes(StandardCharsets.US_ASCII);
        byte[] older = (MetricSpool.UNCHECKED_HEADER + "\nloss,1,2.0,3\n").getBytes(StandardCharsets.US_ASCII);
        assertNull(parse(SpoolLineParser.forSpool(checked), "loss,1,2.0,3"));
        assertEquals(new MetricRecord("loss", 1, 2.0, 3), parse(SpoolLineParser.forSpool(older), "loss,1,2.0,3"));
        assertTrue(SpoolLineParser.isHeader(checked, 0, checked.length - 1));
    }

    @Test
    void linesThatAreNotRecordsParseToNull() {
        for (String line : new String[]{"name,step,value,wall_ms", "", "loss,1,2.0", "loss,1,2.0,3,4",
                "loss,1,2.0,3,0000000g", ",1,2.0,3",
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
        return parse(parser, line);
    }

    private static MetricRecord parse(SpoolLineParser parser, String line) {
        byte[] bytes = ("xx" + line + "\n").getBytes(StandardCharsets.UTF_8);
        return parser.parse(bytes, 2, bytes.length - 1);
    }
}
