-- tracegraph store, version 3: each run's per-path statistics stored at import, so that set
-- comparisons read one row per path (about half the nodes of a model) in path order, already
-- summed, instead of aggregating every node of every run they compare. docs/schema.md.

-- One row per run and semantic path, exactly what run_paths computed from nodes (V2): occurrences
-- counted, times and bytes summed saturating at 2^63-1, the largest peak, the first occurrence's
-- kind. path_rank is the row's position in path order (code point order of the text, then the
-- hash as a signed integer), which the primary key keeps, so a run's rows come in that order
-- without sorting.
CREATE TABLE path_stats (
    run_key         bigint  NOT NULL,
    path_rank       integer NOT NULL,
    path_hash       bigint  NOT NULL,
    path            text    NOT NULL,
    kind            text    NOT NULL,
    count           bigint  NOT NULL,
    self_time_ns    bigint  NOT NULL,
    total_time_ns   bigint  NOT NULL,
    bytes           bigint  NOT NULL,
    peak_bytes      bigint  NOT NULL,
    PRIMARY KEY (run_key, path_rank)
);

-- The runs stored before this version: computed once from their nodes.
INSERT INTO path_stats (run_key, path_rank, path_hash, path, kind, count, self_time_ns, total_time_ns, bytes,
                        peak_bytes)
SELECT run_key,
       (row_number() OVER (PARTITION BY run_key ORDER BY path COLLATE "C", path_hash) - 1)::integer,
       path_hash, path, kind, count, self_time_ns, total_time_ns, bytes, peak_bytes
FROM run_paths;

-- The view keeps its columns (and path's collation) but reads the stored rows: run_path_stats(),
-- compare_runs() and every recipe built on them get the stored figures.
CREATE OR REPLACE VIEW run_paths AS
SELECT run_key,
       path_hash,
       path COLLATE "C" AS path,
       kind,
       count,
       self_time_ns,
       total_time_ns,
       bytes,
       peak_bytes
FROM path_stats;

CREATE OR REPLACE FUNCTION delete_run(p_run_key bigint) RETURNS void LANGUAGE sql AS $$
    DELETE FROM nodes WHERE run_key = p_run_key;
    DELETE FROM path_stats WHERE run_key = p_run_key;
    DELETE FROM edges WHERE run_key = p_run_key;
    DELETE FROM tensors WHERE run_key = p_run_key;
    DELETE FROM gradients WHERE run_key = p_run_key;
    DELETE FROM graph_summaries WHERE run_key = p_run_key;
    DELETE FROM memory_summaries WHERE run_key = p_run_key;
    DELETE FROM memory_devices WHERE run_key = p_run_key;
    DELETE FROM memory_timeline WHERE run_key = p_run_key;
    DELETE FROM memory_peak_breakdown WHERE run_key = p_run_key;
    DELETE FROM health_issues WHERE run_key = p_run_key;
    DELETE FROM runs WHERE run_key = p_run_key;
$$;
