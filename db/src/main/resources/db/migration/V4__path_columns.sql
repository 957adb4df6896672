-- tracegraph store, version 4: each run's path statistics once more, as one row of arrays in path
-- order. A set comparison reads every path of 20 or more runs; one row of arrays per run costs the
-- server half the work of 50,000 rows and the client a tenth. docs/schema.md.

-- Element i of every array describes the path of path_rank i in path_stats (whose path text it
-- leaves out: read it there).
CREATE TABLE path_columns (
    run_key         bigint   PRIMARY KEY,
    path_hashes     bigint[] NOT NULL,
    kinds           text[]   NOT NULL,
    counts          bigint[] NOT NULL,
    self_times_ns   bigint[] NOT NULL,
    total_times_ns  bigint[] NOT NULL,
    bytes           bigint[] NOT NULL,
    peak_bytes      bigint[] NOT NULL
);

-- The runs stored before this version: gathered from their path_stats rows.
INSERT INTO path_columns (run_key, path_hashes, kinds, counts, self_times_ns, total_times_ns, bytes, peak_bytes)
SELECT run_key,
       array_agg(path_hash ORDER BY path_rank),
       array_agg(kind ORDER BY path_rank),
       array_agg(count ORDER BY path_rank),
       array_agg(self_time_ns ORDER BY path_rank),
       array_agg(total_time_ns ORDER BY path_rank),
       array_agg(bytes ORDER BY path_rank),
       array_agg(peak_bytes ORDER BY path_rank)
FROM path_stats
GROUP BY run_key;

CREATE OR REPLACE FUNCTION delete_run(p_run_key bigint) RETURNS void LANGUAGE sql AS $$
    DELETE FROM nodes WHERE run_key = p_run_key;
    DELETE FROM path_stats WHERE run_key = p_run_key;
    DELETE FROM path_columns WHERE run_key = p_run_key;
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
