package io.tracegraph.postgres;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The layout of a store spread over several servers with PostgreSQL's own partitioning and
 * {@code postgres_fdw} (docs/scaling.md): on the coordinator, the runs catalogue and the import log
 * stay tables of {@code public}; every per-run relation of {@code public} (a table or view with a
 * {@code run_key} column that does not read the catalogue) gets a partitioned table in schema
 * {@code shard_parts}, hash-partitioned by {@code run_key} with one modulus, each partition a foreign
 * table of the relation of the same name on one shard, and a view of the same name in schema
 * {@code sharded} that shows the rows of catalogued runs only. The views that read the catalogue
 * ({@code run_overview}) are made again in {@code sharded} from their definitions. {@code sharded}
 * comes first in the database's {@code search_path}, so every name a query or function uses reads
 * the sharded relation; {@code public}'s own per-run tables stay, empty, for Flyway to migrate.
 *
 * <p>Everything in {@code shard_parts} and {@code sharded} is derived from {@code public} and the
 * shard list ({@code sharding.shards}): {@link #derive} drops and makes it again after every
 * migration, so that the per-run tables of later migrations are partitioned too.
 *
 * <p>Every statement here is built from catalogue names of our own (quoted with {@code format %I})
 * and numbers.
 */
final class ShardLayout {
    /** The per-run relations' shadow schema, first in the coordinator's search_path. */
    static final String SHARDED = "sharded";
    static final String PARTS = "shard_parts";
    static final String META = "sharding";
    /** Catalogue tables: on the coordinator, not per run. */
    private static final Set<String> CATALOGUE = Set.of("runs", "import_log", "flyway_schema_history");
    /** The per-run table whose partitioning tells which shard holds a run. */
    static final String PLACEMENT = "run_strings";
    /**
     * On each shard: views that call tracegraph's functions there, for reads the coordinator would
     * otherwise do by fetching whole packs (postgres_fdw sends no call of a function of ours to a
     * shard). Made by {@link #prepareShard}, dropped before a shard's migrations (they depend on its
     * tables and functions); on the coordinator, {@link #derive} partitions them as {@code shard_parts.NAME}.
     */
    static final String SHARD_READS = "shard_reads";

    /** A view of {@link #SHARD_READS} on every shard: its columns and its definition over the shard's own store. */
    private record ShardRead(String name, String columns, String definition) {
    }

    /** What run_path_stats() returns, as columns. */
    private static final String DECODED_COLUMNS = "run_key bigint, path_hash bigint, path text COLLATE \"C\", "
            + "kind text, count bigint, self_time_ns bigint, total_time_ns bigint, bytes bigint, peak_bytes bigint";

    /**
     * The second half of each run's decoded paths (the shard's view {@code decoded_path_stats} holds the
     * first), on the coordinator a partition of {@code shard_parts.decoded_path_stats} read through a
     * second foreign server per shard ({@link #tailServer}): postgres_fdw has one connection per
     * server, and one remote query at a time on it, so two servers let both halves of a run be
     * decoded on its shard while the coordinator takes in the rows of the other (Async Foreign Scans).
     */
    static final String DECODED_TAIL = "decoded_path_stats_tail";

    /** A pack's column headers, read once per pack (as in run_path_stats()'s body). */
    private static final String PACK_HEADERS = "SELECT packed_column(k.kinds) AS ck, packed_column(k.counts) AS cc, "
            + "packed_column(k.self_times_ns) AS cs, packed_column(k.total_times_ns) AS ct, "
            + "packed_column(k.bytes) AS cb, packed_column(k.peak_bytes) AS cp OFFSET 0";

    /** The value at {@code d.i} of the pack column whose header is {@code d.COLUMN}. */
    private static String packedAt(String column) {
        return "packed_at((d." + column + ").data, (d." + column + ").w, (d." + column + ").base, d.i)";
    }

    private static final List<ShardRead> SHARD_READ_VIEWS = List.of(
            // One path's figures in each run (what `history` reads): the path found by hash on the
            // shard, run_path_figures() called there for the runs that have it; one row per run.
            new ShardRead("path_figures", "run_key bigint, path_hash bigint, path_rank integer, kind text, "
                    + "count bigint, self_time_ns bigint, total_time_ns bigint, bytes bigint, peak_bytes bigint, "
                    + "device_self_time_ns bigint, device_total_time_ns bigint",
                    "SELECT k.run_key, x.path_hash, f.path_rank, f.kind, f.count, f.self_time_ns, f.total_time_ns, "
                    + "f.bytes, f.peak_bytes, f.device_self_time_ns, f.device_total_time_ns FROM public.path_packs k "
                    + "CROSS JOIN LATERAL unnest(k.hashes) x(path_hash) "
                    + "CROSS JOIN LATERAL public.run_path_figures(k.run_key, x.path_hash) f"),
            // A path's text by its rank, without sending the run's whole texts array to the coordinator.
            new ShardRead("path_texts", "run_key bigint, path_rank integer, path_text text",
                    "SELECT k.run_key, (x.o - 1)::integer AS path_rank, x.t AS path_text FROM public.path_packs k "
                    + "CROSS JOIN LATERAL unnest(k.texts) WITH ORDINALITY x(t, o)"),
            // A run's paths decoded where its packs are (what run_path_stats() returns, the docs/sql.md
            // recipes' per-run call): the coordinator's run_path_stats() reads this by run key.
            new ShardRead("decoded_path_stats", DECODED_COLUMNS + ", part integer",
                    // A pack stored directly (every pack tracegraph writes today), its first half: see
                    // streamedPaths. The run key taken from path_packs: a condition on it picks the pack
                    // before any is decoded.
                    streamedPaths(false)
                    // Any other pack: run_path_stats() called for it (not inlined: on a shard it has a
                    // search_path of its own), only for such a pack (the condition is on the pack's headers,
                    // below the call). A call, not the function's body inlined (as before round 7): the
                    // shard plans this view for every remote query, one per run and half, and the body's
                    // two branches tripled that planning (6-9 ms against 2-4 ms, docs/scaling.md).
                    + " UNION ALL SELECT run_packs.run_key, s.path_hash, s.path COLLATE \"C\", s.kind, s.count, "
                    + "s.self_time_ns, s.total_time_ns, s.bytes, s.peak_bytes, 0 FROM public.path_packs run_packs "
                    + "CROSS JOIN LATERAL (" + PACK_HEADERS.replace("k.", "run_packs.") + ") h "
                    + "CROSS JOIN LATERAL public.run_path_stats(run_packs.run_key) s "
                    + "WHERE NOT path_pack_direct(h.ck, h.cc, h.cs, h.ct, h.cb, h.cp)"),
            // ... and its second half, read by the coordinator on a connection of its own (TAIL).
            new ShardRead(DECODED_TAIL, DECODED_COLUMNS + ", part integer", streamedPaths(true)));

    /**
     * The first or the second half ({@code tail}) of the paths of a pack stored directly, decoded as
     * run_path_stats()'s body decodes them (its first branch: the same expressions, in the same order),
     * with the arrays unnested in the select list: the rows stream out to the cursor of postgres_fdw (a
     * ProjectSet) instead of being gathered first in the tuplestore of a function scan, as the body's
     * {@code unnest(hashes, texts) WITH ORDINALITY} in FROM does (at ~49,000 paths a run's rows do not
     * fit in the 4 MB of work_mem of a postgres_fdw session: they went to a temporary file on the
     * shard, docs/scaling.md, round 6). A pack's hashes and texts are written from one list of paths
     * ({@code RunPacks}), so they have the same length, and the second half's slices are open-ended.
     * Each half's slices are taken once ({@code OFFSET 0}), so that the texts array, compressed in
     * its pack, is decompressed once per half and not for each expression that names it.
     */
    private static String streamedPaths(boolean tail) {
        String lo = tail ? "m.n / 2" : "0";
        String hi = tail ? "m.n" : "m.n / 2";
        String slice = tail ? "[m.n / 2 + 1:]" : "[1:m.n / 2]";
        return "SELECT d.run_key, d.path_hash, d.path COLLATE \"C\" AS path, "
                + "d.words[packed_at((d.ck).data, (d.ck).w, (d.ck).base, d.i) + 1] AS kind, "
                + packedAt("cc") + " AS count, " + packedAt("cs") + " AS self_time_ns, "
                + "CASE WHEN (d.ct).flags = 2 THEN " + packedAt("cs") + " + " + packedAt("ct") + " ELSE "
                + packedAt("ct") + " END AS total_time_ns, " + packedAt("cb") + " AS bytes, "
                + "CASE WHEN (d.cp).flags = 2 THEN " + packedAt("cb") + " + " + packedAt("cp") + " ELSE "
                + packedAt("cp") + " END AS peak_bytes, " + (tail ? 1 : 0) + " AS part "
                + "FROM (SELECT k.run_key, s.words, c.ck, c.cc, c.cs, c.ct, c.cb, c.cp, "
                + "unnest(a.hashes) AS path_hash, unnest(a.texts) AS path, generate_series(" + lo + ", " + hi
                + " - 1) AS i "
                + "FROM public.path_packs k LEFT JOIN public.run_strings s ON s.run_key = k.run_key "
                + "CROSS JOIN LATERAL (SELECT cardinality(k.hashes) AS n OFFSET 0) m "
                + "CROSS JOIN LATERAL (SELECT k.hashes" + slice + " AS hashes, k.texts" + slice + " AS texts "
                + "OFFSET 0) a "
                + "CROSS JOIN LATERAL (" + PACK_HEADERS + ") c "
                + "WHERE path_pack_direct(c.ck, c.cc, c.cs, c.ct, c.cb, c.cp)) d";
    }

    /**
     * Marks the coordinator's {@code shard_parts.decoded_path_stats} made over the shards' views of this
     * version (streamed, above); a coordinator without it has its shards prepared again ({@link #derived}).
     */
    private static final String DECODED_MARK = "tracegraph: run_path_stats() decoded on the shards, streamed, in two halves, sliced once, other packs by a call (round 7)";

    /**
     * The body of the coordinator's {@code sharded.run_path_stats(p_run_key)}: the run's decoded paths
     * read from its shard. {@code OFFSET 0} keeps the inlined call a subquery of its own, parameterized
     * by the caller's run key (a nested loop: one remote query per run, its shard alone), instead of
     * a join of the caller's runs with every catalogued run's rows. In that join the planner knows
     * neither how many paths a run has (a shard estimates an {@code unnest} of a stored array at 10
     * rows) nor how many runs a shard holds (no statistics on foreign tables: 1/200 per run), so the
     * slowest-paths recipe over 10 runs of ~49,000 paths was planned for 1,010 rows and sorted its
     * 490,490 on disk before grouping them; each shard also decoded all its runs, not only the ones
     * asked for. Parameterized, the estimate is runs x a shard's estimate for one run (the rows of
     * its runs are not joined again), so the planner hashes, as on one server (docs/scaling.md).
     */
    static final String RUN_PATH_STATS_ON_SHARDS = "SELECT * FROM " + SHARDED + ".run_path_stats_on_shards p "
            + "WHERE p.run_key = p_run_key OFFSET 0";

    private ShardLayout() {
    }

    /** Whether the database behind {@code c} is a sharded store's coordinator. */
    static boolean isCoordinator(Connection c) throws SQLException {
        try (Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT to_regclass('" + META + ".shards') IS NOT NULL")) {
            rs.next();
            return rs.getBoolean(1);
        }
    }

    /**
     * Makes the coordinator's metadata for {@code shards} (foreign servers {@code shard_1} ...,
     * user mappings for the current user, {@code sharding.shards}); the derived relations follow with
     * {@link #derive}. The store must hold no run yet.
     */
    static void create(Connection c, List<DatabaseConfig> shards) throws SQLException {
        try (Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("SELECT count(*) FROM public.runs")) {
                rs.next();
                long runs = rs.getLong(1);
                if (runs > 0) {
                    throw new DatabaseException("the store already holds " + runs + " run(s) on one server: shard a "
                            + "new, empty store and import the runs into it (docs/scaling.md)");
                }
            }
            s.execute("CREATE EXTENSION IF NOT EXISTS postgres_fdw");
            s.execute("CREATE SCHEMA " + META);
            s.execute("CREATE TABLE " + META + ".shards (shard integer PRIMARY KEY, server_name text NOT NULL UNIQUE, "
                    + "modulus integer NOT NULL, remainder integer NOT NULL UNIQUE)");
            s.execute("COMMENT ON TABLE " + META + ".shards IS 'tracegraph: the shards of this store, each the "
                    + "foreign server holding the runs whose run_key hashes to remainder (docs/scaling.md)'");
        }
        for (int i = 0; i < shards.size(); i++) {
            String server = serverName(i + 1);
            try (PreparedStatement p = c.prepareStatement("INSERT INTO " + META + ".shards VALUES (?, ?, ?, ?)")) {
                p.setInt(1, i + 1);
                p.setString(2, server);
                p.setInt(3, shards.size());
                p.setInt(4, i);
                p.executeUpdate();
            }
            createServer(c, server, shards.get(i));
        }
    }

    /** The foreign server {@code server} for {@code shard}, and its user mapping for the current user. */
    private static void createServer(Connection c, String server, DatabaseConfig shard) throws SQLException {
        ShardAddress address = ShardAddress.of(shard);
        try (Statement s = c.createStatement()) {
            s.execute("CREATE SERVER " + server + " FOREIGN DATA WRAPPER postgres_fdw OPTIONS (host "
                    + literal(address.host()) + ", port " + literal(Integer.toString(address.port())) + ", dbname "
                    + literal(address.database()) + ", async_capable 'true', fetch_size '10000', "
                    + "use_remote_estimate 'true', application_name 'tracegraph-coordinator')");
        }
        setLogin(c, server, shard);
    }

    /**
     * The second foreign server of the shard {@code server} names, made by {@link #derive} (not listed
     * in {@code sharding.shards}): the same shard, the same login, for the second half of each run's
     * decoded paths ({@link #DECODED_TAIL}).
     */
    static String tailServer(String server) {
        return server + "_tail";
    }

    /** Points the foreign server {@code server} at {@code shard} (its address and login may change). */
    static void update(Connection c, String server, DatabaseConfig shard) throws SQLException {
        ShardAddress address = ShardAddress.of(shard);
        boolean tail;
        try (Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT EXISTS (SELECT FROM pg_foreign_server WHERE srvname = "
                        + literal(tailServer(server)) + ")")) {
            rs.next();
            tail = rs.getBoolean(1);
        }
        for (String name : tail ? List.of(server, tailServer(server)) : List.of(server)) {
            try (Statement s = c.createStatement()) {
                s.execute("ALTER SERVER " + name + " OPTIONS (SET host " + literal(address.host()) + ", SET port "
                        + literal(Integer.toString(address.port())) + ", SET dbname " + literal(address.database())
                        + ")");
            }
            setLogin(c, name, shard);
        }
    }

    private static void setLogin(Connection c, String server, DatabaseConfig shard) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("DROP USER MAPPING IF EXISTS FOR CURRENT_USER SERVER " + server);
            s.execute("CREATE USER MAPPING FOR CURRENT_USER SERVER " + server + " OPTIONS (user "
                    + literal(shard.user()) + (shard.password().isEmpty() ? "" : ", password " + literal(shard.password()))
                    + ")");
        }
    }

    /** The shards as the coordinator knows them, in shard order: server, remainder and how to reach it. */
    static List<Shard> shards(Connection c) throws SQLException {
        List<Shard> shards = new ArrayList<>();
        try (Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT h.shard, h.server_name, h.modulus, h.remainder, f.srvoptions, "
                        + "m.umoptions FROM " + META + ".shards h JOIN pg_foreign_server f ON f.srvname = h.server_name "
                        + "LEFT JOIN pg_user_mappings m ON m.srvid = f.oid AND m.usename = current_user "
                        + "ORDER BY h.shard")) {
            while (rs.next()) {
                Map<String, String> options = options((String[]) rs.getArray("srvoptions").getArray());
                java.sql.Array login = rs.getArray("umoptions");
                Map<String, String> user = login == null ? Map.of() : options((String[]) login.getArray());
                String url = "jdbc:postgresql://" + options.getOrDefault("host", "localhost") + ":"
                        + options.getOrDefault("port", "5432") + "/" + options.getOrDefault("dbname", "postgres");
                shards.add(new Shard(rs.getInt("shard"), rs.getString("server_name"), rs.getInt("modulus"),
                        rs.getInt("remainder"), new DatabaseConfig(url, user.getOrDefault("user", ""),
                                user.getOrDefault("password", ""))));
            }
        }
        return shards;
    }

    /** A shard as the coordinator knows it. */
    record Shard(int number, String server, int modulus, int remainder, DatabaseConfig config) {
        /** For messages: the foreign server's name and where it is. */
        String describe() {
            return server + " (" + config.describe() + ")";
        }
    }

    static String serverName(int number) {
        return "shard_" + number;
    }

    /**
     * On a shard, after its migrations: the functions the coordinator's queries reach (through the
     * views it reads) find the store's tables by name, also in the sessions of postgres_fdw, which
     * run with {@code search_path = pg_catalog}. Immutable SQL functions read no table and stay as
     * they are (the planner inlines them); immutable PL/pgSQL ones name the store's types (the views
     * below call them outside any function of the store's).
     */
    static void prepareShard(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("DO $$ DECLARE f regprocedure; BEGIN FOR f IN SELECT p.oid::regprocedure FROM pg_proc p "
                    + "JOIN pg_namespace n ON n.oid = p.pronamespace JOIN pg_language l ON l.oid = p.prolang "
                    + "WHERE n.nspname = 'public' AND p.prokind = 'f' "
                    + "AND (l.lanname = 'plpgsql' OR l.lanname = 'sql' AND p.provolatile <> 'i') "
                    + "AND NOT coalesce(p.proconfig, '{}') @> ARRAY['search_path=public, pg_catalog'] LOOP "
                    + "EXECUTE format('ALTER FUNCTION %s SET search_path = public, pg_catalog', f); END LOOP; END $$");
            s.execute("DROP SCHEMA IF EXISTS " + SHARD_READS + " CASCADE");
            s.execute("CREATE SCHEMA " + SHARD_READS);
            s.execute("COMMENT ON SCHEMA " + SHARD_READS + " IS 'tracegraph: views of this shard that its coordinator "
                    + "reads (made again after every migration, docs/scaling.md)'");
            s.execute("SET LOCAL search_path = public, pg_catalog");
            for (ShardRead read : SHARD_READ_VIEWS) {
                s.execute("CREATE VIEW " + SHARD_READS + "." + quote(read.name()) + " AS " + read.definition());
            }
        }
    }

    /** On a shard, before its migrations: the views of {@link #SHARD_READS}, which depend on what they change. */
    static void dropShardReads(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("DROP SCHEMA IF EXISTS " + SHARD_READS + " CASCADE");
        }
    }

    /**
     * Whether the derived relations are there, in this version's form (a coordinator laid out by an
     * older tracegraph lacks the partitioned {@link #SHARD_READS} views, or has a {@code
     * run_path_stats()} of another body than {@link #RUN_PATH_STATS_ON_SHARDS}: its shards are
     * prepared and the relations derived again).
     */
    static boolean derived(Connection c) throws SQLException {
        StringBuilder query = new StringBuilder("SELECT to_regnamespace('" + SHARDED + "') IS NOT NULL AND "
                + "to_regprocedure(" + literal(SHARDED + ".run_path_stats(bigint)") + ") IS NOT NULL");
        for (ShardRead read : SHARD_READ_VIEWS) {
            if (read.name().equals(DECODED_TAIL)) {
                continue;
            }
            query.append(" AND to_regclass(").append(literal(PARTS + "." + quote(read.name()))).append(") IS NOT NULL");
        }
        // The shards' decoded_path_stats in this version's form (streamed).
        query.append(" AND coalesce(obj_description(to_regclass(").append(literal(PARTS + ".decoded_path_stats"))
                .append("), 'pg_class') = ").append(literal(DECODED_MARK)).append(", false)");
        // run_path_stats() in this version's form (before, without OFFSET 0: joined with every run).
        query.append(" AND coalesce((SELECT btrim(p.prosrc) = ").append(literal(RUN_PATH_STATS_ON_SHARDS))
                .append(" FROM pg_proc p WHERE p.oid = to_regprocedure(")
                .append(literal(SHARDED + ".run_path_stats(bigint)")).append(")), false)");
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(query.toString())) {
            rs.next();
            return rs.getBoolean(1);
        }
    }

    /**
     * Drops the derived relations (before migrations change what they are derived from); the
     * store reads nothing until {@link #derive} made them again.
     */
    static void dropDerived(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("DROP SCHEMA IF EXISTS " + SHARDED + " CASCADE");
            s.execute("DROP SCHEMA IF EXISTS " + PARTS + " CASCADE");
        }
    }

    /**
     * Makes the derived relations again from {@code public} and the shard list, in one transaction
     * of {@code c}, and sets the database's search_path and planner settings.
     */
    static void derive(Connection c) throws SQLException {
        List<Shard> shards = shards(c);
        dropDerived(c);
        try (Statement s = c.createStatement()) {
            s.execute("SET LOCAL search_path = public");
            s.execute("CREATE SCHEMA " + PARTS);
            s.execute("CREATE SCHEMA " + SHARDED);
            s.execute("COMMENT ON SCHEMA " + SHARDED + " IS 'tracegraph: the per-run relations of this sharded store, "
                    + "as rows of catalogued runs (derived; made again after every migration)'");
        }
        Map<String, Relation> relations = relations(c);
        Set<String> perRun = perRun(relations);
        for (String name : perRun) {
            Relation r = relations.get(name);
            StringBuilder columns = new StringBuilder();
            for (String column : r.columns()) {
                columns.append(columns.length() == 0 ? "" : ", ").append(column);
            }
            exec(c, "CREATE TABLE " + PARTS + "." + quote(name) + " (" + columns + ") PARTITION BY HASH (run_key)");
            for (Shard shard : shards) {
                exec(c, "CREATE FOREIGN TABLE " + PARTS + "." + quote(name + "_" + shard.number()) + " PARTITION OF "
                        + PARTS + "." + quote(name) + " FOR VALUES WITH (MODULUS " + shard.modulus() + ", REMAINDER "
                        + shard.remainder() + ") SERVER " + shard.server() + " OPTIONS (schema_name 'public', "
                        + "table_name " + literal(name) + ")");
            }
            exec(c, "CREATE VIEW " + SHARDED + "." + quote(name) + " AS SELECT * FROM " + PARTS + "." + quote(name)
                    + " WHERE run_key = ANY (ARRAY(SELECT r.run_key FROM public.runs r))");
            exec(c, "COMMENT ON VIEW " + SHARDED + "." + quote(name) + " IS " + literal("tracegraph: " + name
                    + " of the catalogued runs, on their shards (derived from public." + name + ")"));
        }
        // The shards' own views (SHARD_READS), partitioned the same way; read by name in shard_parts.
        for (ShardRead read : SHARD_READ_VIEWS) {
            if (read.name().equals("decoded_path_stats") || read.name().equals(DECODED_TAIL)) {
                continue;
            }
            exec(c, "CREATE TABLE " + PARTS + "." + quote(read.name()) + " (" + read.columns() + ") PARTITION BY HASH "
                    + "(run_key)");
            for (Shard shard : shards) {
                exec(c, "CREATE FOREIGN TABLE " + PARTS + "." + quote(read.name() + "_" + shard.number())
                        + " PARTITION OF " + PARTS + "." + quote(read.name()) + " FOR VALUES WITH (MODULUS "
                        + shard.modulus() + ", REMAINDER " + shard.remainder() + ") SERVER " + shard.server()
                        + " OPTIONS (schema_name " + literal(SHARD_READS) + ", table_name " + literal(read.name()) + ")");
            }
        }
        // A run's decoded paths: each shard's partition is itself partitioned by half (part 0 the
        // shard's decoded_path_stats, read through its server; part 1 its DECODED_TAIL, through its
        // tail server), so that a read of one run is an Append of two Async Foreign Scans, one per
        // connection, both under way at once.
        exec(c, "CREATE TABLE " + PARTS + ".decoded_path_stats (" + DECODED_COLUMNS + ", part integer) "
                + "PARTITION BY HASH (run_key)");
        for (Shard shard : shards) {
            String tail = tailServer(shard.server());
            exec(c, "DROP SERVER IF EXISTS " + tail + " CASCADE");
            createServer(c, tail, shard.config());
            String halves = PARTS + "." + quote("decoded_path_stats_" + shard.number());
            exec(c, "CREATE TABLE " + halves + " PARTITION OF " + PARTS + ".decoded_path_stats FOR VALUES WITH (MODULUS "
                    + shard.modulus() + ", REMAINDER " + shard.remainder() + ") PARTITION BY LIST (part)");
            exec(c, "CREATE FOREIGN TABLE " + PARTS + "." + quote("decoded_path_stats_" + shard.number() + "_head")
                    + " PARTITION OF " + halves + " FOR VALUES IN (0) SERVER " + shard.server() + " OPTIONS (schema_name "
                    + literal(SHARD_READS) + ", table_name 'decoded_path_stats')");
            exec(c, "CREATE FOREIGN TABLE " + PARTS + "." + quote("decoded_path_stats_" + shard.number() + "_tail")
                    + " PARTITION OF " + halves + " FOR VALUES IN (1) SERVER " + tail + " OPTIONS (schema_name "
                    + literal(SHARD_READS) + ", table_name " + literal(DECODED_TAIL) + ")");
        }
        exec(c, "COMMENT ON TABLE " + PARTS + ".decoded_path_stats IS " + literal(DECODED_MARK));
        // run_path_stats() of a catalogued run read from its shard, where the run's packs are decoded
        // (public's decodes them on the coordinator, after postgres_fdw sent it the whole packs as
        // text). An SQL function the planner inlines: a call with another query's run key becomes one
        // remote query with that key as a parameter, sent to the run's shard alone (see
        // RUN_PATH_STATS_ON_SHARDS: one per run, always).
        // Through a view of the catalogued runs' rows: a view reads the shards with its owner's user
        // mapping, so that the read-only role of `tracegraph sql` can call the function too.
        exec(c, "CREATE VIEW " + SHARDED + ".run_path_stats_on_shards AS SELECT run_key, path_hash, path, kind, count, "
                + "self_time_ns, total_time_ns, bytes, peak_bytes FROM " + PARTS + ".decoded_path_stats "
                + "WHERE run_key = ANY (ARRAY(SELECT r.run_key FROM public.runs r))");
        exec(c, "COMMENT ON VIEW " + SHARDED + ".run_path_stats_on_shards IS 'tracegraph: what run_path_stats() "
                + "returns, decoded on the shards (derived; read by run key)'");
        exec(c, "CREATE FUNCTION " + SHARDED + ".run_path_stats(p_run_key bigint) RETURNS SETOF public.run_paths "
                + "LANGUAGE sql STABLE AS $$ " + RUN_PATH_STATS_ON_SHARDS + " $$");
        exec(c, "COMMENT ON FUNCTION " + SHARDED + ".run_path_stats(bigint) IS 'tracegraph: public.run_path_stats() "
                + "decoded on the run''s shard (derived)'");
        // The views that read the catalogue, made again over the sharded relations, in dependency order.
        List<String> rest = new ArrayList<>();
        for (Relation r : relations.values()) {
            if (r.view() && !perRun.contains(r.name())) {
                rest.add(r.name());
            }
        }
        Map<String, String> definitions = new HashMap<>();
        try (Statement s = c.createStatement()) {
            s.execute("SET LOCAL search_path = public");
            for (String view : rest) {
                try (ResultSet rs = s.executeQuery("SELECT pg_get_viewdef(" + literal("public." + quote(view))
                        + "::regclass)")) {
                    rs.next();
                    definitions.put(view, rs.getString(1));
                }
            }
            s.execute("SET LOCAL search_path = " + SHARDED + ", public");
            for (String view : dependencyOrder(rest, relations)) {
                s.execute("CREATE VIEW " + SHARDED + "." + quote(view) + " AS " + definitions.get(view));
            }
            s.execute("SET LOCAL search_path = public");
            s.execute("DO $$ BEGIN EXECUTE format('ALTER DATABASE %I SET search_path = " + SHARDED + ", public', "
                    + "current_database()); EXECUTE format('ALTER DATABASE %I SET enable_partitionwise_aggregate = on', "
                    + "current_database()); EXECUTE format('ALTER DATABASE %I SET enable_partitionwise_join = on', "
                    + "current_database()); END $$");
            s.execute("DO $$ BEGIN IF EXISTS (SELECT FROM pg_roles WHERE rolname = '" + ReaderRole.NAME + "') THEN "
                    + "GRANT USAGE ON SCHEMA " + SHARDED + " TO " + ReaderRole.NAME + "; "
                    + "GRANT SELECT ON ALL TABLES IN SCHEMA " + SHARDED + " TO " + ReaderRole.NAME + "; "
                    + "GRANT USAGE ON SCHEMA " + META + " TO " + ReaderRole.NAME + "; "
                    + "GRANT SELECT ON ALL TABLES IN SCHEMA " + META + " TO " + ReaderRole.NAME + "; END IF; END $$");
        }
    }

    /** The per-run relations: a run_key column, not the catalogue, reading no catalogue table. */
    private static Set<String> perRun(Map<String, Relation> relations) {
        Set<String> perRun = new LinkedHashSet<>();
        Map<String, Boolean> known = new HashMap<>();
        for (Relation r : relations.values()) {
            if (r.hasRunKey() && !CATALOGUE.contains(r.name()) && !readsCatalogue(r.name(), relations, known,
                    new HashSet<>())) {
                perRun.add(r.name());
            }
        }
        return perRun;
    }

    private static boolean readsCatalogue(String name, Map<String, Relation> relations, Map<String, Boolean> known,
            Set<String> seen) {
        if (CATALOGUE.contains(name)) {
            return true;
        }
        Boolean answer = known.get(name);
        if (answer != null) {
            return answer;
        }
        Relation r = relations.get(name);
        boolean reads = false;
        if (r != null && seen.add(name)) {
            for (String used : r.uses()) {
                reads |= readsCatalogue(used, relations, known, seen);
            }
        }
        known.put(name, reads);
        return reads;
    }

    private static List<String> dependencyOrder(List<String> views, Map<String, Relation> relations) {
        Set<String> wanted = new HashSet<>(views);
        List<String> order = new ArrayList<>();
        Set<String> done = new HashSet<>();
        for (String view : views) {
            Deque<String> path = new ArrayDeque<>();
            visit(view, wanted, relations, done, order, path);
        }
        return order;
    }

    private static void visit(String view, Set<String> wanted, Map<String, Relation> relations, Set<String> done,
            List<String> order, Deque<String> path) {
        if (done.contains(view) || path.contains(view)) {
            return;
        }
        path.push(view);
        for (String used : relations.get(view).uses()) {
            if (wanted.contains(used)) {
                visit(used, wanted, relations, done, order, path);
            }
        }
        path.pop();
        done.add(view);
        order.add(view);
    }

    /** A table or view of {@code public}: its column definitions and the relations its definition reads. */
    private record Relation(String name, boolean view, boolean hasRunKey, List<String> columns, Set<String> uses) {
    }

    private static Map<String, Relation> relations(Connection c) throws SQLException {
        Map<String, List<String>> columns = new LinkedHashMap<>();
        Map<String, Boolean> views = new HashMap<>();
        Map<String, Boolean> runKeys = new HashMap<>();
        try (Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT c.relname, c.relkind = 'v' AS view, a.attname, "
                        + "format_type(a.atttypid, a.atttypmod) AS type, "
                        + "CASE WHEN a.attcollation <> 0 AND a.attcollation <> t.typcollation "
                        + "THEN (SELECT quote_ident(collname) FROM pg_collation WHERE oid = a.attcollation) END AS coll "
                        + "FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
                        + "JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped "
                        + "JOIN pg_type t ON t.oid = a.atttypid "
                        + "WHERE n.nspname = 'public' AND c.relkind IN ('r', 'v', 'p') ORDER BY c.relname, a.attnum")) {
            while (rs.next()) {
                String name = rs.getString("relname");
                String column = quote(rs.getString("attname")) + " " + rs.getString("type")
                        + (rs.getString("coll") == null ? "" : " COLLATE " + rs.getString("coll"));
                columns.computeIfAbsent(name, k -> new ArrayList<>()).add(column);
                views.put(name, rs.getBoolean("view"));
                if ("run_key".equals(rs.getString("attname"))) {
                    runKeys.put(name, true);
                }
            }
        }
        Map<String, Set<String>> uses = new HashMap<>();
        try (Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT DISTINCT v.relname AS view, u.relname AS used "
                        + "FROM pg_class v JOIN pg_namespace n ON n.oid = v.relnamespace "
                        + "JOIN pg_rewrite w ON w.ev_class = v.oid "
                        + "JOIN pg_depend d ON d.classid = 'pg_rewrite'::regclass AND d.objid = w.oid "
                        + "AND d.refclassid = 'pg_class'::regclass "
                        + "JOIN pg_class u ON u.oid = d.refobjid AND u.oid <> v.oid "
                        + "WHERE n.nspname = 'public' AND v.relkind = 'v'")) {
            while (rs.next()) {
                uses.computeIfAbsent(rs.getString("view"), k -> new HashSet<>()).add(rs.getString("used"));
            }
        }
        Map<String, Relation> relations = new LinkedHashMap<>();
        columns.forEach((name, cols) -> relations.put(name, new Relation(name, views.get(name),
                runKeys.getOrDefault(name, false), cols, uses.getOrDefault(name, Set.of()))));
        return relations;
    }

    private static void exec(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    private static Map<String, String> options(String[] options) {
        Map<String, String> map = new HashMap<>();
        for (String option : options) {
            int eq = option.indexOf('=');
            map.put(option.substring(0, eq), option.substring(eq + 1));
        }
        return map;
    }

    static String quote(String identifier) {
        return "\"" + identifier.replace("\"", "\"\"") + "\"";
    }

    static String literal(String value) {
        return "'" + value.replace("'", "''") + "'";
    }
}
