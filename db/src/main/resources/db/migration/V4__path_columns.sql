-- tracegraph store, version 4: each run's path statistics once more, packed into one row in path
-- order. A set comparison reads every path of 20 or more runs; one row of packed columns costs the
-- server and the client a fraction of 50,000 rows (or of arrays, whose elements are sent one by
-- one). docs/schema.md.

-- Element i of every column describes the path of path_rank i in path_stats (whose path text it
-- leaves out: read it there). The numbers are packed as 8-byte big-endian signed integers, one
-- after the other (what int8send gives); the kinds are joined by line feeds. Stored uncompressed:
-- the numbers hardly compress, and reading them whole is the point. digests holds the SHA-256 of
-- each of the seven columns in the order below (of the kinds' UTF-8 bytes), 7 x 32 bytes: a
-- comparison tells a column equal to another run's by its digest without reading it.
CREATE TABLE path_columns (
    run_key         bigint PRIMARY KEY,
    paths           integer NOT NULL,
    path_hashes     bytea  NOT NULL,
    kinds           text   NOT NULL,
    counts          bytea  NOT NULL,
    self_times_ns   bytea  NOT NULL,
    total_times_ns  bytea  NOT NULL,
    bytes           bytea  NOT NULL,
    peak_bytes      bytea  NOT NULL,
    digests         bytea  NOT NULL
);
ALTER TABLE path_columns
    ALTER COLUMN path_hashes SET STORAGE EXTERNAL,
    ALTER COLUMN counts SET STORAGE EXTERNAL,
    ALTER COLUMN self_times_ns SET STORAGE EXTERNAL,
    ALTER COLUMN total_times_ns SET STORAGE EXTERNAL,
    ALTER COLUMN bytes SET STORAGE EXTERNAL,
    ALTER COLUMN peak_bytes SET STORAGE EXTERNAL;

-- The runs stored before this version: gathered from their path_stats rows.
INSERT INTO path_columns (run_key, paths, path_hashes, kinds, counts, self_times_ns, total_times_ns, bytes,
                          peak_bytes, digests)
SELECT c.*,
       sha256(c.path_hashes) || sha256(convert_to(c.kinds, 'UTF8')) || sha256(c.counts)
           || sha256(c.self_times_ns) || sha256(c.total_times_ns) || sha256(c.bytes) || sha256(c.peak_bytes)
FROM (SELECT run_key,
             count(*)::integer AS paths,
             string_agg(int8send(path_hash), ''::bytea ORDER BY path_rank) AS path_hashes,
             string_agg(kind, E'\n' ORDER BY path_rank) AS kinds,
             string_agg(int8send(count), ''::bytea ORDER BY path_rank) AS counts,
             string_agg(int8send(self_time_ns), ''::bytea ORDER BY path_rank) AS self_times_ns,
             string_agg(int8send(total_time_ns), ''::bytea ORDER BY path_rank) AS total_times_ns,
             string_agg(int8send(bytes), ''::bytea ORDER BY path_rank) AS bytes,
             string_agg(int8send(peak_bytes), ''::bytea ORDER BY path_rank) AS peak_bytes
      FROM path_stats
      GROUP BY run_key) c;

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
