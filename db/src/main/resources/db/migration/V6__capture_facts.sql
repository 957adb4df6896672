-- tracegraph store, version 6: the facts of candle-graph trace/7 and later (and of PyTorch profiler
-- traces) beside the V5 packs: how a capture ended (a failed capture is now stored, with what could
-- be built of it), the comparison identity and capture contract it declared, device time per node
-- (a pack aligned with node_packs) and per path (beside the host times of path_packs, digests
-- included), tensor statistics (rows), tensor labels, storage ids of the peak breakdown, the
-- slowest spans by device time, and the verified bundle a run came in (rows). docs/schema.md gives
-- the layout; docs/sql.md the views and recipes.
--
-- Nothing is rewritten: every new column of an existing table is added with a constant default or
-- as NULL (a catalogue change), so a big store upgrades in about the time of one scan of runs.
-- Runs stored before this version keep what they had: complete, no identity, contract, device time
-- or tensor statistics (V5 did not store them).
--
-- Every new per-run table is keyed by run_key first and holds nothing of another run, as V5's are
-- (docs/scaling.md): on a distributed store each is distributed by run_key beside the others.

-- ---- the run: outcome, identity, contract, device time ---------------------------------------------

-- outcome: 'complete', or 'failed' with the producer's reason (terminal record); terminal_timestamp_ns
-- is the terminal record's host timestamp, NULL for a trace without one (candle-graph trace/6, PyTorch).
-- comparison_identity and capture_contract: as declared in the trace's meta record (members named as
-- there; NULL when not declared). device_time_ns: the device time of the whole graph (every node's
-- device self time summed over nodes and devices), NULL when the run has none.
ALTER TABLE runs
    ADD COLUMN outcome text NOT NULL DEFAULT 'complete' CONSTRAINT runs_outcome_check
        CHECK (outcome IN ('complete', 'failed')),
    ADD COLUMN outcome_reason text,
    ADD COLUMN terminal_timestamp_ns bigint,
    ADD COLUMN measured_region_device_synchronized boolean NOT NULL DEFAULT false,
    ADD COLUMN comparison_identity jsonb,
    ADD COLUMN capture_contract jsonb,
    ADD COLUMN device_time_ns bigint;
-- Set comparisons and `runs --identity` select runs by identity members, as by tags.
CREATE INDEX runs_identity ON runs USING gin (comparison_identity jsonb_path_ops);
-- Failed captures over time: few rows, found without reading the others.
CREATE INDEX runs_failed ON runs (captured_at, imported_at) WHERE outcome = 'failed';

-- The top-8 spans by device self time, one entry per (span, device): [{id, name, device, self_time_ns}].
ALTER TABLE graph_summaries ADD COLUMN slowest_device_spans jsonb NOT NULL DEFAULT '[]'::jsonb;

-- The caller's observation label of a tensor checkpoint (trace/7 and later), NULL when absent.
ALTER TABLE tensors ADD COLUMN label text;

-- The backend storage of each allocation live at the peak (trace/7 and later): ids references, -1 for
-- none; NULL when no allocation has one.
ALTER TABLE breakdown_packs ADD COLUMN storage_ids bytea;

-- ---- device time per node: a pack aligned with node_packs ------------------------------------------
--
-- One row per run with device time (none for a run without). devices: the device names in code point
-- order; for device d (1-based), self_times_ns[d] and total_times_ns[d] are packed columns of `nodes`
-- values in node order: a node's device self and total time on that device (total relative to self),
-- -1 in both where the node has no device time on that device (none attributed to it or below it).
CREATE TABLE device_time_packs (
    run_key         bigint   PRIMARY KEY,
    nodes           integer  NOT NULL,
    devices         text[]   NOT NULL,
    self_times_ns   bytea[]  NOT NULL,
    total_times_ns  bytea[]  NOT NULL
);

-- ---- device time per path: beside the host times -----------------------------------------------------
--
-- In path order like every column of path_packs: each path's device self and total time, summed over its
-- occurrences and their devices (total relative to self); device_digests: the SHA-256 of each of the two
-- as 8-byte big-endian integers (2 x 32 bytes), as digests has them for the host columns. NULL (all
-- three) for a run without device time.
ALTER TABLE path_packs
    ADD COLUMN device_self_times_ns bytea,
    ADD COLUMN device_total_times_ns bytea,
    ADD COLUMN device_digests bytea;

-- ---- tensor statistics: rows ------------------------------------------------------------------------

-- A numerical summary of a caller-labelled tensor at capture time (candle-graph trace/10 tensor_stats),
-- in trace order. Users filter them across runs (non_finite > 0) and join them by label.
CREATE TABLE tensor_stats (
    run_key     bigint           NOT NULL,
    stat_idx    integer          NOT NULL,
    span_id     text             NOT NULL,
    label       text             NOT NULL,
    shape       bigint[]         NOT NULL,
    dtype       text             NOT NULL,
    elements    bigint           NOT NULL,
    non_finite  bigint           NOT NULL,
    rms         double precision NOT NULL,
    abs_max     double precision NOT NULL,
    mean        double precision NOT NULL,
    PRIMARY KEY (run_key, stat_idx)
);

-- ---- the verified bundle a run came in ----------------------------------------------------------------

-- A candle-graph bundle (bundle/1) whose every listed file had its listed SHA-256 when it was imported:
-- its run_id (the trace's), the SHA-256 of its bundle.json (its content address), where it was found,
-- the trace's path in it, and the campaign (campaign/1) that planned the capture, if one did.
CREATE TABLE run_bundles (
    run_key             bigint  PRIMARY KEY,
    bundle_run_id       text    NOT NULL,
    manifest_sha256     text    NOT NULL,
    source              text    NOT NULL,
    trace_path          text    NOT NULL,
    campaign_id         text,
    campaign_source     text,
    campaign_entrypoint text,
    campaign_step       bigint,
    campaign_bundle     text
);

-- Every file bundle.json lists, in its order: path in the bundle, size and lower-case hex SHA-256.
CREATE TABLE run_bundle_files (
    run_key     bigint  NOT NULL,
    file_idx    integer NOT NULL,
    path        text    NOT NULL,
    bytes       bigint  NOT NULL,
    sha256      text    NOT NULL,
    PRIMARY KEY (run_key, file_idx)
);

-- ---- the new facts as rows ------------------------------------------------------------------------------

-- One run's device time per node and device, in node order then device order (nodes without device
-- time left out). Decodes the run's device pack once.
CREATE FUNCTION run_node_device_times(p_run_key bigint)
RETURNS TABLE (
    node_idx        integer,
    id              text,
    device          text,
    self_time_ns    bigint,
    total_time_ns   bigint)
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET enable_nestloop = off SET enable_mergejoin = off SET work_mem = '64MB'
AS $$
#variable_conflict use_column
DECLARE
    k device_time_packs;
    s run_strings;
BEGIN
    SELECT * INTO k FROM device_time_packs WHERE device_time_packs.run_key = p_run_key;
    IF NOT FOUND THEN
        RETURN;
    END IF;
    SELECT * INTO s FROM run_strings WHERE run_strings.run_key = p_run_key;
    RETURN QUERY
    WITH per AS MATERIALIZED (
             SELECT d.device, d.o AS dn, packed_values(d.selfs) AS selfs, d.totals
             FROM unnest(k.devices, k.self_times_ns, k.total_times_ns) WITH ORDINALITY d(device, selfs, totals, o)),
         ids AS MATERIALIZED (SELECT i.id, i.o FROM unnest(s.ids[1:k.nodes]) WITH ORDINALITY i(id, o))
    SELECT (u.o - 1)::integer, i.id, per.device, u.self, u.total
    FROM per
    CROSS JOIN LATERAL unnest(per.selfs, packed_values(per.totals, per.selfs)) WITH ORDINALITY u(self, total, o)
    LEFT JOIN ids i ON i.o = u.o
    WHERE u.self >= 0
    ORDER BY u.o, per.dn;
END
$$;

CREATE VIEW node_device_times AS
SELECT k.run_key, t.*
FROM device_time_packs k
CROSS JOIN LATERAL run_node_device_times(k.run_key) t;

-- One run's device time per semantic path, in path order (summed over occurrences and devices, as
-- comparisons read it); no rows for a run without device time.
CREATE FUNCTION run_path_device_times(p_run_key bigint)
RETURNS TABLE (
    path_rank               integer,
    path_hash               bigint,
    path                    text,
    device_self_time_ns     bigint,
    device_total_time_ns    bigint)
LANGUAGE plpgsql STABLE PARALLEL SAFE AS $$
#variable_conflict use_column
DECLARE
    k path_packs;
    selfs bigint[];
BEGIN
    SELECT * INTO k FROM path_packs WHERE path_packs.run_key = p_run_key;
    IF NOT FOUND OR k.device_self_times_ns IS NULL THEN
        RETURN;
    END IF;
    selfs := packed_values(k.device_self_times_ns);
    RETURN QUERY
    SELECT (u.o - 1)::integer, u.hash, u.path COLLATE "C", u.self, u.total
    FROM unnest(k.hashes, k.texts, selfs, packed_values(k.device_total_times_ns, selfs))
         WITH ORDINALITY u(hash, path, self, total, o)
    ORDER BY u.o;
END
$$;

CREATE VIEW path_device_times AS
SELECT k.run_key, p.*
FROM path_packs k
CROSS JOIN LATERAL run_path_device_times(k.run_key) p;

-- run_path_figures() (V5) with the path's device self and total time (NULL for a run without device
-- time), read from slices like the others: what `history` reads of each run.
DROP FUNCTION run_path_figures(bigint, bigint);
CREATE FUNCTION run_path_figures(p_run_key bigint, p_path_hash bigint)
RETURNS TABLE (
    path_rank               integer,
    kind                    text,
    count                   bigint,
    self_time_ns            bigint,
    total_time_ns           bigint,
    bytes                   bigint,
    peak_bytes              bigint,
    device_self_time_ns     bigint,
    device_total_time_ns    bigint)
LANGUAGE plpgsql STABLE PARALLEL SAFE AS $$
DECLARE
    k     path_packs;
    hs    bigint[];
    lo    integer;
    hi    integer;
    mid   integer;
    rnk   integer;
    h     bigint;
    selfs bigint;
    sizes bigint;
    dself bigint;
    word  text;
BEGIN
    SELECT * INTO k FROM path_packs WHERE path_packs.run_key = p_run_key;
    IF NOT FOUND THEN
        RETURN;
    END IF;
    -- An array variable holds the hashes expanded (read once, then indexed in constant time).
    hs := k.hashes;
    lo := 0;
    hi := k.paths - 1;
    WHILE lo <= hi LOOP
        mid := (lo + hi) / 2;
        rnk := packed_value_at(k.by_hash, mid)::integer;
        h := hs[rnk + 1];
        IF h = p_path_hash THEN
            selfs := packed_value_at(k.self_times_ns, rnk);
            sizes := packed_value_at(k.bytes, rnk);
            dself := packed_value_at(k.device_self_times_ns, rnk);
            SELECT x.w INTO word FROM run_strings s, unnest(s.words) WITH ORDINALITY x(w, o)
            WHERE s.run_key = p_run_key AND x.o = packed_value_at(k.kinds, rnk) + 1;
            path_rank := rnk;
            kind := word;
            count := packed_value_at(k.counts, rnk);
            self_time_ns := selfs;
            total_time_ns := packed_value_at(k.total_times_ns, rnk, selfs);
            bytes := sizes;
            peak_bytes := packed_value_at(k.peak_bytes, rnk, sizes);
            device_self_time_ns := dself;
            device_total_time_ns := packed_value_at(k.device_total_times_ns, rnk, dself);
            RETURN NEXT;
            RETURN;
        ELSIF h < p_path_hash THEN
            lo := mid + 1;
        ELSE
            hi := mid - 1;
        END IF;
    END LOOP;
END
$$;

-- The peak breakdown (V5) with each allocation's storage id (NULL where it has none).
DROP FUNCTION run_peak_breakdown(bigint) CASCADE;
CREATE FUNCTION run_peak_breakdown(p_run_key bigint)
RETURNS TABLE (
    rank            integer,
    tensor_id       text,
    span_id         text,
    op_name         text,
    bytes           bigint,
    shape           bigint[],
    dtype           text,
    device          text,
    category        text,
    storage_id      text)
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET enable_nestloop = off SET enable_mergejoin = off SET work_mem = '64MB'
AS $$
#variable_conflict use_column
DECLARE
    k breakdown_packs;
    s run_strings;
BEGIN
    SELECT * INTO k FROM breakdown_packs WHERE breakdown_packs.run_key = p_run_key;
    IF NOT FOUND THEN
        RETURN;
    END IF;
    SELECT * INTO s FROM run_strings WHERE run_strings.run_key = p_run_key;
    RETURN QUERY
    WITH ids AS MATERIALIZED (SELECT i.id, i.o FROM unnest(s.ids) WITH ORDINALITY i(id, o)),
         words AS MATERIALIZED (SELECT w.word, w.o FROM unnest(s.words) WITH ORDINALITY w(word, o))
    SELECT (u.o - 1)::integer, t.id, sp.id, op.word, u.bytes, sh.word::bigint[], dt.word, dv.word, ct.word, st.id
    FROM unnest(packed_values(k.tensor_ids), packed_values(k.span_ids), packed_values(k.op_names),
                packed_values(k.bytes), packed_values(k.shapes), packed_values(k.dtypes), packed_values(k.devices),
                packed_values(k.categories), packed_values(k.storage_ids))
         WITH ORDINALITY u(t, sp, op, bytes, shape, dtype, device, category, storage, o)
    LEFT JOIN ids t ON t.o = u.t + 1
    LEFT JOIN ids sp ON sp.o = u.sp + 1
    LEFT JOIN words op ON op.o = u.op + 1
    LEFT JOIN words sh ON sh.o = u.shape + 1
    LEFT JOIN words dt ON dt.o = u.dtype + 1
    LEFT JOIN words dv ON dv.o = u.device + 1
    LEFT JOIN words ct ON ct.o = u.category + 1
    LEFT JOIN ids st ON st.o = u.storage + 1
    ORDER BY u.o;
END
$$;

CREATE VIEW memory_peak_breakdown AS
SELECT k.run_key, b.*
FROM breakdown_packs k
CROSS JOIN LATERAL run_peak_breakdown(k.run_key) b;

-- Each run's comparison identity, one column per member (runs that declared none left out).
CREATE VIEW run_identities AS
SELECT run_key,
       run_id,
       comparison_identity->>'implementation_id'            AS implementation_id,
       comparison_identity->>'workload_id'                  AS workload_id,
       comparison_identity->>'model_id'                     AS model_id,
       comparison_identity->>'config_id'                    AS config_id,
       comparison_identity->>'data_id'                      AS data_id,
       comparison_identity->>'seed_policy'                  AS seed_policy,
       (comparison_identity->>'physical_batch')::bigint     AS physical_batch,
       (comparison_identity->>'accumulation_steps')::bigint AS accumulation_steps,
       comparison_identity->>'precision'                    AS precision,
       comparison_identity->>'device_state'                 AS device_state,
       comparison_identity->>'pair_id'                      AS pair_id
FROM runs
WHERE comparison_identity IS NOT NULL;

-- Each run's capture contract, one column per member (runs without one left out); the gradient
-- contract by its manifest's digest and sizes (its entries are in capture_contract->'gradient_contract').
CREATE VIEW run_capture_contracts AS
SELECT run_key,
       run_id,
       capture_contract->>'measurement_scope'                                      AS measurement_scope,
       capture_contract->>'operations'                                             AS operations,
       capture_contract->>'tensors'                                                AS tensors,
       capture_contract->>'gradients'                                              AS gradients,
       capture_contract->>'logical_memory'                                         AS logical_memory,
       capture_contract->>'physical_memory'                                        AS physical_memory,
       capture_contract->>'device_timing'                                          AS device_timing,
       ARRAY(SELECT jsonb_array_elements_text(capture_contract->'required_semantic_labels'))
                                                                                   AS required_semantic_labels,
       ARRAY(SELECT jsonb_array_elements_text(capture_contract->'gpu_expected_semantic_labels'))
                                                                                   AS gpu_expected_semantic_labels,
       ARRAY(SELECT jsonb_array_elements_text(capture_contract->'cpu_only_semantic_labels'))
                                                                                   AS cpu_only_semantic_labels,
       capture_contract->'gradient_contract'->>'manifest_sha256'                   AS gradient_manifest_sha256,
       jsonb_array_length(capture_contract->'gradient_contract'->'expected')       AS expected_gradients,
       jsonb_array_length(capture_contract->'gradient_contract'->'families')       AS gradient_families
FROM runs
WHERE capture_contract IS NOT NULL;

-- run_overview (V5) with the capture facts at the end.
CREATE OR REPLACE VIEW run_overview AS
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
       coalesce(h.warnings, 0) AS warning_count,
       r.outcome,
       r.outcome_reason,
       r.terminal_timestamp_ns,
       r.measured_region_device_synchronized,
       r.comparison_identity,
       r.capture_contract,
       r.device_time_ns,
       g.slowest_device_spans
FROM runs r
LEFT JOIN memory_summaries m ON m.run_key = r.run_key
LEFT JOIN graph_summaries g ON g.run_key = r.run_key
LEFT JOIN (SELECT run_key, count(*) AS warnings FROM health_issues GROUP BY run_key) h ON h.run_key = r.run_key;

CREATE OR REPLACE FUNCTION delete_run(p_run_key bigint) RETURNS void LANGUAGE sql AS $$
    DELETE FROM run_strings WHERE run_key = p_run_key;
    DELETE FROM node_packs WHERE run_key = p_run_key;
    DELETE FROM edge_packs WHERE run_key = p_run_key;
    DELETE FROM timeline_packs WHERE run_key = p_run_key;
    DELETE FROM breakdown_packs WHERE run_key = p_run_key;
    DELETE FROM path_packs WHERE run_key = p_run_key;
    DELETE FROM device_time_packs WHERE run_key = p_run_key;
    DELETE FROM tensors WHERE run_key = p_run_key;
    DELETE FROM tensor_stats WHERE run_key = p_run_key;
    DELETE FROM gradients WHERE run_key = p_run_key;
    DELETE FROM graph_summaries WHERE run_key = p_run_key;
    DELETE FROM memory_summaries WHERE run_key = p_run_key;
    DELETE FROM memory_devices WHERE run_key = p_run_key;
    DELETE FROM health_issues WHERE run_key = p_run_key;
    DELETE FROM run_bundle_files WHERE run_key = p_run_key;
    DELETE FROM run_bundles WHERE run_key = p_run_key;
    DELETE FROM runs WHERE run_key = p_run_key;
$$;
