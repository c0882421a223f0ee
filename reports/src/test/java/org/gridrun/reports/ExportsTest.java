package org.gridrun.reports;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The CSV and LaTeX exports escape what would break their formats. */
class ExportsTest {
    @Test
    void csvQuotesFieldsWithCommasQuotesLineBreaksAndOuterSpace() {
        assertEquals("plain", Csv.field("plain"));
        assertEquals("\"method=qsgd, bits=4\"", Csv.field("method=qsgd, bits=4"));
        assertEquals("\"say \"\"hi\"\"\"", Csv.field("say \"hi\""));
        assertEquals("\"two\nlines\"", Csv.field("two\nlines"));
        assertEquals("\" padded\"", Csv.field(" padded"));
        assertEquals("", Csv.field(null));
        assertEquals("a,b\n\"x,y\",2\n", Csv.render(List.of("a", "b"), List.of(List.of("x,y", "2"))));
    }

    @Test
    void csvCellsKeepExactTextAndFullPrecisionNumbers() {
        assertEquals("4", new Cell("4.0", null, 4.0).csv());
        assertEquals("x", Cell.text("x").csv());
        assertEquals("0.123456789", Cell.number(0.123456789).csv());
        assertEquals("0.1235", Cell.number(0.123456789).text());
        assertEquals("NaN", Cell.number(Double.NaN).csv());
        assertEquals("", Cell.measured(1, false).csv());
    }

    @Test
    void latexEscapesItsSpecialCharacters() {
        assertEquals("top\\_k 50\\% \\& \\$x\\$ \\#1 \\{a\\} \\textasciitilde{}\\textasciicircum{}\\textbackslash{}",
                Latex.escape("top_k 50% & $x$ #1 {a} ~^\\"));
    }

    @Test
    void latexTablesAreBooktabsWithEscapedTextAndMathAsGiven() {
        String tex = Latex.table(List.of("group", "seeds", "Vacc"), 1,
                List.of(List.of("method=top_k", "2", "$0.9 \\pm 0.1$")));
        assertEquals("""
                \\begin{tabular}{lrr}
                \\toprule
                group & seeds & Vacc \\\\
                \\midrule
                method=top\\_k & 2 & $0.9 \\pm 0.1$ \\\\
                \\bottomrule
                \\end{tabular}
                """, tex);
    }

    @Test
    void slugsAreSafeStableAndDistinct() {
        Slugs slugs = new Slugs();
        assertEquals("levels_3", slugs.of("levels/3"));
        assertEquals("levels_3-2", slugs.of("levels_3"));
        assertEquals("levels_3", slugs.of("levels/3"));
        assertEquals("_.hidden", slugs.of(".hidden"));
        assertTrue(slugs.of("a b<c>").matches("[A-Za-z0-9._-]+"));
        assertEquals("s0", slugs.of("id-1", "s0"));
        assertEquals("s0-2", slugs.of("id-2", "s0"), "same name in another run");
        assertEquals("s0", slugs.of("id-1", "s0"));
    }
}
