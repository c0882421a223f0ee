package org.gridrun.analysis;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Direct SQL on a store, logged in with its secret, for assertions the public API does not expose. */
final class StoreTables {
    private StoreTables() {
    }

    /** The row count of every data table. */
    static Map<String, Long> counts(ResultsStore store) throws SQLException {
        Map<String, Long> counts = new LinkedHashMap<>();
        for (String table : List.of("experiments", "params", "runs", "metrics")) {
            counts.put(table, scalar(store.url(), "SELECT COUNT(*) FROM " + table));
        }
        return counts;
    }

    static long scalar(String url, String sql) throws SQLException {
        try (Connection c = StoreLogin.connect(url);
             Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    static void execute(String url, String sql) throws SQLException {
        try (Connection c = StoreLogin.connect(url); Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }
}
