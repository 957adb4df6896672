package io.tracegraph.application;

import static io.tracegraph.application.Fixture.done;
import static io.tracegraph.application.Fixture.rejection;
import static io.tracegraph.application.Traces.trace;
import static org.assertj.core.api.Assertions.assertThat;

import io.tracegraph.application.ResolveRun.Resolved;
import org.junit.jupiter.api.Test;

class ResolveRunTest {
    private final Fixture fixture = new Fixture();
    private final ResolveRun resolve = new ResolveRun(fixture.sources);

    ResolveRunTest() {
        fixture.store.add(trace("alpha-1", 100, 50)).add(trace("alpha-2", 110, 50)).add(trace("beta-1", 90, 40));
        fixture.files.with("traces/t.jsonl", trace("t", 100, 50));
    }

    private String stored(String reference) {
        return ((Resolved.Stored) done(resolve.resolve(new ResolveRun.Command(reference, true)))).run().runId();
    }

    @Test
    void resolvesARunIdExactlyAndAnUnambiguousPrefix() {
        assertThat(stored("alpha-1")).isEqualTo("alpha-1");
        assertThat(stored("beta")).isEqualTo("beta-1");
    }

    @Test
    void resolvesLatestAndLatestTildeNNewestFirst() {
        assertThat(stored("latest")).isEqualTo("beta-1");
        assertThat(stored("latest~0")).isEqualTo("beta-1");
        assertThat(stored("latest~2")).isEqualTo("alpha-1");
    }

    @Test
    void rejectsAnAmbiguousPrefixNamingItsCandidates() {
        assertThat(rejection(resolve.resolve(new ResolveRun.Command("alpha", true))))
                .isEqualTo("run reference `alpha` is ambiguous: it matches alpha-2, alpha-1; give more of the run_id");
    }

    @Test
    void rejectsAReferenceThatNamesNothingInTheStoresWords() {
        assertThat(rejection(resolve.resolve(new ResolveRun.Command("zeta", true))))
                .isEqualTo("no stored run has the run_id `zeta` or one starting with it");
        assertThat(rejection(resolve.resolve(new ResolveRun.Command("latest~3", true))))
                .isEqualTo("`latest~3` is not stored");
    }

    @Test
    void takesAnExistingTraceFileForAFileWithoutTheStore() {
        Resolved resolved = done(resolve.resolve(new ResolveRun.Command("traces/t.jsonl", false)));

        assertThat(((Resolved.TraceFile) resolved).input().name()).isEqualTo("traces/t.jsonl");
    }

    @Test
    void takesAMissingFileWithATraceNameForAFileOnlyWhenAskedTo() {
        Resolved byName = done(resolve.resolve(new ResolveRun.Command("missing.jsonl", true)));

        assertThat(((Resolved.TraceFile) byName).input().name()).isEqualTo("missing.jsonl");
        assertThat(rejection(resolve.resolve(new ResolveRun.Command("missing.jsonl", false))))
                .isEqualTo("no stored run has the run_id `missing.jsonl` or one starting with it");
    }
}
