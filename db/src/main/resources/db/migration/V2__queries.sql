-- tracegraph store, version 2: what querying and comparing stored runs needs. Documented with
-- recipes in docs/sql.md.
--
-- Everything here is keyed by run: each view groups or joins by run_key and a filter on run_key is
-- pushed down into it, so one run's rows are read through the run_key-leading keys (and, on Citus,
-- on the run's shard only; docs/scaling.md). Nothing here writes.

-- One run's nodes by semantic path: per-run aggregation reads a run's rows in path order, a
-- comparison of two runs joins two such ranges, and the history of one path probes this index once
-- per run (run_key = r AND path_hash = h), which stays fast however many runs are stored.
CREATE INDEX nodes_run_path ON nodes (run_key, path_hash);

-- Per run and semantic path: the occurrences of the path aggregated (a layer called twice counts
-- twice), as io.tracegraph.domain.compare.PathStats aggregates a graph's nodes. Times and bytes are
-- sums, saturating at 2^63-1 like the graph builder's; peak_bytes is the largest peak of any
-- occurrence; kind is the first occurrence's (in node order). All occurrences of a path_hash have
-- the same path text, so any aggregate picks it (min in byte order, the cheapest); the first
-- occurrence's kind is found without sorting: (node_idx, kind) packed into one bigint, node_idx
-- times 8 plus the kind's code (kinds are the closed set root, function, module, op, other).
CREATE VIEW run_paths AS
SELECT run_key,
       path_hash,
       min(path COLLATE "C")                                    AS path,
       CASE min(node_idx::bigint * 8 + CASE kind WHEN 'root' THEN 0 WHEN 'function' THEN 1
                                                 WHEN 'module' THEN 2 WHEN 'op' THEN 3 ELSE 4 END) % 8
           WHEN 0 THEN 'root' WHEN 1 THEN 'function' WHEN 2 THEN 'module' WHEN 3 THEN 'op'
           ELSE 'other' END                                     AS kind,
       count(*)                                                 AS count,
       least(sum(self_time_ns), 9223372036854775807)::bigint    AS self_time_ns,
       least(sum(total_time_ns), 9223372036854775807)::bigint   AS total_time_ns,
       least(sum(bytes), 9223372036854775807)::bigint           AS bytes,
       max(peak_bytes)                                          AS peak_bytes
FROM nodes
GROUP BY run_key, path_hash;

-- One run's paths (run_paths WHERE run_key = p_run_key), for use once per row of another query:
--     SELECT ... FROM runs r CROSS JOIN LATERAL run_path_stats(r.run_key) p
-- A join or a LATERAL subquery on the view itself is planned as "aggregate every stored run, then
-- join"; a PL/pgSQL function is not inlined, so each call reads one run through nodes_run_path.
CREATE FUNCTION run_path_stats(p_run_key bigint)
RETURNS SETOF run_paths
LANGUAGE plpgsql STABLE PARALLEL SAFE AS $$
BEGIN
    RETURN QUERY SELECT * FROM run_paths WHERE run_paths.run_key = p_run_key;
END
$$;

-- Two runs side by side, path by path (matched on path_hash): status 'both', 'added' (only in the
-- candidate) or 'removed' (only in the base). For self time, total time, bytes and peak bytes:
-- the base and candidate values (NULL where the path is absent), delta = candidate - base (an
-- absent side counts as 0) and ratio = candidate / base (NULL unless both sides have the path and
-- the base value is not 0). PL/pgSQL like run_path_stats: each side is one run's index range
-- whatever the arguments are (constants, subqueries or another query's columns).
CREATE FUNCTION compare_runs(base_key bigint, cand_key bigint)
RETURNS TABLE (
    path_hash           bigint,
    path                text,
    kind                text,
    status              text,
    base_count          bigint,
    cand_count          bigint,
    base_self_time_ns   bigint,
    cand_self_time_ns   bigint,
    delta_self_time_ns  bigint,
    self_time_ratio     double precision,
    base_total_time_ns  bigint,
    cand_total_time_ns  bigint,
    delta_total_time_ns bigint,
    total_time_ratio    double precision,
    base_bytes          bigint,
    cand_bytes          bigint,
    delta_bytes         bigint,
    bytes_ratio         double precision,
    base_peak_bytes     bigint,
    cand_peak_bytes     bigint,
    delta_peak_bytes    bigint,
    peak_bytes_ratio    double precision)
LANGUAGE plpgsql STABLE PARALLEL SAFE AS $$
#variable_conflict use_column
BEGIN
    RETURN QUERY
    SELECT coalesce(b.path_hash, c.path_hash),
           coalesce(c.path, b.path),
           coalesce(c.kind, b.kind),
           CASE WHEN b.path_hash IS NULL THEN 'added' WHEN c.path_hash IS NULL THEN 'removed' ELSE 'both' END,
           b.count,
           c.count,
           b.self_time_ns,
           c.self_time_ns,
           coalesce(c.self_time_ns, 0) - coalesce(b.self_time_ns, 0),
           c.self_time_ns::double precision / nullif(b.self_time_ns, 0),
           b.total_time_ns,
           c.total_time_ns,
           coalesce(c.total_time_ns, 0) - coalesce(b.total_time_ns, 0),
           c.total_time_ns::double precision / nullif(b.total_time_ns, 0),
           b.bytes,
           c.bytes,
           coalesce(c.bytes, 0) - coalesce(b.bytes, 0),
           c.bytes::double precision / nullif(b.bytes, 0),
           b.peak_bytes,
           c.peak_bytes,
           coalesce(c.peak_bytes, 0) - coalesce(b.peak_bytes, 0),
           c.peak_bytes::double precision / nullif(b.peak_bytes, 0)
    FROM (SELECT * FROM run_paths WHERE run_key = base_key) b
    FULL OUTER JOIN (SELECT * FROM run_paths WHERE run_key = cand_key) c ON c.path_hash = b.path_hash;
END
$$;

-- One row per stored run with its headline figures: the runs row, the global memory peak and its
-- breakdown by category, the graph summary's top lists, and the number of health warnings.
-- Newest first is ORDER BY captured_at DESC NULLS LAST, imported_at DESC, run_key DESC (the order
-- of `tracegraph runs` and of `latest~N`).
CREATE VIEW run_overview AS
SELECT r.run_key,
       r.run_id,
       r.correlation_id,
       r.entrypoint,
       r.phase,
       r.run_timestamp,
       r.captured_at,
       r.imported_at,
       r.device,
       r.timing_mode,
       r.capture_step,
       r.warmup_steps,
       r.tags,
       r.candle_version,
       r.source_name,
       r.content_sha256,
       r.content_bytes,
       r.trace_schema,
       r.graph_schema,
       r.coverage,
       r.total_ms,
       r.node_count,
       r.edge_count,
       m.peak_bytes,
       m.peak_device,
       m.peak_timestamp_ns,
       m.peak_by_category,
       m.total_alloc_bytes,
       m.alloc_count,
       m.free_count,
       m.autograd_retained_bytes,
       g.slowest_spans,
       g.heaviest_spans,
       (SELECT count(*) FROM health_issues h WHERE h.run_key = r.run_key) AS warning_count
FROM runs r
LEFT JOIN memory_summaries m ON m.run_key = r.run_key
LEFT JOIN graph_summaries g ON g.run_key = r.run_key;

-- Per run and parameter gradient (root, key): its state at capture time ('present', 'missing',
-- 'zero', 'non_finite') and norm. A key reported more than once keeps its last report.
CREATE VIEW run_gradient_states AS
SELECT DISTINCT ON (run_key, root, key)
       run_key,
       root,
       key,
       state,
       norm,
       gradient_idx
FROM gradients
ORDER BY run_key, root, key, gradient_idx DESC;

-- Two runs' gradient states side by side, matched on (root, key): status 'both', 'added' or
-- 'removed' as in compare_runs; changed when the state differs; regressed when a gradient present
-- in the base is missing, zero or non-finite in the candidate.
CREATE FUNCTION compare_gradients(base_key bigint, cand_key bigint)
RETURNS TABLE (
    root        text,
    key         text,
    status      text,
    base_state  text,
    cand_state  text,
    base_norm   double precision,
    cand_norm   double precision,
    changed     boolean,
    regressed   boolean)
LANGUAGE plpgsql STABLE PARALLEL SAFE AS $$
#variable_conflict use_column
BEGIN
    RETURN QUERY
    SELECT coalesce(b.root, c.root),
           coalesce(b.key, c.key),
           CASE WHEN b.key IS NULL THEN 'added' WHEN c.key IS NULL THEN 'removed' ELSE 'both' END,
           b.state,
           c.state,
           b.norm,
           c.norm,
           b.state IS DISTINCT FROM c.state,
           coalesce(b.state = 'present' AND c.state IN ('missing', 'zero', 'non_finite'), false)
    FROM (SELECT * FROM run_gradient_states WHERE run_key = base_key) b
    FULL OUTER JOIN (SELECT * FROM run_gradient_states WHERE run_key = cand_key) c
        ON c.root = b.root AND c.key = b.key;
END
$$;
