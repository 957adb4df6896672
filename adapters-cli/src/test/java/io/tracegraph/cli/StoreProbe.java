package io.tracegraph.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.tracegraph.postgres.Database;
import io.tracegraph.postgres.DatabaseConfig;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** A test's direct JDBC view of the store the commands write: emptying it, counting, reading rows. */
final class StoreProbe {
    /**
     * Every table a stored run shows in (since V5, nodes, edges and the memory timeline and breakdown are
     * views; since V6 device times, tensor statistics and bundles too).
     */
    static final List<String> RUN_TABLES = List.of("runs", "nodes", "edges", "tensors", "gradients",
            "graph_summaries", "memory_summaries", "memory_devices", "memory_timeline", "memory_peak_breakdown",
            "health_issues", "node_device_times", "tensor_stats", "run_bundles", "run_bundle_files");
    /** Every table a stored run writes to (V5: the packs instead of the node, edge and memory rows). */
    static final List<String> WRITTEN_TABLES = List.of("runs", "run_strings", "node_packs", "edge_packs",
            "timeline_packs", "breakdown_packs", "path_packs", "tensors", "gradients", "graph_summaries",
            "memory_summaries", "memory_devices", "health_issues", "device_time_packs", "tensor_stats", "run_bundles",
            "run_bundle_files");

    private final DatabaseConfig db;

    StoreProbe(DatabaseConfig db) {
        this.db = db;
    }

    /** The environment that points the commands at this store. */
    Map<String, String> env() {
        return Map.of("TRACEGRAPH_DB_URL", db.jdbcUrl(), "TRACEGRAPH_DB_USER", db.user(),
                "TRACEGRAPH_DB_PASSWORD", db.password());
    }

    /** Migrates the store and removes every run and import log entry. */
    void empty() throws SQLException {
        Database.open(db).close();
        execute("TRUNCATE " + String.join(", ", WRITTEN_TABLES) + ", import_log");
    }

    /** No row in any table a run is stored in. */
    void assertNoRunData() throws SQLException {
        for (String table : RUN_TABLES) {
            assertThat(count("SELECT count(*) FROM " + table)).as(table).isZero();
        }
        for (String table : WRITTEN_TABLES) {
            assertThat(count("SELECT count(*) FROM " + table)).as(table).isZero();
        }
    }

    void execute(String statement) throws SQLException {
        try (Connection c = connect(); Statement s = c.createStatement()) {
            s.execute(statement);
        }
    }

    long count(String query) throws SQLException {
        return ((Number) row(query).get(0)).longValue();
    }

    List<Object> row(String query) throws SQLException {
        List<List<Object>> rows = rows(query);
        assertThat(rows).as(query).isNotEmpty();
        return rows.get(0);
    }

    List<List<Object>> rows(String query) throws SQLException {
        try (Connection c = connect(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(query)) {
            List<List<Object>> rows = new ArrayList<>();
            while (rs.next()) {
                List<Object> values = new ArrayList<>();
                for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
                    values.add(rs.getObject(i));
                }
                rows.add(values);
            }
            return rows;
        }
    }

    Connection connect() throws SQLException {
        return DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
    }
}
