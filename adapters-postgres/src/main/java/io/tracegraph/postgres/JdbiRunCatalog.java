package io.tracegraph.postgres;

import static io.tracegraph.postgres.Reads.call;
import static io.tracegraph.postgres.RunRows.NEWEST_FIRST;
import static io.tracegraph.postgres.RunRows.TAG_ARRAYS;
import static io.tracegraph.postgres.RunRows.devices;
import static io.tracegraph.postgres.RunRows.graphSummary;
import static io.tracegraph.postgres.RunRows.header;
import static io.tracegraph.postgres.RunRows.instant;
import static io.tracegraph.postgres.RunRows.phase;
import static io.tracegraph.postgres.RunRows.runRef;
import static io.tracegraph.postgres.RunRows.tags;
import static io.tracegraph.postgres.RunRows.upper;

import io.tracegraph.domain.health.HealthIssue;
import io.tracegraph.domain.health.HealthSeverity;
import io.tracegraph.domain.health.TraceHealth;
import io.tracegraph.domain.port.RunCatalog;
import io.tracegraph.domain.run.BundleFile;
import io.tracegraph.domain.run.BundleIdentity;
import io.tracegraph.domain.run.CampaignCapture;
import io.tracegraph.domain.run.RunFilter;
import io.tracegraph.domain.run.RunListing;
import io.tracegraph.domain.run.RunRef;
import io.tracegraph.domain.run.RunResolution;
import io.tracegraph.domain.run.RunSummary;
import io.tracegraph.postgres.RunRows.Header;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.transaction.TransactionIsolationLevel;

/**
 * The PostgreSQL catalogue of stored runs: listing, resolving references, summaries. Plain SELECTs
 * over the store's tables and the views of {@code V2__queries.sql}, every value bound; questions that
 * take several statements read one snapshot (a repeatable-read transaction).
 */
final class JdbiRunCatalog implements RunCatalog {
    private static final Pattern LATEST = Pattern.compile("latest(?:~([0-9]{1,9}))?");

    /** Candidates an ambiguous reference lists. */
    private static final int CANDIDATES = 10;

    private final Jdbi jdbi;

    JdbiRunCatalog(Jdbi jdbi) {
        this.jdbi = Objects.requireNonNull(jdbi, "jdbi");
    }

    @Override
    public List<RunListing> runs(RunFilter filter) {
        StringBuilder sql = new StringBuilder("SELECT run_key, run_id, run_timestamp, captured_at, imported_at, "
                + "entrypoint, phase, device, total_ms, coalesce(peak_bytes, 0) AS peak_bytes, " + TAG_ARRAYS
                + ", outcome, outcome_reason, terminal_timestamp_ns, " + RunRows.IDENTITY_COLUMNS
                + " FROM run_overview WHERE true");
        if (filter.entrypoint() != null) {
            sql.append(" AND entrypoint = :entrypoint");
        }
        if (!filter.tags().isEmpty()) {
            sql.append(" AND tags @> CAST(:tags AS jsonb)");
        }
        if (filter.since() != null) {
            sql.append(" AND coalesce(captured_at, imported_at) >= CAST(:since AS timestamptz)");
        }
        List<Map.Entry<String, String>> members = List.copyOf(new TreeMap<>(filter.identity()).entrySet());
        for (int i = 0; i < members.size(); i++) {
            // The member's name is one of ComparisonIdentity.MEMBERS (RunFilter checks): not user text.
            sql.append(" AND comparison_identity->>'").append(members.get(i).getKey()).append("' = :member").append(i);
        }
        if (filter.outcome() != null) {
            sql.append(" AND outcome = :outcome");
        }
        sql.append(" ORDER BY ").append(NEWEST_FIRST).append(" LIMIT :limit");
        return call(() -> jdbi.withHandle(h -> {
            var query = h.createQuery(sql.toString()).bind("limit", filter.limit());
            if (filter.entrypoint() != null) {
                query.bind("entrypoint", JdbiRunStore.clean(filter.entrypoint()));
            }
            if (!filter.tags().isEmpty()) {
                query.bind("tags", Json.object(filter.tags()));
            }
            if (filter.since() != null) {
                query.bind("since", filter.since().toString());
            }
            for (int i = 0; i < members.size(); i++) {
                query.bind("member" + i, JdbiRunStore.clean(members.get(i).getValue()));
            }
            if (filter.outcome() != null) {
                query.bind("outcome", RunPacks.wire(filter.outcome()));
            }
            return query.map((rs, ctx) -> new RunListing(new RunRef(rs.getLong("run_key"), rs.getString("run_id")),
                    rs.getString("run_timestamp"), instant(rs, "captured_at"), instant(rs, "imported_at"),
                    rs.getString("entrypoint"), phase(rs.getString("phase")), rs.getString("device"),
                    rs.getDouble("total_ms"), rs.getLong("peak_bytes"), tags(rs), RunRows.outcome(rs),
                    RunRows.identity(rs))).list();
        }));
    }

    @Override
    public RunResolution resolve(String reference) {
        Objects.requireNonNull(reference, "reference");
        if (reference.isBlank()) {
            return new RunResolution.NotFound(reference, "an empty run reference names no run");
        }
        String ref = JdbiRunStore.clean(reference);
        return call(() -> jdbi.inTransaction(TransactionIsolationLevel.REPEATABLE_READ, h -> {
            Optional<RunRef> exact = h.createQuery("SELECT run_key, run_id FROM runs WHERE run_id = :ref")
                    .bind("ref", ref).map((rs, ctx) -> runRef(rs)).findOne();
            if (exact.isPresent()) {
                return new RunResolution.Found(reference, exact.get());
            }
            Matcher latest = LATEST.matcher(ref);
            if (latest.matches()) {
                int back = latest.group(1) == null ? 0 : Integer.parseInt(latest.group(1));
                Optional<RunRef> found = h.createQuery("SELECT run_key, run_id FROM runs ORDER BY " + NEWEST_FIRST
                        + " OFFSET :back LIMIT 1").bind("back", back).map((rs, ctx) -> runRef(rs)).findOne();
                if (found.isPresent()) {
                    return new RunResolution.Found(reference, found.get());
                }
                long stored = h.createQuery("SELECT count(*) FROM runs").mapTo(Long.class).one();
                return new RunResolution.NotFound(reference, stored == 0 ? "no runs are stored"
                        : "`" + reference + "` is not stored: there " + (stored == 1 ? "is 1 run" : "are " + stored
                        + " runs") + " (latest to latest~" + (stored - 1) + ")");
            }
            List<Map.Entry<RunRef, Long>> matches = h.createQuery("SELECT run_key, run_id, count(*) OVER () AS "
                    + "matches FROM runs WHERE starts_with(run_id, :ref) ORDER BY " + NEWEST_FIRST + " LIMIT :limit")
                    .bind("ref", ref)
                    .bind("limit", CANDIDATES)
                    .map((rs, ctx) -> Map.entry(runRef(rs), rs.getLong("matches")))
                    .list();
            if (matches.isEmpty()) {
                return new RunResolution.NotFound(reference, "no stored run has the run_id `" + reference
                        + "` or one starting with it");
            }
            if (matches.size() == 1) {
                return new RunResolution.Found(reference, matches.get(0).getKey());
            }
            return new RunResolution.Ambiguous(reference, matches.stream().map(m -> m.getKey().runId()).toList(),
                    matches.get(0).getValue());
        }));
    }

    /** The verified bundle the run came in (V6 rows), or null. */
    private static BundleIdentity bundle(Handle h, long key) {
        Optional<Map<String, Object>> row = h.createQuery("SELECT * FROM run_bundles WHERE run_key = :key")
                .bind("key", key).mapToMap().findOne();
        if (row.isEmpty()) {
            return null;
        }
        Map<String, Object> b = row.get();
        List<BundleFile> files = h.createQuery("SELECT path, bytes, sha256 FROM run_bundle_files WHERE run_key = :key "
                + "ORDER BY file_idx")
                .bind("key", key)
                .map((rs, ctx) -> new BundleFile(rs.getString("path"), rs.getLong("bytes"), rs.getString("sha256")))
                .list();
        CampaignCapture campaign = b.get("campaign_id") == null ? null : new CampaignCapture(
                (String) b.get("campaign_source"), (String) b.get("campaign_id"), (String) b.get("campaign_entrypoint"),
                ((Number) b.get("campaign_step")).longValue(), (String) b.get("campaign_bundle"));
        return new BundleIdentity((String) b.get("source"), (String) b.get("bundle_run_id"),
                (String) b.get("manifest_sha256"), (String) b.get("trace_path"), files, campaign);
    }

    @Override
    public Optional<RunSummary> summary(RunRef run) {
        return call(() -> jdbi.inTransaction(TransactionIsolationLevel.REPEATABLE_READ, h -> {
            Optional<Header> header = header(h, run.key());
            if (header.isEmpty()) {
                return Optional.empty();
            }
            Header head = header.get();
            List<HealthIssue> issues = h.createQuery("SELECT severity, code, message FROM health_issues "
                    + "WHERE run_key = :key ORDER BY issue_idx")
                    .bind("key", run.key())
                    .map((rs, ctx) -> new HealthIssue(HealthSeverity.valueOf(upper(rs.getString("severity"))),
                            rs.getString("code"), rs.getString("message")))
                    .list();
            TraceHealth health = new TraceHealth(issues.stream().noneMatch(HealthIssue::isError)
                    && !head.outcome().isFailed(), issues, head.coverage(), head.outcome());
            return Optional.of(new RunSummary(head.stored(), health, graphSummary(h, run.key(), head),
                    devices(h, run.key()), bundle(h, run.key())));
        }));
    }
}
