package org.gridrun.reports;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.gridrun.analysis.SeedSummary;
import org.junit.jupiter.api.Test;

class FormatsTest {
    @Test
    void bitsUseDecimalUnits() {
        assertEquals("512 bit", Formats.bits(512));
        assertEquals("203.5 kbit", Formats.bits(203_500));
        assertEquals("3.2 Mbit", Formats.bits(3_200_000));
        assertEquals("1.0 Gbit", Formats.bits(1e9));
        assertEquals(Formats.MISSING, Formats.bits(Double.NaN));
    }

    @Test
    void meanAndStdAreScaledWithTwoDecimals() {
        assertEquals("92.00 ± 1.41", Formats.meanStd(SeedSummary.of(new double[] {0.91, 0.93}), 100));
        assertEquals("91.00", Formats.meanStd(SeedSummary.of(new double[] {0.91}), 100));
        assertEquals(Formats.MISSING, Formats.meanStd(SeedSummary.of(new double[0]), 100));
    }

    @Test
    void htmlSpecialCharactersAreEscaped() {
        assertEquals("a &lt;b&gt; &amp; &quot;c&quot; &#39;d&#39;", Html.escape("a <b> & \"c\" 'd'"));
        assertEquals("<td>x &lt; y</td>", Html.element("td", "x < y"));
    }
}
