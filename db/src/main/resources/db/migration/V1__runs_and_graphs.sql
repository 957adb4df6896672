-- tracegraph store, version 1: runs, their execution graphs, memory profiles, health and the
-- import log. Every per-run table starts its key with run_key, the column a Citus deployment would
-- distribute by (docs/scaling.md). Integers are bigint: tracegraph refuses trace integers above
-- 2^63-1 (decision D5), so every value fits.
--
-- Child tables carry no foreign key to runs: per-row referential triggers would cost more than the
-- COPY itself on million-row graphs. A run and its rows are written in one transaction and removed
-- by delete_run(), so they never part company.

CREATE TABLE runs (
    run_key             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    run_id              text        NOT NULL,
    correlation_id      text        NOT NULL,
    entrypoint          text        NOT NULL,
    phase               text        NOT NULL CHECK (phase IN ('train', 'infer')),
    run_timestamp       text        NOT NULL,            -- as the producer wrote it
    captured_at         timestamptz,                     -- run_timestamp when it parses as ISO-8601
    capture_step        bigint      NOT NULL,
    warmup_steps        bigint      NOT NULL,
    device              text        NOT NULL,
    timing_mode         text        NOT NULL CHECK (timing_mode IN ('host', 'device_synchronized')),
    tags                jsonb       NOT NULL DEFAULT '{}'::jsonb,
    candle_version      text,
    trace_schema        text        NOT NULL,
    graph_schema        text        NOT NULL,
    source_name         text        NOT NULL,
    content_sha256      text        NOT NULL,            -- hex SHA-256 of the trace bytes
    content_bytes       bigint      NOT NULL,
    imported_at         timestamptz NOT NULL DEFAULT now(),
    trusted             boolean     NOT NULL,
    coverage            jsonb       NOT NULL,
    total_ms            double precision NOT NULL,
    node_count          bigint      NOT NULL,
    edge_count          bigint      NOT NULL,
    CONSTRAINT runs_run_id_key UNIQUE (run_id),
    CONSTRAINT runs_content_key UNIQUE (content_sha256)
);
CREATE INDEX runs_entrypoint_time ON runs (entrypoint, captured_at DESC);
CREATE INDEX runs_tags ON runs USING gin (tags jsonb_path_ops);

-- Span and op nodes. node_idx is the node's position in the graph (spans in id order, then ops).
-- path is the semantic path (names from the root down, '/'-joined), the key that matches the same
-- span across runs; path_hash identifies it exactly even where path had to be abbreviated
-- (very deep trees: see docs/schema.md).
CREATE TABLE nodes (
    run_key             bigint      NOT NULL,
    node_idx            integer     NOT NULL,
    id                  text        NOT NULL,
    parent_id           text,
    name                text        NOT NULL,
    kind                text        NOT NULL,
    depth               integer     NOT NULL,
    path                text        NOT NULL,
    path_hash           bigint      NOT NULL,
    start_ns            bigint      NOT NULL,
    self_time_ns        bigint      NOT NULL,
    total_time_ns       bigint      NOT NULL,
    shape               bigint[],
    dtype               text,
    device              text,
    bytes               bigint      NOT NULL,
    peak_bytes          bigint      NOT NULL,
    residual_bytes      bigint      NOT NULL,
    storage_bytes       bigint,
    PRIMARY KEY (run_key, node_idx)
);

CREATE TABLE edges (
    run_key             bigint      NOT NULL,
    edge_idx            integer     NOT NULL,
    from_id             text        NOT NULL,
    to_id               text        NOT NULL,
    kind                text        NOT NULL CHECK (kind IN ('call', 'data')),
    duration_ns         bigint      NOT NULL,
    label               text,
    PRIMARY KEY (run_key, edge_idx)
);

CREATE TABLE tensors (
    run_key             bigint      NOT NULL,
    tensor_idx          integer     NOT NULL,
    span_id             text        NOT NULL,
    tensor_id           text        NOT NULL,
    shape               bigint[]    NOT NULL,
    dtype               text        NOT NULL,
    device              text        NOT NULL,
    requires_grad       boolean     NOT NULL,
    storage_bytes       bigint      NOT NULL,
    category            text        NOT NULL,
    PRIMARY KEY (run_key, tensor_idx)
);

CREATE TABLE gradients (
    run_key             bigint      NOT NULL,
    gradient_idx        integer     NOT NULL,
    root                text        NOT NULL,
    key                 text        NOT NULL,
    state               text        NOT NULL CHECK (state IN ('present', 'missing', 'zero', 'non_finite')),
    norm                double precision,
    PRIMARY KEY (run_key, gradient_idx)
);

-- The graph summary: the measured total and the top-8 lists, in rank order.
CREATE TABLE graph_summaries (
    run_key             bigint      PRIMARY KEY,
    entrypoint          text        NOT NULL,
    total_ms            double precision NOT NULL,
    slowest_spans       jsonb       NOT NULL,   -- [{id, name, self_time_ns}]
    heaviest_spans      jsonb       NOT NULL    -- [{id, name, bytes, peak_bytes}]
);

CREATE TABLE memory_summaries (
    run_key                 bigint  PRIMARY KEY,
    alloc_count             bigint  NOT NULL,
    free_count              bigint  NOT NULL,
    total_alloc_bytes       bigint  NOT NULL,
    peak_bytes              bigint  NOT NULL,
    peak_timestamp_ns       bigint  NOT NULL,
    peak_device             text    NOT NULL,
    peak_by_category        jsonb   NOT NULL,   -- {category: bytes}, categories present at the peak
    autograd_retained_bytes bigint  NOT NULL
);

CREATE TABLE memory_devices (
    run_key             bigint      NOT NULL,
    device              text        NOT NULL,
    capacity_bytes      bigint      NOT NULL,
    peak_bytes          bigint      NOT NULL,
    peak_timestamp_ns   bigint      NOT NULL,
    alloc_count         bigint      NOT NULL,
    free_count          bigint      NOT NULL,
    PRIMARY KEY (run_key, device)
);

-- One point per memory record, in analysis order. A category column is NULL when the category was
-- never allocated on that device up to that point (the JSON omits it), 0 when it dropped to zero.
CREATE TABLE memory_timeline (
    run_key             bigint      NOT NULL,
    point_idx           integer     NOT NULL,
    timestamp_ns        bigint      NOT NULL,
    device              text        NOT NULL,
    live_bytes          bigint      NOT NULL,
    heap_bytes          bigint      NOT NULL,
    free_bytes          bigint      NOT NULL,
    activation_bytes    bigint,
    gradient_bytes      bigint,
    optimizer_bytes     bigint,
    other_bytes         bigint,
    parameter_bytes     bigint,
    PRIMARY KEY (run_key, point_idx)
);

-- The allocations live at the global memory peak, in breakdown order.
CREATE TABLE memory_peak_breakdown (
    run_key             bigint      NOT NULL,
    rank                integer     NOT NULL,
    tensor_id           text        NOT NULL,
    span_id             text        NOT NULL,
    op_name             text,
    bytes               bigint      NOT NULL,
    shape               bigint[]    NOT NULL,
    dtype               text        NOT NULL,
    device              text        NOT NULL,
    category            text        NOT NULL,
    PRIMARY KEY (run_key, rank)
);

CREATE TABLE health_issues (
    run_key             bigint      NOT NULL,
    issue_idx           integer     NOT NULL,
    severity            text        NOT NULL CHECK (severity IN ('error', 'warning')),
    code                text        NOT NULL,
    message             text        NOT NULL,
    PRIMARY KEY (run_key, issue_idx)
);

-- Every input an import tried, whatever became of it.
CREATE TABLE import_log (
    entry_key           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    import_id           uuid        NOT NULL,
    source_name         text        NOT NULL,
    outcome             text        NOT NULL
                        CHECK (outcome IN ('accepted', 'replaced', 'duplicate', 'rejected', 'previously_rejected')),
    reason              text,
    content_fault       boolean     NOT NULL DEFAULT false,  -- rejected for what the content is (malformed, untrusted)
    run_id              text,
    content_sha256      text,
    logged_at           timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX import_log_import ON import_log (import_id);
CREATE INDEX import_log_faulty_content ON import_log (content_sha256) WHERE content_fault;

-- Removes a run and everything stored for it (used by `import --replace`).
CREATE FUNCTION delete_run(p_run_key bigint) RETURNS void LANGUAGE sql AS $$
    DELETE FROM nodes WHERE run_key = p_run_key;
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
