-- tracegraph store, version 9: the per-run functions usable on Citus (docs/scaling.md, "Citus").
-- Elsewhere (one PostgreSQL server, or the postgres_fdw shards of a sharded store) this migration
-- does nothing.
--
-- On Citus (V7), three recipes of docs/sql.md failed although every query command answered:
-- - A query that reads only the reference table `runs` (`compare_runs((SELECT run_key FROM runs
--   ...), ...)`) is sent whole to one node's copy of `runs`, and a view over the packs
--   (`run_paths`, `nodes`, ...) is sent to the workers that hold its runs. The functions they call
--   (compare_runs(), run_path_rows(), run_nodes(), ...) then run inside a query on a shard, and
--   their own reads of the distributed tables were refused ("cannot execute a distributed query
--   from a query on a shard"). Each of these functions now sets
--   `citus.allow_nested_distributed_execution` for its own duration: its read, of one run by
--   `run_key`, is routed to the worker holding that run (on the same worker: executed locally).
--   They only read, so the incorrectness Citus warns of (a nested write, or a read of rows the
--   outer statement changes) cannot arise; runs are written once and read whole.
-- - A function created before V7 distributed the tables and whose result type is a view's row
--   (run_path() returns `SETOF run_paths`) was never copied to the workers ("function
--   public.run_path(bigint, bigint) does not exist"): every function of the store is now made
--   known to all nodes (`create_distributed_function`, without a distribution argument: the
--   functions run where the query that calls them runs; delegating a call to the worker of its
--   run would not help, as a delegated call's reads are refused the same way).
-- - An SQL function whose body reads a distributed table with its argument as a parameter cannot
--   be planned by Citus when it is not inlined ("parameterized queries for SQL functions referencing
--   distributed tables are not supported"): run_path() always, and run_path_stats() when called
--   with a subquery as argument. On Citus both become PL/pgSQL with the same rows (run_path_stats()
--   as before V8, from run_path_rows(); its inlining, V8, stays on the other stores).
DO $$
DECLARE
    f regprocedure;
BEGIN
    IF NOT EXISTS (SELECT FROM pg_extension WHERE extname = 'citus') THEN
        RETURN;
    END IF;

    CREATE OR REPLACE FUNCTION public.run_path_stats(p_run_key bigint)
    RETURNS SETOF public.run_paths
    LANGUAGE plpgsql STABLE PARALLEL SAFE AS $body$
    BEGIN
        RETURN QUERY
        SELECT p_run_key, p.path_hash, p.path COLLATE "C", p.kind, p.count, p.self_time_ns, p.total_time_ns,
               p.bytes, p.peak_bytes
        FROM public.run_path_rows(p_run_key) p;
    END
    $body$;

    CREATE OR REPLACE FUNCTION public.run_path(p_run_key bigint, p_path_hash bigint)
    RETURNS SETOF public.run_paths
    LANGUAGE plpgsql STABLE PARALLEL SAFE AS $body$
    BEGIN
        RETURN QUERY
        SELECT p_run_key, p_path_hash,
               (SELECT k.texts[f.path_rank + 1] FROM public.path_packs k WHERE k.run_key = p_run_key) COLLATE "C",
               f.kind, f.count, f.self_time_ns, f.total_time_ns, f.bytes, f.peak_bytes
        FROM public.run_path_figures(p_run_key, p_path_hash) f;
    END
    $body$;

    -- Every function of the store (V1..V8) on every node; a user's own functions are left alone.
    FOR f IN
        SELECT p.oid FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
        WHERE n.nspname = 'public' AND p.prokind = 'f'
          AND p.proname IN ('delete_run', 'compare_runs', 'compare_gradients', 'running_sum', 'packed_values',
                            'packed_value_at', 'packed_column', 'packed_at', 'packed_width', 'pack_values',
                            'path_pack_direct', 'run_nodes', 'run_edges', 'run_timeline', 'run_peak_breakdown',
                            'run_path_rows', 'run_path_stats', 'run_path_figures', 'run_path',
                            'run_node_device_times', 'run_path_device_times')
          AND NOT EXISTS (SELECT FROM pg_dist_object o WHERE o.classid = 'pg_proc'::regclass AND o.objid = p.oid)
        ORDER BY p.oid
    LOOP
        PERFORM create_distributed_function(f::text);
    END LOOP;

    -- The functions that read a run's rows, called inside queries on shards.
    FOR f IN
        SELECT p.oid FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
        WHERE n.nspname = 'public'
          AND p.proname IN ('run_nodes', 'run_edges', 'run_timeline', 'run_peak_breakdown', 'run_path_rows',
                            'run_path_stats', 'run_path_figures', 'run_path', 'run_node_device_times',
                            'run_path_device_times', 'compare_runs', 'compare_gradients')
        ORDER BY p.oid
    LOOP
        EXECUTE format('ALTER FUNCTION %s SET citus.allow_nested_distributed_execution = on', f);
    END LOOP;
END
$$;
