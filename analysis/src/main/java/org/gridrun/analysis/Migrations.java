package org.gridrun.analysis;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * Brings a store's schema up to the version this code knows, one ordered SQL script at a time.
 *
 * <p>Script {@code n} (1-based) of {@link #SCRIPTS} takes the schema from version {@code n - 1} to {@code n}. Each
 * runs in one transaction with the row that records it in {@code schema_version}; note that H2 commits DDL
 * statements implicitly, so the scripts use {@code IF NOT EXISTS} to be safe to re-run after a failure half-way.
 */
final class Migrations {
    /** The migration scripts in order; append new ones, never edit or reorder applied ones. */
    static final List<String> SCRIPTS = List.of("V1__initial.sql", "V2__jobs.sql", "V3__attempts.sql",
            "V4__metric_blocks.sql");

    private static final String RESOURCE_DIR = "/org/gridrun/analysis/migrations/";
    private static final String VERSION_TABLE = "CREATE TABLE IF NOT EXISTS schema_version ("
            + "version INT NOT NULL PRIMARY KEY, script VARCHAR(255) NOT NULL, "
            + "applied TIMESTAMP WITH TIME ZONE DEFAULT CURRENT_TIMESTAMP NOT NULL)";

    private Migrations() {
    }

    /** The schema version this code writes and reads. */
    static int latest() {
        return SCRIPTS.size();
    }

    /** Applies every script the store lacks; fails when the store is newer than this code. */
    static void apply(Connection connection, String store) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute(VERSION_TABLE);
        }
        int current = currentVersion(connection);
        if (current > latest()) {
            throw new StoreException("results store " + store + " has schema version " + current
                    + " but this gridrun knows versions up to " + latest()
                    + "; use the newer gridrun that wrote it, or open a different database file");
        }
        for (int version = current + 1; version <= latest(); version++) {
            applyOne(connection, version, SCRIPTS.get(version - 1), store);
        }
    }

    /** The highest applied version, 0 for an empty store. */
    static int currentVersion(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
             ResultSet rs = statement.executeQuery("SELECT COALESCE(MAX(version), 0) FROM schema_version")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    private static void applyOne(Connection connection, int version, String script, String store)
            throws SQLException {
        boolean autoCommit = connection.getAutoCommit();
        connection.setAutoCommit(false);
        try (Statement statement = connection.createStatement();
             PreparedStatement record = connection.prepareStatement(
                     "MERGE INTO schema_version (version, script) KEY (version) VALUES (?, ?)")) {
            for (String sql : SqlScript.statements(read(script))) {
                statement.execute(sql);
            }
            record.setInt(1, version);
            record.setString(2, script);
            record.executeUpdate();
            connection.commit();
        } catch (SQLException | RuntimeException e) {
            connection.rollback();
            throw new StoreException("results store " + store + ": migration " + script + " failed: "
                    + e.getMessage(), e);
        } finally {
            connection.setAutoCommit(autoCommit);
        }
    }

    private static String read(String script) {
        try (InputStream in = Migrations.class.getResourceAsStream(RESOURCE_DIR + script)) {
            if (in == null) {
                throw new StoreException("migration script " + RESOURCE_DIR + script + " is missing from the jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new StoreException("cannot read migration script " + script + ": " + e.getMessage(), e);
        }
    }

    /** Splits a script into statements: {@code ;} ends one, except inside quotes or a {@code --} comment. */
    static final class SqlScript {
        private SqlScript() {
        }

        static List<String> statements(String script) {
            List<String> statements = new ArrayList<>();
            StringBuilder current = new StringBuilder();
            char quote = 0;
            for (int i = 0; i < script.length(); i++) {
                char c = script.charAt(i);
                if (quote == 0 && c == '-' && script.startsWith("--", i)) {
                    i = skipToLineEnd(script, i);
                    current.append('\n');
                    continue;
                }
                if (quote == 0 && c == ';') {
                    addIfNotBlank(statements, current);
                    continue;
                }
                if (c == '\'' || c == '"') {
                    quote = quote == 0 ? c : (quote == c ? 0 : quote);
                }
                current.append(c);
            }
            addIfNotBlank(statements, current);
            return statements;
        }

        private static int skipToLineEnd(String script, int from) {
            int end = script.indexOf('\n', from);
            return end < 0 ? script.length() : end;
        }

        private static void addIfNotBlank(List<String> statements, StringBuilder current) {
            if (!current.toString().isBlank()) {
                statements.add(current.toString().trim());
            }
            current.setLength(0);
        }
    }
}
