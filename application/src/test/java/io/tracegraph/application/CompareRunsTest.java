package io.tracegraph.application;

import static io.tracegraph.application.Fixture.done;
import static io.tracegraph.application.Fixture.rejection;
import static io.tracegraph.application.Traces.trace;
import static io.tracegraph.application.Traces.untrusted;
import static org.assertj.core.api.Assertions.assertThat;

import io.tracegraph.domain.compare.RunComparison;
import java.util.List;
import org.junit.jupiter.api.Test;

class CompareRunsTest {
    private final Fixture fixture = new Fixture();
    private final CompareRuns compare = new CompareRuns(fixture.sources);

    CompareRunsTest() {
        fixture.store.add(trace("run-1", 100, 50)).add(trace("run-2", 120, 70));
        fixture.files.with("t.jsonl", trace("t", 200, 20)).with("open.jsonl", untrusted("open"));
    }

    @Test
    void comparesTwoStoredRunsAsTheDomainComparesTheirFacts() {
        RunComparison comparison = done(compare.compare(new CompareRuns.Command("latest~1", "latest"))).comparison();

        assertThat(comparison).isEqualTo(RunComparison.compare(
                RunSources.factsOf("run-1", Traces.graph(trace("run-1", 100, 50))),
                RunSources.factsOf("run-2", Traces.graph(trace("run-2", 120, 70)))));
        assertThat(fixture.store.factCalls).containsExactly(List.of("run-1"), List.of("run-2"));
    }

    @Test
    void comparesATraceFileWithAStoredRun() {
        RunComparison comparison = done(compare.compare(new CompareRuns.Command("t.jsonl", "run-1"))).comparison();

        assertThat(comparison.baseRunId()).isEqualTo("t.jsonl");
        assertThat(comparison.candidateRunId()).isEqualTo("run-1");
        assertThat(fixture.store.factCalls).containsExactly(List.of("run-1"));
    }

    @Test
    void rejectsAnUntrustedTraceNamingTheFileAndAnUnknownRun() {
        assertThat(rejection(compare.compare(new CompareRuns.Command("open.jsonl", "run-1"))))
                .isEqualTo("open.jsonl: trace is structurally untrusted: span `root` was not closed");
        assertThat(rejection(compare.compare(new CompareRuns.Command("run-1", "zeta"))))
                .isEqualTo("no stored run has the run_id `zeta` or one starting with it");
        // Only an existing file is a file here: a missing one is looked up as a run.
        assertThat(rejection(compare.compare(new CompareRuns.Command("run-1", "missing.jsonl"))))
                .isEqualTo("no stored run has the run_id `missing.jsonl` or one starting with it");
    }
}
