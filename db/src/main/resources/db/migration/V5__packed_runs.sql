-- tracegraph store, version 5: a run's big collections (nodes, edges, memory timeline, peak
-- breakdown, path statistics) packed into one row per run and table, their repeated strings
-- dictionary-encoded; the tables SQL users filter and join across runs (runs, gradients, tensors,
-- health issues, devices, summaries, the import log) stay rows. Every table of V1-V4 that became a
-- pack keeps its name and columns as a view (nodes, edges, memory_timeline, memory_peak_breakdown,
-- path_stats, path_columns), so queries written against them keep working. docs/schema.md gives the
-- layout, the reasons and the sizes.
--
-- Every pack table is keyed by run_key alone, holds nothing of another run and is read by its key:
-- the same run_key-leading layout as before, for a Citus distribution by run (docs/scaling.md).

-- ---- packed integer columns ---------------------------------------------------------------------
--
-- A packed column is a bytea holding n integers (big-endian throughout):
--   byte 0      flags: 1 = deltas (each value is stored as its difference to the one before, the
--               first to 0), 2 = relative (each value is stored as its difference to the same
--               element of a reference column, named where the column is); 0 = plain
--   byte 1      w, the bytes per value (0..8)
--   bytes 2-5   n, the number of values
--   bytes 6-13  base: with w < 8 a stored value is base + the w-byte unsigned integer; with w = 8 it
--               is the 8-byte two's complement integer itself (base 0)
--   bytes 14-17 e, the number of exceptions
--   then        n * w bytes, the values (0 where an exception stands)
--   then        e exceptions, by ascending index: the index (4 bytes) and the stored value (8 bytes)
-- The stored values are the exceptions and the base + w-byte values; deltas are then summed and
-- relative values added to their reference. A width is chosen per column and run: most columns
-- need one to three bytes per value, and the rare values beyond are exceptions (patched frame of
-- reference). Decoded by packed_values() in SQL and by io.tracegraph.postgres.Packing in Java.

-- A running sum in bigint (sum(bigint) would give numeric): the values of a delta column.
CREATE AGGREGATE running_sum(bigint) (SFUNC = int8pl, STYPE = bigint);

-- The values of a packed column, in order; reference: the reference column of a relative one.
-- The bytes are copied out of TOAST once, then read by offset (get_byte over generate_series):
-- about 0.3 microseconds a value.
CREATE FUNCTION packed_values(packed bytea, reference bigint[] DEFAULT NULL)
RETURNS bigint[]
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
    p    bytea;
    flags integer;
    w    integer;
    n    integer;
    base bigint;
    e    integer;
    d    bytea;
    x    bytea;
    v    bigint[];
BEGIN
    IF packed IS NULL THEN
        RETURN NULL;
    END IF;
    -- One detoasted copy: get_byte() on the column itself would detoast it at every call.
    p := substring(packed from 1);
    flags := get_byte(p, 0);
    w := get_byte(p, 1);
    n := (get_byte(p, 2) << 24) | (get_byte(p, 3) << 16) | (get_byte(p, 4) << 8) | get_byte(p, 5);
    base := ('x' || encode(substring(p from 7 for 8), 'hex'))::bit(64)::bigint;
    e := (get_byte(p, 14) << 24) | (get_byte(p, 15) << 16) | (get_byte(p, 16) << 8) | get_byte(p, 17);
    IF flags > 3 OR w > 8 OR length(p) <> 18 + n * w + 12 * e THEN
        RAISE EXCEPTION 'not a packed column (flags %, width %, % values, % exceptions, % bytes)',
            flags, w, n, e, length(p);
    END IF;
    d := substring(p from 19 for n * w);
    IF w = 0 THEN
        v := array_fill(base, ARRAY[n]);
    ELSIF w = 1 THEN
        v := ARRAY(SELECT base + get_byte(d, i) FROM generate_series(0, n - 1) i);
    ELSIF w = 2 THEN
        v := ARRAY(SELECT base + ((get_byte(d, 2 * i) << 8) | get_byte(d, 2 * i + 1))
                   FROM generate_series(0, n - 1) i);
    ELSIF w = 3 THEN
        v := ARRAY(SELECT base + ((get_byte(d, 3 * i) << 16) | (get_byte(d, 3 * i + 1) << 8) | get_byte(d, 3 * i + 2))
                   FROM generate_series(0, n - 1) i);
    ELSIF w = 4 THEN
        v := ARRAY(SELECT base + ((get_byte(d, 4 * i)::bigint << 24) | (get_byte(d, 4 * i + 1) << 16)
                                  | (get_byte(d, 4 * i + 2) << 8) | get_byte(d, 4 * i + 3))
                   FROM generate_series(0, n - 1) i);
    ELSIF w < 8 THEN
        v := ARRAY(SELECT base + ('x' || lpad(encode(substring(d from w * i + 1 for w), 'hex'), 16, '0'))::bit(64)::bigint
                   FROM generate_series(0, n - 1) i);
    ELSE
        v := ARRAY(SELECT ('x' || encode(substring(d from 8 * i + 1 for 8), 'hex'))::bit(64)::bigint
                   FROM generate_series(0, n - 1) i);
    END IF;
    IF e > 0 THEN
        x := substring(p from 19 + n * w for 12 * e);
        FOR j IN 0 .. e - 1 LOOP
            v[((get_byte(x, 12 * j) << 24) | (get_byte(x, 12 * j + 1) << 16) | (get_byte(x, 12 * j + 2) << 8)
               | get_byte(x, 12 * j + 3)) + 1] := ('x' || encode(substring(x from 12 * j + 5 for 8), 'hex'))::bit(64)::bigint;
        END LOOP;
    END IF;
    IF flags & 1 = 1 THEN
        v := ARRAY(SELECT running_sum(y) OVER (ORDER BY o ROWS UNBOUNDED PRECEDING)
                   FROM unnest(v) WITH ORDINALITY t(y, o) ORDER BY o);
    END IF;
    IF flags & 2 = 2 THEN
        IF coalesce(array_length(reference, 1), 0) <> n THEN
            RAISE EXCEPTION 'a relative packed column of % values needs a reference of as many', n;
        END IF;
        v := ARRAY(SELECT a + b FROM unnest(v, reference) t(a, b));
    END IF;
    RETURN v;
END
$$;

-- Value i (0-based) of a packed column that is not delta-encoded, read from its slices without
-- decoding the rest; reference: the value i of the reference column of a relative one. With the
-- column stored uncompressed (STORAGE EXTERNAL) only the TOAST chunks holding those bytes are read.
CREATE FUNCTION packed_value_at(packed bytea, i integer, reference bigint DEFAULT NULL)
RETURNS bigint
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
    h    bytea;
    flags integer;
    w    integer;
    n    integer;
    e    integer;
    lo   integer;
    hi   integer;
    mid  integer;
    at   integer;
    v    bigint;
BEGIN
    IF packed IS NULL OR i IS NULL THEN
        RETURN NULL;
    END IF;
    h := substring(packed from 1 for 18);
    flags := get_byte(h, 0);
    w := get_byte(h, 1);
    n := (get_byte(h, 2) << 24) | (get_byte(h, 3) << 16) | (get_byte(h, 4) << 8) | get_byte(h, 5);
    e := (get_byte(h, 14) << 24) | (get_byte(h, 15) << 16) | (get_byte(h, 16) << 8) | get_byte(h, 17);
    IF flags & 1 = 1 THEN
        RAISE EXCEPTION 'packed_value_at() cannot read a delta-encoded column';
    END IF;
    IF i < 0 OR i >= n THEN
        RETURN NULL;
    END IF;
    v := NULL;
    lo := 0;
    hi := e - 1;
    WHILE lo <= hi LOOP
        mid := (lo + hi) / 2;
        at := ('x' || encode(substring(packed from 19 + n * w + 12 * mid for 4), 'hex'))::bit(32)::integer;
        IF at = i THEN
            v := ('x' || encode(substring(packed from 19 + n * w + 12 * mid + 4 for 8), 'hex'))::bit(64)::bigint;
            EXIT;
        ELSIF at < i THEN
            lo := mid + 1;
        ELSE
            hi := mid - 1;
        END IF;
    END LOOP;
    IF v IS NULL THEN
        IF w = 0 THEN
            v := ('x' || encode(substring(h from 7 for 8), 'hex'))::bit(64)::bigint;
        ELSIF w < 8 THEN
            v := ('x' || encode(substring(h from 7 for 8), 'hex'))::bit(64)::bigint
                 + ('x' || lpad(encode(substring(packed from 19 + w * i for w), 'hex'), 16, '0'))::bit(64)::bigint;
        ELSE
            v := ('x' || encode(substring(packed from 19 + 8 * i for 8), 'hex'))::bit(64)::bigint;
        END IF;
    END IF;
    IF flags & 2 = 2 THEN
        v := v + reference;
    END IF;
    RETURN v;
END
$$;

-- A packed column's header and values, read out of TOAST once: what packed_at() reads from.
CREATE TYPE packed_column AS (flags integer, w integer, n integer, base bigint, e integer, data bytea);

CREATE FUNCTION packed_column(packed bytea) RETURNS packed_column
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
    p bytea := substring(packed from 1);
    c packed_column;
BEGIN
    c.flags := get_byte(p, 0);
    c.w := get_byte(p, 1);
    c.n := (get_byte(p, 2) << 24) | (get_byte(p, 3) << 16) | (get_byte(p, 4) << 8) | get_byte(p, 5);
    c.base := ('x' || encode(substring(p from 7 for 8), 'hex'))::bit(64)::bigint;
    c.e := (get_byte(p, 14) << 24) | (get_byte(p, 15) << 16) | (get_byte(p, 16) << 8) | get_byte(p, 17);
    c.data := substring(p from 19 for c.n * c.w);
    RETURN c;
END
$$;

-- Value i (0-based) of a column's data as packed_column() read it, its exceptions, deltas and
-- reference aside: an SQL function the planner inlines, so that a query over generate_series reads
-- every column of a pack in one pass (about 0.1 microseconds a value, against 0.3 for
-- packed_values(), whose cost is mostly a row per value).
CREATE FUNCTION packed_at(data bytea, w integer, base bigint, i integer) RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE w
        WHEN 0 THEN base
        WHEN 1 THEN base + get_byte(data, i)
        WHEN 2 THEN base + ((get_byte(data, 2 * i) << 8) | get_byte(data, 2 * i + 1))
        WHEN 3 THEN base + ((get_byte(data, 3 * i) << 16) | (get_byte(data, 3 * i + 1) << 8) | get_byte(data, 3 * i + 2))
        WHEN 4 THEN base + ((get_byte(data, 4 * i)::bigint << 24) | (get_byte(data, 4 * i + 1) << 16)
                            | (get_byte(data, 4 * i + 2) << 8) | get_byte(data, 4 * i + 3))
        WHEN 8 THEN ('x' || encode(substring(data from 8 * i + 1 for 8), 'hex'))::bit(64)::bigint
        ELSE base + ('x' || lpad(encode(substring(data from w * i + 1 for w), 'hex'), 16, '0'))::bit(64)::bigint
    END
$$;

-- The bytes a packed column needs a value for the values from lo to hi (8: any bigint).
CREATE FUNCTION packed_width(lo numeric, hi numeric) RETURNS integer
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE WHEN lo IS NULL OR hi = lo THEN 0
                WHEN hi - lo < 256 THEN 1
                WHEN hi - lo < 65536 THEN 2
                WHEN hi - lo < 16777216 THEN 3
                WHEN hi - lo < 4294967296 THEN 4
                WHEN hi - lo < 1099511627776 THEN 5
                WHEN hi - lo < 281474976710656 THEN 6
                WHEN hi - lo < 72057594037927936 THEN 7
                ELSE 8 END
$$;

-- Packs integers as packed_values() reads them (frame of reference): plain, as deltas (with
-- deltas; the first value is then the one exception) or relative to reference, whichever takes the
-- fewest bytes. The import packs in Java (io.tracegraph.postgres.Packing, which also patches
-- outliers as exceptions); this serves the conversion below and anyone writing packs in SQL.
CREATE FUNCTION pack_values(vals bigint[], reference bigint[] DEFAULT NULL, deltas boolean DEFAULT false)
RETURNS bytea
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
    n      integer := coalesce(array_length(vals, 1), 0);
    flags  integer := 0;
    w      integer;
    base   bigint;
    e      integer := 0;
    lo     numeric;
    hi     numeric;
    cw     integer;
    stored bigint[] := vals;
BEGIN
    SELECT min(v), max(v) INTO lo, hi FROM unnest(vals) v;
    w := packed_width(lo, hi);
    base := CASE WHEN w = 8 THEN 0 ELSE coalesce(lo, 0) END;
    IF deltas AND n > 2 THEN
        SELECT min(d), max(d) INTO lo, hi
        FROM (SELECT v::numeric - lag(v) OVER (ORDER BY o) AS d FROM unnest(vals) WITH ORDINALITY t(v, o)) s
        WHERE d IS NOT NULL;
        IF lo >= -9223372036854775808 AND hi <= 9223372036854775807 THEN
            cw := packed_width(lo, hi);
            IF n::bigint * cw + 12 < n::bigint * w THEN
                w := cw;
                flags := 1;
                e := 1;
                base := CASE WHEN w = 8 THEN 0 ELSE lo::bigint END;
                -- The first value is the exception; its place holds base (stored 0).
                stored := ARRAY(SELECT coalesce(v - lag(v) OVER (ORDER BY o), base)
                                FROM unnest(vals) WITH ORDINALITY t(v, o) ORDER BY o);
            END IF;
        END IF;
    END IF;
    IF reference IS NOT NULL AND n > 0 THEN
        IF coalesce(array_length(reference, 1), 0) <> n THEN
            RAISE EXCEPTION 'a relative packed column of % values needs a reference of as many', n;
        END IF;
        SELECT min(a::numeric - b), max(a::numeric - b) INTO lo, hi FROM unnest(vals, reference) t(a, b);
        IF lo >= -9223372036854775808 AND hi <= 9223372036854775807 THEN
            cw := packed_width(lo, hi);
            IF n::bigint * cw < n::bigint * w + 12 * e THEN
                w := cw;
                flags := 2;
                e := 0;
                base := CASE WHEN w = 8 THEN 0 ELSE lo::bigint END;
                stored := ARRAY(SELECT a - b FROM unnest(vals, reference) t(a, b));
            END IF;
        END IF;
    END IF;
    RETURN substring(int4send((flags << 8) | w) from 3) || int4send(n) || int8send(base) || int4send(e)
        || coalesce((SELECT string_agg(substring(int8send(v - base) from 9 - w), ''::bytea ORDER BY o)
                     FROM unnest(stored) WITH ORDINALITY t(v, o)), ''::bytea)
        || CASE WHEN e = 1 THEN int4send(0) || int8send(vals[1]) ELSE ''::bytea END;
END
$$;

-- ---- the packs -------------------------------------------------------------------------------------
--
-- A reference to a string is a packed integer: its position (from 0) in the run's words or ids;
-- -1 is NULL. Timeline categories keep -1 for "never allocated on that device yet" (NULL in the
-- view); storage_bytes -1 is NULL. Columns whose name says a reference are relative to it.

-- The run's strings. words: every repeated string (names, kinds, dtypes, devices, labels,
-- categories, shapes written as '{2,128,64}'), each once; ids: the node ids in node order (node i's
-- id is ids[i + 1]), then the other ids that edges, parents and the peak breakdown name (tensor ids
-- mostly), each once.
CREATE TABLE run_strings (
    run_key     bigint  PRIMARY KEY,
    words       text[]  NOT NULL,
    ids         text[]  NOT NULL
);

-- The nodes, in node order (spans in id order, then ops). parents: ids references; names, kinds,
-- shapes, dtypes, devices: words references; paths: the node's path_rank in path_packs (its path
-- text, hash and depth); start_ns mostly as deltas; total_times_ns relative to self_times_ns;
-- peak_bytes relative to bytes.
CREATE TABLE node_packs (
    run_key         bigint  PRIMARY KEY,
    nodes           integer NOT NULL,
    parents         bytea   NOT NULL,
    names           bytea   NOT NULL,
    kinds           bytea   NOT NULL,
    paths           bytea   NOT NULL,
    start_ns        bytea   NOT NULL,
    self_times_ns   bytea   NOT NULL,
    total_times_ns  bytea   NOT NULL,
    shapes          bytea   NOT NULL,
    dtypes          bytea   NOT NULL,
    devices         bytea   NOT NULL,
    bytes           bytea   NOT NULL,
    peak_bytes      bytea   NOT NULL,
    residual_bytes  bytea   NOT NULL,
    storage_bytes   bytea   NOT NULL
);

-- The edges, in graph order. froms, tos: ids references (tos relative to froms); kinds, labels:
-- words references.
CREATE TABLE edge_packs (
    run_key         bigint  PRIMARY KEY,
    edges           integer NOT NULL,
    froms           bytea   NOT NULL,
    tos             bytea   NOT NULL,
    kinds           bytea   NOT NULL,
    durations_ns    bytea   NOT NULL,
    labels          bytea   NOT NULL
);

-- The memory timeline, one point per memory record in analysis order. devices: words references;
-- heap_bytes relative to live_bytes.
CREATE TABLE timeline_packs (
    run_key             bigint  PRIMARY KEY,
    points              integer NOT NULL,
    timestamps_ns       bytea   NOT NULL,
    devices             bytea   NOT NULL,
    live_bytes          bytea   NOT NULL,
    heap_bytes          bytea   NOT NULL,
    free_bytes          bytea   NOT NULL,
    activation_bytes    bytea   NOT NULL,
    gradient_bytes      bytea   NOT NULL,
    optimizer_bytes     bytea   NOT NULL,
    other_bytes         bytea   NOT NULL,
    parameter_bytes     bytea   NOT NULL
);

-- The allocations live at the global memory peak, in breakdown order. tensor_ids, span_ids: ids
-- references; op_names, shapes, dtypes, devices, categories: words references.
CREATE TABLE breakdown_packs (
    run_key         bigint  PRIMARY KEY,
    allocations     integer NOT NULL,
    tensor_ids      bytea   NOT NULL,
    span_ids        bytea   NOT NULL,
    op_names        bytea   NOT NULL,
    bytes           bytea   NOT NULL,
    shapes          bytea   NOT NULL,
    dtypes          bytea   NOT NULL,
    devices         bytea   NOT NULL,
    categories      bytea   NOT NULL
);

-- The run's semantic paths aggregated over their occurrences (what V3's path_stats held), in path
-- order (code point order of the text, then hash): element i is the path of path_rank i. hashes
-- and texts plain arrays; kinds: words references; total_times_ns relative to self_times_ns,
-- peak_bytes relative to bytes; depths: the path's depth (root = 0); by_hash: the path ranks in
-- the order of their hashes (a path is found by its hash in log2(paths) steps); digests: the
-- SHA-256 of the values of hashes, kinds, counts, self times, total times, bytes and peak bytes as
-- V4's path_columns packed them (8-byte big-endian; kinds joined by line feeds), 7 x 32 bytes, so
-- a comparison tells a column equal to another run's without reading it.
CREATE TABLE path_packs (
    run_key         bigint   PRIMARY KEY,
    paths           integer  NOT NULL,
    hashes          bigint[] NOT NULL,
    kinds           bytea    NOT NULL,
    counts          bytea    NOT NULL,
    self_times_ns   bytea    NOT NULL,
    total_times_ns  bytea    NOT NULL,
    bytes           bytea    NOT NULL,
    peak_bytes      bytea    NOT NULL,
    depths          bytea    NOT NULL,
    by_hash         bytea    NOT NULL,
    texts           text[]   NOT NULL,
    digests         bytea    NOT NULL
);

-- pglz (the only TOAST compression of every server) pays on the string lists and the dictionary
-- references and byte columns of the packs (docs/schema.md has the measurements); the hashes do not
-- compress, and the path lookup reads slices of hashes and by_hash, which only uncompressed storage
-- allows without decompressing them whole.
ALTER TABLE path_packs
    ALTER COLUMN hashes SET STORAGE EXTERNAL,
    ALTER COLUMN by_hash SET STORAGE EXTERNAL;

-- ---- the runs stored before this version -----------------------------------------------------------

-- The shape of a node or an allocation as its words entry: '{2,128,64}', '{}' for a scalar.
CREATE FUNCTION pg_temp.shape_word(shape bigint[]) RETURNS text LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE WHEN shape IS NULL THEN NULL ELSE shape::text END
$$;

CREATE TEMP TABLE v5_words (word text PRIMARY KEY, ref integer NOT NULL);
CREATE TEMP TABLE v5_ids (id text PRIMARY KEY, ref integer NOT NULL);

DO $$
DECLARE
    r       bigint;
    n       integer;
BEGIN
    -- Every run any of the old tables holds rows of (the store writes them all for each run).
    FOR r IN SELECT run_key FROM runs UNION SELECT run_key FROM nodes UNION SELECT run_key FROM edges
             UNION SELECT run_key FROM memory_timeline UNION SELECT run_key FROM memory_peak_breakdown
             UNION SELECT run_key FROM path_stats ORDER BY 1 LOOP
        TRUNCATE v5_words, v5_ids;
        INSERT INTO v5_words (word, ref)
        SELECT w, (row_number() OVER (ORDER BY w COLLATE "C") - 1)::integer
        FROM (SELECT unnest(ARRAY[name, kind, dtype, device, pg_temp.shape_word(shape)]) FROM nodes WHERE run_key = r
              UNION SELECT unnest(ARRAY[kind, label]) FROM edges WHERE run_key = r
              UNION SELECT device FROM memory_timeline WHERE run_key = r
              UNION SELECT unnest(ARRAY[op_name, dtype, device, category, pg_temp.shape_word(shape)])
                    FROM memory_peak_breakdown WHERE run_key = r
              UNION SELECT kind FROM path_stats WHERE run_key = r) s(w)
        WHERE w IS NOT NULL;

        -- Node ids by position (the first node of an id names it), then the other ids.
        INSERT INTO v5_ids (id, ref)
        SELECT DISTINCT ON (id) id, pos
        FROM (SELECT id, (row_number() OVER (ORDER BY node_idx) - 1)::integer AS pos FROM nodes WHERE run_key = r) s
        ORDER BY id, pos;
        SELECT count(*) INTO n FROM nodes WHERE run_key = r;
        INSERT INTO v5_ids (id, ref)
        SELECT x, n + (row_number() OVER (ORDER BY x COLLATE "C") - 1)::integer
        FROM (SELECT parent_id FROM nodes WHERE run_key = r
              UNION SELECT unnest(ARRAY[from_id, to_id]) FROM edges WHERE run_key = r
              UNION SELECT unnest(ARRAY[tensor_id, span_id]) FROM memory_peak_breakdown WHERE run_key = r) s(x)
        WHERE x IS NOT NULL AND NOT EXISTS (SELECT 1 FROM v5_ids i WHERE i.id = s.x);

        INSERT INTO run_strings (run_key, words, ids)
        SELECT r,
               coalesce((SELECT array_agg(word ORDER BY ref) FROM v5_words), '{}'),
               coalesce((SELECT array_agg(id ORDER BY node_idx) FROM nodes WHERE run_key = r), '{}')
                   || coalesce((SELECT array_agg(id ORDER BY ref) FROM v5_ids WHERE ref >= n), '{}');

        INSERT INTO node_packs (run_key, nodes, parents, names, kinds, paths, start_ns, self_times_ns,
                                total_times_ns, shapes, dtypes, devices, bytes, peak_bytes, residual_bytes,
                                storage_bytes)
        SELECT r, n, pack_values(parents), pack_values(names), pack_values(kinds), pack_values(paths),
               pack_values(starts, NULL, true), pack_values(selfs), pack_values(totals, selfs),
               pack_values(shapes), pack_values(dtypes), pack_values(devices), pack_values(bytes),
               pack_values(peaks, bytes), pack_values(residuals), pack_values(storages, bytes)
        FROM (SELECT array_agg(coalesce(par.ref, -1) ORDER BY x.node_idx) AS parents,
                     array_agg(nm.ref ORDER BY x.node_idx) AS names,
                     array_agg(kd.ref ORDER BY x.node_idx) AS kinds,
                     array_agg(ps.path_rank ORDER BY x.node_idx) AS paths,
                     array_agg(x.start_ns ORDER BY x.node_idx) AS starts,
                     array_agg(x.self_time_ns ORDER BY x.node_idx) AS selfs,
                     array_agg(x.total_time_ns ORDER BY x.node_idx) AS totals,
                     array_agg(coalesce(sh.ref, -1) ORDER BY x.node_idx) AS shapes,
                     array_agg(coalesce(dt.ref, -1) ORDER BY x.node_idx) AS dtypes,
                     array_agg(coalesce(dv.ref, -1) ORDER BY x.node_idx) AS devices,
                     array_agg(x.bytes ORDER BY x.node_idx) AS bytes,
                     array_agg(x.peak_bytes ORDER BY x.node_idx) AS peaks,
                     array_agg(x.residual_bytes ORDER BY x.node_idx) AS residuals,
                     array_agg(coalesce(x.storage_bytes, -1) ORDER BY x.node_idx) AS storages
              FROM nodes x
              LEFT JOIN v5_ids par ON par.id = x.parent_id
              JOIN v5_words nm ON nm.word = x.name
              JOIN v5_words kd ON kd.word = x.kind
              LEFT JOIN v5_words sh ON sh.word = pg_temp.shape_word(x.shape)
              LEFT JOIN v5_words dt ON dt.word = x.dtype
              LEFT JOIN v5_words dv ON dv.word = x.device
              JOIN path_stats ps ON ps.run_key = x.run_key AND ps.path_hash = x.path_hash
              WHERE x.run_key = r) a;

        INSERT INTO edge_packs (run_key, edges, froms, tos, kinds, durations_ns, labels)
        SELECT r, count, pack_values(froms), pack_values(tos), pack_values(kinds), pack_values(durations),
               pack_values(labels)
        FROM (SELECT count(*)::integer AS count,
                     coalesce(array_agg(f.ref ORDER BY x.edge_idx), '{}') AS froms,
                     coalesce(array_agg(t.ref ORDER BY x.edge_idx), '{}') AS tos,
                     coalesce(array_agg(kd.ref ORDER BY x.edge_idx), '{}') AS kinds,
                     coalesce(array_agg(x.duration_ns ORDER BY x.edge_idx), '{}') AS durations,
                     coalesce(array_agg(coalesce(lb.ref, -1) ORDER BY x.edge_idx), '{}') AS labels
              FROM edges x
              JOIN v5_ids f ON f.id = x.from_id
              JOIN v5_ids t ON t.id = x.to_id
              JOIN v5_words kd ON kd.word = x.kind
              LEFT JOIN v5_words lb ON lb.word = x.label
              WHERE x.run_key = r) a;

        INSERT INTO timeline_packs (run_key, points, timestamps_ns, devices, live_bytes, heap_bytes, free_bytes,
                                    activation_bytes, gradient_bytes, optimizer_bytes, other_bytes, parameter_bytes)
        SELECT r, count, pack_values(ts, NULL, true), pack_values(devices), pack_values(lives, NULL, true),
               pack_values(heaps, lives), pack_values(frees, NULL, true), pack_values(acts, NULL, true),
               pack_values(grads, NULL, true), pack_values(opts, NULL, true), pack_values(others, NULL, true),
               pack_values(params, NULL, true)
        FROM (SELECT count(*)::integer AS count,
                     coalesce(array_agg(x.timestamp_ns ORDER BY x.point_idx), '{}') AS ts,
                     coalesce(array_agg(dv.ref ORDER BY x.point_idx), '{}') AS devices,
                     coalesce(array_agg(x.live_bytes ORDER BY x.point_idx), '{}') AS lives,
                     coalesce(array_agg(x.heap_bytes ORDER BY x.point_idx), '{}') AS heaps,
                     coalesce(array_agg(x.free_bytes ORDER BY x.point_idx), '{}') AS frees,
                     coalesce(array_agg(coalesce(x.activation_bytes, -1) ORDER BY x.point_idx), '{}') AS acts,
                     coalesce(array_agg(coalesce(x.gradient_bytes, -1) ORDER BY x.point_idx), '{}') AS grads,
                     coalesce(array_agg(coalesce(x.optimizer_bytes, -1) ORDER BY x.point_idx), '{}') AS opts,
                     coalesce(array_agg(coalesce(x.other_bytes, -1) ORDER BY x.point_idx), '{}') AS others,
                     coalesce(array_agg(coalesce(x.parameter_bytes, -1) ORDER BY x.point_idx), '{}') AS params
              FROM memory_timeline x
              JOIN v5_words dv ON dv.word = x.device
              WHERE x.run_key = r) a;

        INSERT INTO breakdown_packs (run_key, allocations, tensor_ids, span_ids, op_names, bytes, shapes, dtypes,
                                     devices, categories)
        SELECT r, count, pack_values(tensors), pack_values(spans), pack_values(ops), pack_values(bytes),
               pack_values(shapes), pack_values(dtypes), pack_values(devices), pack_values(categories)
        FROM (SELECT count(*)::integer AS count,
                     coalesce(array_agg(t.ref ORDER BY x.rank), '{}') AS tensors,
                     coalesce(array_agg(s.ref ORDER BY x.rank), '{}') AS spans,
                     coalesce(array_agg(coalesce(op.ref, -1) ORDER BY x.rank), '{}') AS ops,
                     coalesce(array_agg(x.bytes ORDER BY x.rank), '{}') AS bytes,
                     coalesce(array_agg(sh.ref ORDER BY x.rank), '{}') AS shapes,
                     coalesce(array_agg(dt.ref ORDER BY x.rank), '{}') AS dtypes,
                     coalesce(array_agg(dv.ref ORDER BY x.rank), '{}') AS devices,
                     coalesce(array_agg(ct.ref ORDER BY x.rank), '{}') AS categories
              FROM memory_peak_breakdown x
              JOIN v5_ids t ON t.id = x.tensor_id
              JOIN v5_ids s ON s.id = x.span_id
              LEFT JOIN v5_words op ON op.word = x.op_name
              JOIN v5_words sh ON sh.word = pg_temp.shape_word(x.shape)
              JOIN v5_words dt ON dt.word = x.dtype
              JOIN v5_words dv ON dv.word = x.device
              JOIN v5_words ct ON ct.word = x.category
              WHERE x.run_key = r) a;

        INSERT INTO path_packs (run_key, paths, hashes, kinds, counts, self_times_ns, total_times_ns, bytes,
                                peak_bytes, depths, by_hash, texts, digests)
        SELECT r, count, hashes, pack_values(kinds), pack_values(counts), pack_values(selfs),
               pack_values(totals, selfs), pack_values(bytes), pack_values(peaks, bytes), pack_values(depths),
               pack_values(coalesce((SELECT array_agg(o - 1 ORDER BY h, o) FROM unnest(hashes) WITH ORDINALITY u(h, o)),
                                    '{}')),
               texts,
               coalesce((SELECT c.digests FROM path_columns c WHERE c.run_key = r),
                        sha256(''::bytea) || sha256(''::bytea) || sha256(''::bytea) || sha256(''::bytea)
                            || sha256(''::bytea) || sha256(''::bytea) || sha256(''::bytea))
        FROM (SELECT count(*)::integer AS count,
                     coalesce(array_agg(x.path_hash ORDER BY x.path_rank), '{}') AS hashes,
                     coalesce(array_agg(kd.ref ORDER BY x.path_rank), '{}') AS kinds,
                     coalesce(array_agg(x.count ORDER BY x.path_rank), '{}') AS counts,
                     coalesce(array_agg(x.self_time_ns ORDER BY x.path_rank), '{}') AS selfs,
                     coalesce(array_agg(x.total_time_ns ORDER BY x.path_rank), '{}') AS totals,
                     coalesce(array_agg(x.bytes ORDER BY x.path_rank), '{}') AS bytes,
                     coalesce(array_agg(x.peak_bytes ORDER BY x.path_rank), '{}') AS peaks,
                     coalesce(array_agg(coalesce(d.depth, 0)::bigint ORDER BY x.path_rank), '{}') AS depths,
                     coalesce(array_agg(x.path ORDER BY x.path_rank), '{}') AS texts
              FROM path_stats x
              JOIN v5_words kd ON kd.word = x.kind
              LEFT JOIN (SELECT path_hash, min(depth) AS depth FROM nodes WHERE run_key = r GROUP BY path_hash) d
                  ON d.path_hash = x.path_hash
              WHERE x.run_key = r) a;
    END LOOP;
END
$$;

DROP TABLE v5_words, v5_ids;
DROP FUNCTION pg_temp.shape_word(bigint[]);

-- ---- the old tables give way to views of the same names and columns -------------------------------

DROP FUNCTION run_path_stats(bigint);
DROP VIEW run_paths;
DROP TABLE nodes, edges, memory_timeline, memory_peak_breakdown, path_stats, path_columns;

-- One run's nodes as rows, in node order: every column nodes had. Decodes the run's packs once (the
-- functions below likewise); a run of 100,000 nodes takes about half a second.
CREATE FUNCTION run_nodes(p_run_key bigint)
RETURNS TABLE (
    node_idx        integer,
    id              text,
    parent_id       text,
    name            text,
    kind            text,
    depth           integer,
    path            text,
    path_hash       bigint,
    start_ns        bigint,
    self_time_ns    bigint,
    total_time_ns   bigint,
    shape           bigint[],
    dtype           text,
    device          text,
    bytes           bigint,
    peak_bytes      bigint,
    residual_bytes  bigint,
    storage_bytes   bigint)
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET enable_nestloop = off SET enable_mergejoin = off SET work_mem = '64MB'
AS $$
#variable_conflict use_column
DECLARE
    k node_packs;
    s run_strings;
    p path_packs;
    selfs bigint[];
    sizes bigint[];
BEGIN
    SELECT * INTO k FROM node_packs WHERE node_packs.run_key = p_run_key;
    IF NOT FOUND THEN
        RETURN;
    END IF;
    SELECT * INTO s FROM run_strings WHERE run_strings.run_key = p_run_key;
    SELECT * INTO p FROM path_packs WHERE path_packs.run_key = p_run_key;
    selfs := packed_values(k.self_times_ns);
    sizes := packed_values(k.bytes);
    RETURN QUERY
    WITH words AS MATERIALIZED (SELECT w.word, w.o FROM unnest(s.words) WITH ORDINALITY w(word, o)),
         paths AS MATERIALIZED (SELECT x.path, x.hash, x.depth, x.o
                                FROM unnest(p.texts, p.hashes, packed_values(p.depths)) WITH ORDINALITY x(path, hash, depth, o))
    SELECT (u.o - 1)::integer, u.id, par.id, nm.word, kd.word, pt.depth::integer, pt.path, pt.hash, u.start_ns,
           u.self_time_ns, u.total_time_ns, sh.word::bigint[], dt.word, dv.word, u.bytes, u.peak_bytes,
           u.residual_bytes, nullif(u.storage_bytes, -1)
    FROM unnest(s.ids[1:k.nodes], packed_values(k.parents), packed_values(k.names), packed_values(k.kinds),
                packed_values(k.paths), packed_values(k.start_ns), selfs, packed_values(k.total_times_ns, selfs),
                packed_values(k.shapes), packed_values(k.dtypes), packed_values(k.devices), sizes,
                packed_values(k.peak_bytes, sizes), packed_values(k.residual_bytes), packed_values(k.storage_bytes, sizes))
         WITH ORDINALITY u(id, parent, name, kind, path, start_ns, self_time_ns, total_time_ns, shape, dtype, device,
                           bytes, peak_bytes, residual_bytes, storage_bytes, o)
    LEFT JOIN (SELECT i.id, i.o FROM unnest(s.ids) WITH ORDINALITY i(id, o)) par ON par.o = u.parent + 1
    LEFT JOIN words nm ON nm.o = u.name + 1
    LEFT JOIN words kd ON kd.o = u.kind + 1
    LEFT JOIN words sh ON sh.o = u.shape + 1
    LEFT JOIN words dt ON dt.o = u.dtype + 1
    LEFT JOIN words dv ON dv.o = u.device + 1
    LEFT JOIN paths pt ON pt.o = u.path + 1
    ORDER BY u.o;
END
$$;

-- One run's edges as rows, in graph order.
CREATE FUNCTION run_edges(p_run_key bigint)
RETURNS TABLE (
    edge_idx        integer,
    from_id         text,
    to_id           text,
    kind            text,
    duration_ns     bigint,
    label           text)
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET enable_nestloop = off SET enable_mergejoin = off SET work_mem = '64MB'
AS $$
#variable_conflict use_column
DECLARE
    k edge_packs;
    s run_strings;
    origins bigint[];
BEGIN
    SELECT * INTO k FROM edge_packs WHERE edge_packs.run_key = p_run_key;
    IF NOT FOUND THEN
        RETURN;
    END IF;
    SELECT * INTO s FROM run_strings WHERE run_strings.run_key = p_run_key;
    origins := packed_values(k.froms);
    RETURN QUERY
    WITH ids AS MATERIALIZED (SELECT i.id, i.o FROM unnest(s.ids) WITH ORDINALITY i(id, o)),
         words AS MATERIALIZED (SELECT w.word, w.o FROM unnest(s.words) WITH ORDINALITY w(word, o))
    SELECT (u.o - 1)::integer, f.id, t.id, kd.word, u.duration_ns, lb.word
    FROM unnest(origins, packed_values(k.tos, origins), packed_values(k.kinds), packed_values(k.durations_ns),
                packed_values(k.labels)) WITH ORDINALITY u(f, t, kind, duration_ns, label, o)
    LEFT JOIN ids f ON f.o = u.f + 1
    LEFT JOIN ids t ON t.o = u.t + 1
    LEFT JOIN words kd ON kd.o = u.kind + 1
    LEFT JOIN words lb ON lb.o = u.label + 1
    ORDER BY u.o;
END
$$;

-- One run's memory timeline as rows, in analysis order (a category is NULL where the JSON omits it).
CREATE FUNCTION run_timeline(p_run_key bigint)
RETURNS TABLE (
    point_idx           integer,
    timestamp_ns        bigint,
    device              text,
    live_bytes          bigint,
    heap_bytes          bigint,
    free_bytes          bigint,
    activation_bytes    bigint,
    gradient_bytes      bigint,
    optimizer_bytes     bigint,
    other_bytes         bigint,
    parameter_bytes     bigint)
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET enable_nestloop = off SET enable_mergejoin = off SET work_mem = '64MB'
AS $$
#variable_conflict use_column
DECLARE
    k timeline_packs;
    s run_strings;
    lives bigint[];
BEGIN
    SELECT * INTO k FROM timeline_packs WHERE timeline_packs.run_key = p_run_key;
    IF NOT FOUND THEN
        RETURN;
    END IF;
    SELECT * INTO s FROM run_strings WHERE run_strings.run_key = p_run_key;
    lives := packed_values(k.live_bytes);
    RETURN QUERY
    SELECT (u.o - 1)::integer, u.timestamp_ns, dv.word, u.live_bytes, u.heap_bytes, u.free_bytes,
           nullif(u.activation_bytes, -1), nullif(u.gradient_bytes, -1), nullif(u.optimizer_bytes, -1),
           nullif(u.other_bytes, -1), nullif(u.parameter_bytes, -1)
    FROM unnest(packed_values(k.timestamps_ns), packed_values(k.devices), lives, packed_values(k.heap_bytes, lives),
                packed_values(k.free_bytes), packed_values(k.activation_bytes), packed_values(k.gradient_bytes),
                packed_values(k.optimizer_bytes), packed_values(k.other_bytes), packed_values(k.parameter_bytes))
         WITH ORDINALITY u(timestamp_ns, device, live_bytes, heap_bytes, free_bytes, activation_bytes, gradient_bytes,
                           optimizer_bytes, other_bytes, parameter_bytes, o)
    LEFT JOIN (SELECT w.word, w.o FROM unnest(s.words) WITH ORDINALITY w(word, o)) dv ON dv.o = u.device + 1
    ORDER BY u.o;
END
$$;

-- One run's peak breakdown as rows: the allocations live at the global memory peak, largest first.
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
    category        text)
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
    SELECT (u.o - 1)::integer, t.id, sp.id, op.word, u.bytes, sh.word::bigint[], dt.word, dv.word, ct.word
    FROM unnest(packed_values(k.tensor_ids), packed_values(k.span_ids), packed_values(k.op_names),
                packed_values(k.bytes), packed_values(k.shapes), packed_values(k.dtypes), packed_values(k.devices),
                packed_values(k.categories)) WITH ORDINALITY u(t, sp, op, bytes, shape, dtype, device, category, o)
    LEFT JOIN ids t ON t.o = u.t + 1
    LEFT JOIN ids sp ON sp.o = u.sp + 1
    LEFT JOIN words op ON op.o = u.op + 1
    LEFT JOIN words sh ON sh.o = u.shape + 1
    LEFT JOIN words dt ON dt.o = u.dtype + 1
    LEFT JOIN words dv ON dv.o = u.device + 1
    LEFT JOIN words ct ON ct.o = u.category + 1
    ORDER BY u.o;
END
$$;

-- One run's paths as rows, in path order: what path_stats held (V3), with each path's depth.
CREATE FUNCTION run_path_rows(p_run_key bigint)
RETURNS TABLE (
    path_rank       integer,
    path_hash       bigint,
    path            text,
    kind            text,
    count           bigint,
    self_time_ns    bigint,
    total_time_ns   bigint,
    bytes           bigint,
    peak_bytes      bigint,
    depth           integer)
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET enable_nestloop = off SET enable_mergejoin = off SET work_mem = '64MB'
AS $$
#variable_conflict use_column
DECLARE
    k path_packs;
    s run_strings;
    selfs bigint[];
    sizes bigint[];
    ck packed_column;
    cc packed_column;
    cs packed_column;
    ct packed_column;
    cb packed_column;
    cp packed_column;
    cd packed_column;
    kind_refs bigint[];
    kind_words text[];
BEGIN
    SELECT * INTO k FROM path_packs WHERE path_packs.run_key = p_run_key;
    IF NOT FOUND THEN
        RETURN;
    END IF;
    SELECT * INTO s FROM run_strings WHERE run_strings.run_key = p_run_key;
    ck := packed_column(k.kinds);
    cc := packed_column(k.counts);
    cs := packed_column(k.self_times_ns);
    ct := packed_column(k.total_times_ns);
    cb := packed_column(k.bytes);
    cp := packed_column(k.peak_bytes);
    cd := packed_column(k.depths);
    IF ck.e + cc.e + cs.e + ct.e + cb.e + cp.e + cd.e = 0
            AND (ck.flags | cc.flags | cs.flags | ct.flags | cb.flags | cp.flags | cd.flags) & 1 = 0
            AND (ck.flags | cc.flags | cs.flags | cb.flags | cd.flags) = 0 THEN
        -- No exceptions, no deltas (the import packs path columns so): every column in one pass,
        -- in path order; the few kinds looked up in a small array (no join, no sort).
        SELECT coalesce(array_agg(d.r ORDER BY d.r), '{}'), coalesce(array_agg(s.words[d.r + 1] ORDER BY d.r), '{}')
        INTO kind_refs, kind_words
        FROM (SELECT DISTINCT packed_at(ck.data, ck.w, ck.base, i) AS r FROM generate_series(0, k.paths - 1) i) d;
        RETURN QUERY
        SELECT x.i, x.hash, x.path, kind_words[array_position(kind_refs, x.kind)], x.count, x.self_time_ns,
               CASE WHEN ct.flags = 2 THEN x.self_time_ns + x.total ELSE x.total END,
               x.bytes, CASE WHEN cp.flags = 2 THEN x.bytes + x.peak ELSE x.peak END, x.depth
        FROM (SELECT (u.o - 1)::integer AS i, u.hash, u.path,
                     packed_at(ck.data, ck.w, ck.base, (u.o - 1)::integer) AS kind,
                     packed_at(cc.data, cc.w, cc.base, (u.o - 1)::integer) AS count,
                     packed_at(cs.data, cs.w, cs.base, (u.o - 1)::integer) AS self_time_ns,
                     packed_at(ct.data, ct.w, ct.base, (u.o - 1)::integer) AS total,
                     packed_at(cb.data, cb.w, cb.base, (u.o - 1)::integer) AS bytes,
                     packed_at(cp.data, cp.w, cp.base, (u.o - 1)::integer) AS peak,
                     packed_at(cd.data, cd.w, cd.base, (u.o - 1)::integer)::integer AS depth
              FROM unnest(k.hashes, k.texts) WITH ORDINALITY u(hash, path, o)) x;
        RETURN;
    END IF;
    selfs := packed_values(k.self_times_ns);
    sizes := packed_values(k.bytes);
    RETURN QUERY
    SELECT (u.o - 1)::integer, u.hash, u.path, kd.word, u.count, u.self_time_ns, u.total_time_ns, u.bytes,
           u.peak_bytes, u.depth::integer
    FROM unnest(k.hashes, k.texts, packed_values(k.kinds), packed_values(k.counts), selfs,
                packed_values(k.total_times_ns, selfs), sizes, packed_values(k.peak_bytes, sizes),
                packed_values(k.depths))
         WITH ORDINALITY u(hash, path, kind, count, self_time_ns, total_time_ns, bytes, peak_bytes, depth, o)
    LEFT JOIN (SELECT w.word, w.o FROM unnest(s.words) WITH ORDINALITY w(word, o)) kd ON kd.o = u.kind + 1
    ORDER BY u.o;
END
$$;

CREATE VIEW nodes AS
SELECT k.run_key, n.*
FROM node_packs k
CROSS JOIN LATERAL run_nodes(k.run_key) n;

CREATE VIEW edges AS
SELECT k.run_key, e.*
FROM edge_packs k
CROSS JOIN LATERAL run_edges(k.run_key) e;

CREATE VIEW memory_timeline AS
SELECT k.run_key, t.*
FROM timeline_packs k
CROSS JOIN LATERAL run_timeline(k.run_key) t;

CREATE VIEW memory_peak_breakdown AS
SELECT k.run_key, b.*
FROM breakdown_packs k
CROSS JOIN LATERAL run_peak_breakdown(k.run_key) b;

CREATE VIEW path_stats AS
SELECT k.run_key, p.path_rank, p.path_hash, p.path, p.kind, p.count, p.self_time_ns, p.total_time_ns, p.bytes,
       p.peak_bytes
FROM path_packs k
CROSS JOIN LATERAL run_path_rows(k.run_key) p;

-- The same statistics in V4's packed form (8-byte big-endian integers; kinds joined by line feeds).
CREATE VIEW path_columns AS
SELECT k.run_key, k.paths, c.path_hashes, c.kinds, c.counts, c.self_times_ns, c.total_times_ns, c.bytes,
       c.peak_bytes, k.digests
FROM path_packs k
CROSS JOIN LATERAL (
    SELECT coalesce(string_agg(int8send(p.path_hash), ''::bytea ORDER BY p.path_rank), ''::bytea) AS path_hashes,
           coalesce(string_agg(p.kind, E'\n' ORDER BY p.path_rank), '') AS kinds,
           coalesce(string_agg(int8send(p.count), ''::bytea ORDER BY p.path_rank), ''::bytea) AS counts,
           coalesce(string_agg(int8send(p.self_time_ns), ''::bytea ORDER BY p.path_rank), ''::bytea) AS self_times_ns,
           coalesce(string_agg(int8send(p.total_time_ns), ''::bytea ORDER BY p.path_rank), ''::bytea) AS total_times_ns,
           coalesce(string_agg(int8send(p.bytes), ''::bytea ORDER BY p.path_rank), ''::bytea) AS bytes,
           coalesce(string_agg(int8send(p.peak_bytes), ''::bytea ORDER BY p.path_rank), ''::bytea) AS peak_bytes
    FROM run_path_rows(k.run_key) p) c;

-- As in V3: per run and semantic path, read from the stored statistics.
CREATE VIEW run_paths AS
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

-- As in V2: one run's paths, to call once per row of another query. An SQL function the planner
-- inlines: each call decodes one run (run_path_rows() is called with the run's key).
CREATE FUNCTION run_path_stats(p_run_key bigint)
RETURNS SETOF run_paths
LANGUAGE sql STABLE PARALLEL SAFE AS $$
    SELECT p_run_key, p.path_hash, p.path COLLATE "C", p.kind, p.count, p.self_time_ns, p.total_time_ns, p.bytes,
           p.peak_bytes
    FROM run_path_rows(p_run_key) p
$$;

-- One path of one run by its hash, without its text: its path_rank and statistics (none when the
-- run lacks the path), found by binary search over the run's paths in hash order (by_hash) without
-- decoding the others, in slices of the packs: about a millisecond, so that following one path
-- across hundreds of runs stays fast.
CREATE FUNCTION run_path_figures(p_run_key bigint, p_path_hash bigint)
RETURNS TABLE (
    path_rank       integer,
    kind            text,
    count           bigint,
    self_time_ns    bigint,
    total_time_ns   bigint,
    bytes           bigint,
    peak_bytes      bigint)
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
            SELECT x.w INTO word FROM run_strings s, unnest(s.words) WITH ORDINALITY x(w, o)
            WHERE s.run_key = p_run_key AND x.o = packed_value_at(k.kinds, rnk) + 1;
            path_rank := rnk;
            kind := word;
            count := packed_value_at(k.counts, rnk);
            self_time_ns := selfs;
            total_time_ns := packed_value_at(k.total_times_ns, rnk, selfs);
            bytes := sizes;
            peak_bytes := packed_value_at(k.peak_bytes, rnk, sizes);
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

-- One path of one run by its hash: its run_paths row (none when the run lacks the path), as
-- run_path_figures() finds it, with its text.
CREATE FUNCTION run_path(p_run_key bigint, p_path_hash bigint)
RETURNS SETOF run_paths
LANGUAGE sql STABLE PARALLEL SAFE AS $$
    SELECT p_run_key, p_path_hash, (SELECT k.texts[f.path_rank + 1] FROM path_packs k WHERE k.run_key = p_run_key)
           COLLATE "C", f.kind, f.count, f.self_time_ns, f.total_time_ns, f.bytes, f.peak_bytes
    FROM run_path_figures(p_run_key, p_path_hash) f
$$;

-- Per-run aggregation without a correlated subquery over the runs catalogue (it would not push down
-- to the servers of a distributed store): the health warnings counted per run, then joined.
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
       coalesce(h.warnings, 0) AS warning_count
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
    DELETE FROM tensors WHERE run_key = p_run_key;
    DELETE FROM gradients WHERE run_key = p_run_key;
    DELETE FROM graph_summaries WHERE run_key = p_run_key;
    DELETE FROM memory_summaries WHERE run_key = p_run_key;
    DELETE FROM memory_devices WHERE run_key = p_run_key;
    DELETE FROM health_issues WHERE run_key = p_run_key;
    DELETE FROM runs WHERE run_key = p_run_key;
$$;
