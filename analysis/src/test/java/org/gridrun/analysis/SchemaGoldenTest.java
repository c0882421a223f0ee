package org.gridrun.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Seals the store's schema: every column of every table, as a fresh store at the latest version has it.
 *
 * <p>The golden file is {@code schema.golden} beside this class; a change of the schema must come with a new
 * migration script and an updated golden file, never with an edit of an applied script.
 */
class SchemaGoldenTest {
    private static final String COLUMNS = "SELECT table_name, column_name, data_type, is_nullable "
            + "FROM information_schema.columns WHERE table_schema = 'PUBLIC' ORDER BY table_name, ordinal_position";

    @Test
    void aFreshStoreHasTheSealedSchema() throws Exception {
        String url = "jdbc:h2:mem:golden";
        List<String> lines = new ArrayList<>();
        try (ResultsStore store = ResultsStore.openUrl(url);
             Connection c = DriverManager.getConnection(url, "sa", "");
             Statement s = c.createStatement(); ResultSet rs = s.executeQuery(COLUMNS)) {
            while (rs.next()) {
                lines.add(rs.getString(1).toLowerCase() + "." + rs.getString(2).toLowerCase() + " " + rs.getString(3)
                        + ("NO".equals(rs.getString(4)) ? " NOT NULL" : ""));
            }
        }
        assertEquals(golden(), String.join("\n", lines) + "\n");
    }

    private static String golden() throws Exception {
        try (InputStream in = SchemaGoldenTest.class.getResourceAsStream("schema.golden")) {
            return in == null ? "(no golden file)" : new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
