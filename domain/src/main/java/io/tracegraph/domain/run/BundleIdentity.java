package io.tracegraph.domain.run;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The candle-graph bundle ({@code bundle/1}) a trace came in, as input discovery verified it: every
 * file that its {@code bundle.json} lists had the listed size and SHA-256 before the trace was
 * handed on. What the store should keep with the run.
 *
 * @param source         where the bundle was found: its directory, or its folder in an archive
 *                       ({@code runs.tar.gz!b100})
 * @param runId          the {@code run_id} that {@code bundle.json} names; the trace's own must be the same
 * @param manifestSha256 lower-case hex SHA-256 of {@code bundle.json} itself, the bundle's content
 *                       address (candle-graph's verification receipts name a bundle by it)
 * @param tracePath      the trace's path in the bundle ({@code trace.jsonl} or {@code application.jsonl})
 * @param files          every file {@code bundle.json} lists, in its order: the trace, {@code evidence.json},
 *                       {@code report.md}, {@code viewer.html}, {@code nsight/...} (never {@code bundle.json})
 * @param campaign       the campaign that planned this capture, or {@code null}
 */
public record BundleIdentity(String source, String runId, String manifestSha256, String tracePath,
        List<BundleFile> files, CampaignCapture campaign) {
    public BundleIdentity {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(manifestSha256, "manifestSha256");
        Objects.requireNonNull(tracePath, "tracePath");
        files = List.copyOf(files);
        if (files.stream().noneMatch(f -> f.path().equals(tracePath))) {
            throw new IllegalArgumentException("the trace " + tracePath + " is not among the bundle's files");
        }
    }

    /** The trace's entry of {@link #files()}. */
    public BundleFile trace() {
        return files.stream().filter(f -> f.path().equals(tracePath)).findFirst().orElseThrow();
    }

    /** Path → SHA-256 of every listed file, in the order of {@code bundle.json}. */
    public Map<String, String> fileHashes() {
        Map<String, String> hashes = new LinkedHashMap<>();
        files.forEach(f -> hashes.put(f.path(), f.sha256()));
        return Collections.unmodifiableMap(hashes);
    }

    /** The planning campaign, if any. */
    public Optional<CampaignCapture> plannedBy() {
        return Optional.ofNullable(campaign);
    }
}
