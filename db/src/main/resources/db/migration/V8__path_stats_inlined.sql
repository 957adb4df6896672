-- tracegraph store, version 8: run_path_stats() as an SQL function the planner inlines.
--
-- V5's run_path_stats() called run_path_rows(), a PL/pgSQL function: the planner cannot look into
-- it, so every call decoded all seven packed columns of a run's paths and looked up every kind,
-- whatever the query read. Written as one SQL query, the function is inlined into the query that
-- calls it: the columns it does not read are never decoded (the recipe "slowest paths over the
-- last 10 runs" of docs/sql.md reads path and self time: 1.1 s instead of 3.8 s on bench/queries'
-- store, measured side by side under the same load). The rows are those of run_path_rows(), which
-- stays: packs with exceptions or deltas (only V5's conversion of older stores writes those) are
-- read by it, through the second branch, which is empty for packs the import wrote.
--
-- The fast branch's condition is run_path_rows()'s, without the depth column run_path_stats()
-- does not return: no exceptions, no deltas, and values relative to a reference only where
-- total time refers to self time and peak bytes to bytes.

-- Whether a run's path columns (kinds, counts, self times, total times, bytes, peak bytes) can be
-- read value by value as packed_at() reads them: the condition of the two branches below, once.
CREATE FUNCTION path_pack_direct(ck packed_column, cc packed_column, cs packed_column, ct packed_column,
        cb packed_column, cp packed_column) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT ck.e + cc.e + cs.e + ct.e + cb.e + cp.e = 0
       AND (ck.flags | cc.flags | cs.flags | ct.flags | cb.flags | cp.flags) & 1 = 0
       AND (ck.flags | cc.flags | cs.flags | cb.flags) = 0
$$;

CREATE OR REPLACE FUNCTION run_path_stats(p_run_key bigint)
RETURNS SETOF run_paths
LANGUAGE sql STABLE PARALLEL SAFE AS $$
    SELECT p_run_key, u.hash, u.path COLLATE "C",
           s.words[packed_at((c.ck).data, (c.ck).w, (c.ck).base, (u.o - 1)::integer) + 1],
           packed_at((c.cc).data, (c.cc).w, (c.cc).base, (u.o - 1)::integer),
           packed_at((c.cs).data, (c.cs).w, (c.cs).base, (u.o - 1)::integer),
           CASE WHEN (c.ct).flags = 2
                THEN packed_at((c.cs).data, (c.cs).w, (c.cs).base, (u.o - 1)::integer)
                     + packed_at((c.ct).data, (c.ct).w, (c.ct).base, (u.o - 1)::integer)
                ELSE packed_at((c.ct).data, (c.ct).w, (c.ct).base, (u.o - 1)::integer) END,
           packed_at((c.cb).data, (c.cb).w, (c.cb).base, (u.o - 1)::integer),
           CASE WHEN (c.cp).flags = 2
                THEN packed_at((c.cb).data, (c.cb).w, (c.cb).base, (u.o - 1)::integer)
                     + packed_at((c.cp).data, (c.cp).w, (c.cp).base, (u.o - 1)::integer)
                ELSE packed_at((c.cp).data, (c.cp).w, (c.cp).base, (u.o - 1)::integer) END
    FROM path_packs k
    LEFT JOIN run_strings s ON s.run_key = k.run_key
    -- OFFSET 0: the column headers are read once per run, not once per value.
    CROSS JOIN LATERAL (SELECT packed_column(k.kinds) AS ck, packed_column(k.counts) AS cc,
                               packed_column(k.self_times_ns) AS cs, packed_column(k.total_times_ns) AS ct,
                               packed_column(k.bytes) AS cb, packed_column(k.peak_bytes) AS cp OFFSET 0) c
    CROSS JOIN LATERAL unnest(k.hashes, k.texts) WITH ORDINALITY u(hash, path, o)
    WHERE k.run_key = p_run_key
      AND path_pack_direct(c.ck, c.cc, c.cs, c.ct, c.cb, c.cp)
    UNION ALL
    SELECT p_run_key, p.path_hash, p.path COLLATE "C", p.kind, p.count, p.self_time_ns, p.total_time_ns, p.bytes,
           p.peak_bytes
    FROM path_packs k
    CROSS JOIN LATERAL (SELECT packed_column(k.kinds) AS ck, packed_column(k.counts) AS cc,
                               packed_column(k.self_times_ns) AS cs, packed_column(k.total_times_ns) AS ct,
                               packed_column(k.bytes) AS cb, packed_column(k.peak_bytes) AS cp OFFSET 0) c
    CROSS JOIN LATERAL run_path_rows(k.run_key) p
    WHERE k.run_key = p_run_key
      AND NOT path_pack_direct(c.ck, c.cc, c.cs, c.ct, c.cb, c.cp)
$$;
