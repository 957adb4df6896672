package io.tracegraph.application;

import static io.tracegraph.application.Fixture.done;
import static io.tracegraph.application.Fixture.rejection;
import static io.tracegraph.application.Traces.trace;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class ReportComparisonTest {
    private final Fixture fixture = new Fixture();
    private final ReportComparison report = new ReportComparison(fixture.sources);

    ReportComparisonTest() {
        for (int i = 0; i < 5; i++) {
            fixture.store.add(trace("base-" + i, 1_000_000 + 1_000 * i, 500_000), Map.of("side", "base"));
        }
        fixture.files.with("runs/t0.jsonl", trace("t0", 2_000_000, 500_000))
                .with("runs/t1.jsonl", trace("t1", 2_100_000, 500_000))
                .with("runs/t2.jsonl", trace("t2", 2_200_000, 500_000))
                .with("runs/t3.jsonl", trace("t3", 2_300_000, 500_000));
    }

    @Test
    void comparesTwoRunsWithTheirWholeGraphs() {
        ReportComparison.Runs runs = (ReportComparison.Runs) done(report.report(
                new ReportComparison.Command("base-0", "runs/t0.jsonl", 5)));

        assertThat(runs.base().label()).isEqualTo("base-0");
        assertThat(runs.candidate().label()).isEqualTo("runs/t0.jsonl");
        assertThat(runs.comparison().baseRunId()).isEqualTo("base-0");
        assertThat(fixture.store.factCalls).isEmpty();
    }

    @Test
    void comparesTwoSetsWithTheGraphOfEachSetsMedianRun() {
        ReportComparison.Sets sets = (ReportComparison.Sets) done(report.report(new ReportComparison.Command(
                "tag:side=base", "runs/t0.jsonl,runs/t1.jsonl,runs/t2.jsonl,runs/t3.jsonl", 5)));

        assertThat(sets.base().label()).isEqualTo("tag:side=base");
        assertThat(sets.base().runs()).isEqualTo(5);
        assertThat(sets.base().representative()).isEqualTo("base-2");
        assertThat(sets.candidate().label()).isEqualTo("t0.jsonl, t1.jsonl, \u2026, t3.jsonl (4 runs)");
        assertThat(sets.candidate().representative()).isEqualTo("t1.jsonl");
        assertThat(sets.candidate().graph()).isEqualTo(Traces.graph(trace("t1", 2_100_000, 500_000)));
        assertThat(sets.baseRuns()).hasSize(5);
        assertThat(sets.comparison().candidateRuns()).isEqualTo(4);
    }

    @Test
    void labelsShortListsByTheirMembersFileNames() {
        assertThat(report.shortLabel("runs/t0.jsonl")).isEqualTo("t0.jsonl");
        assertThat(report.shortLabel("runs/t0.jsonl, base-1")).isEqualTo("t0.jsonl, base-1");
        assertThat(report.shortLabel("latest~9..latest")).isEqualTo("latest~9..latest");
        assertThat(report.shortLabel(" , ")).isEqualTo(" , ");
    }

    @Test
    void rejectsWhatTheDomainCannotCompare() {
        assertThat(rejection(report.report(new ReportComparison.Command("base-1,base-1", "base-2,base-3", 5))))
                .isNotBlank();
        assertThat(rejection(report.report(new ReportComparison.Command("base-1", "zeta", 5))))
                .isEqualTo("no stored run has the run_id `zeta` or one starting with it");
    }
}
