-- On a Citus coordinator (the `citus` extension installed), the store is distributed by run
-- (docs/scaling.md): the catalogue `runs` and `import_log` become reference tables (copied to every
-- node, their unique constraints kept), and every other table with a `run_key` column is
-- distributed by `run_key`, all co-located with `node_packs`, so that all rows of one run live on
-- one worker and a run's import is one worker's transaction. Elsewhere (one PostgreSQL server, or
-- the postgres_fdw shards of a sharded store) this migration does nothing.
DO $$
DECLARE
    t text;
BEGIN
    IF NOT EXISTS (SELECT FROM pg_extension WHERE extname = 'citus') THEN
        RETURN;
    END IF;
    -- A table distributed already (by hand, as docs/scaling.md once said) stays as it is.
    FOREACH t IN ARRAY ARRAY['runs', 'import_log'] LOOP
        IF NOT EXISTS (SELECT FROM pg_dist_partition WHERE logicalrelid = format('public.%I', t)::regclass) THEN
            PERFORM create_reference_table(format('public.%I', t));
        END IF;
    END LOOP;
    IF NOT EXISTS (SELECT FROM pg_dist_partition WHERE logicalrelid = 'public.node_packs'::regclass) THEN
        PERFORM create_distributed_table('public.node_packs', 'run_key');
    END IF;
    FOR t IN
        SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p')
          AND c.relname NOT IN ('runs', 'import_log', 'node_packs')
          AND NOT EXISTS (SELECT FROM pg_dist_partition d WHERE d.logicalrelid = c.oid)
          AND c.relname NOT LIKE 'flyway%'
          AND EXISTS (SELECT FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'run_key'
                      AND NOT a.attisdropped)
        ORDER BY c.relname
    LOOP
        PERFORM create_distributed_table(format('public.%I', t), 'run_key', colocate_with => 'public.node_packs');
    END LOOP;
END
$$;
