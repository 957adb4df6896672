package io.tracegraph.application;

import static io.tracegraph.application.Fixture.done;
import static io.tracegraph.application.Fixture.rejection;
import static io.tracegraph.application.Traces.trace;
import static io.tracegraph.application.Traces.withDeviceTime;
import static org.assertj.core.api.Assertions.assertThat;

import io.tracegraph.domain.compare.GroupComparison;
import io.tracegraph.domain.compare.GroupOptions;
import io.tracegraph.domain.compare.RunComparison;
import io.tracegraph.domain.compare.RunFacts;
import io.tracegraph.domain.compare.Verdict;
import io.tracegraph.domain.graph.TimeBasis;
import io.tracegraph.domain.run.PathHistoryPoint;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Every question that takes `--time device` asks it of the runs' device time, and says so when there is none. */
class DeviceTimeQuestionsTest {
    private final Fixture fixture = new Fixture();
    private final List<RunFacts> base = new ArrayList<>();
    private final List<RunFacts> cand = new ArrayList<>();

    DeviceTimeQuestionsTest() {
        // Ten runs a side: the candidate's kernels take twice as long; its host time is the same.
        for (int i = 0; i < 10; i++) {
            var b = withDeviceTime("base-" + i, 1_000_000 + 1_000 * i, 500_000, 200_000 + 1_000 * i, 10_000);
            var c = withDeviceTime("cand-" + i, 1_000_000 + 1_000 * i, 500_000, 400_000 + 1_000 * i, 10_000);
            fixture.store.add(b, Map.of("side", "base")).add(c, Map.of("side", "cand"));
            base.add(RunSources.factsOf("base-" + i, Traces.graph(b)));
            cand.add(RunSources.factsOf("cand-" + i, Traces.graph(c)));
        }
        fixture.store.add(trace("cpu-1", 1_000_000, 500_000), Map.of("side", "cpu"));
        fixture.files.with("gpu.jsonl", withDeviceTime("gpu", 1_000_000, 500_000, 300_000, 0));
        fixture.files.with("cpu.jsonl", trace("cpu", 1_000_000, 500_000));
    }

    @Test
    void twoRunsCompareTheirDeviceTimePathByPathAFileAsAStoredRun() {
        CompareRuns compare = new CompareRuns(fixture.sources);
        CompareRuns.Result result = done(compare.compare(new CompareRuns.Command("gpu.jsonl", "cand-0",
                TimeBasis.DEVICE)));

        RunComparison c = result.comparison();
        assertThat(result.time()).isEqualTo(TimeBasis.DEVICE);
        assertThat(c.matched().get(0).path()).isEqualTo("step/forward");
        assertThat(c.matched().get(0).selfTimeNs().base()).isEqualTo(300_000);
        assertThat(c.matched().get(0).selfTimeNs().candidate()).isEqualTo(400_000);
        assertThat(c.totalMs().candidate()).isEqualTo(0.41);
        assertThat(done(compare.compare(new CompareRuns.Command("gpu.jsonl", "cand-0"))).comparison()
                .totalMs().candidate()).as("host time by default").isEqualTo(1.0);
    }

    @Test
    void aRunWithoutDeviceTimeIsRejectedInOneLineNamingIt() {
        CompareRuns compare = new CompareRuns(fixture.sources);
        assertThat(rejection(compare.compare(new CompareRuns.Command("cpu.jsonl", "cand-0", TimeBasis.DEVICE))))
                .isEqualTo("`cpu.jsonl` has no device time: no device intervals or kernels are recorded for it "
                        + "(ask with --time host)");
        assertThat(rejection(new CompareSets(fixture.sources).compare(new CompareSets.Command("tag:side=base",
                "cand-0,cand-1,cpu-1", 5, null, TimeBasis.DEVICE))))
                .isEqualTo("`cpu-1` has no device time: no device intervals or kernels are recorded for it "
                        + "(ask with --time host) (1 of the 3 runs of the candidate have none)");
        assertThat(rejection(new ReadRun(fixture.sources).read(ReadRun.Command.whole("cpu-1", TimeBasis.DEVICE))))
                .startsWith("`cpu-1` has no device time");
        assertThat(done(new ReadRun(fixture.sources).read(ReadRun.Command.whole("cpu-1"))).label()).isEqualTo("cpu-1");
    }

    @Test
    void twoSetsCompareTheMediansOfTheirDeviceTimeWithTheSameVerdictsAsHostTime() {
        CompareSets.Result result = done(new CompareSets(fixture.sources).compare(new CompareSets.Command(
                "tag:side=base", "tag:side=cand", 5, 10.0, TimeBasis.DEVICE)));

        GroupComparison expected = GroupComparison.compare(base.stream().map(RunFacts::onDeviceTime).toList(),
                cand.stream().map(RunFacts::onDeviceTime).toList(), GroupOptions.defaults().withThreshold(0.05));
        assertThat(result.comparison()).isEqualTo(expected);
        assertThat(result.comparison().totalMs().verdict()).isEqualTo(Verdict.SLOWER);
        assertThat(result.comparison().paths()).filteredOn(p -> p.path().equals("step/forward")).singleElement()
                .satisfies(p -> assertThat(p.verdict()).isEqualTo(Verdict.SLOWER));
        assertThat(result.regression()).isTrue();
        assertThat(result.time()).isEqualTo(TimeBasis.DEVICE);

        CompareSets.Result host = done(new CompareSets(fixture.sources).compare(new CompareSets.Command(
                "tag:side=base", "tag:side=cand", 5, 10.0)));
        assertThat(host.comparison().totalMs().verdict()).as("the host time did not change")
                .isNotEqualTo(Verdict.SLOWER);
    }

    @Test
    void historyOnDeviceTimeFollowsThePathsDeviceTimeInTheRunsThatHaveIt() {
        FollowPath follow = new FollowPath(fixture.store);
        List<PathHistoryPoint> points = done(follow.follow(new FollowPath.Command("step/forward", null,
                TimeBasis.DEVICE))).points();

        assertThat(points).hasSize(20).allSatisfy(p -> assertThat(p.stats().selfTimeNs())
                .isEqualTo(p.stats().deviceSelfTimeNs()).isGreaterThanOrEqualTo(200_000));
        assertThat(done(follow.follow(new FollowPath.Command("step/forward", null))).points()).hasSize(21);
        assertThat(rejection(new FollowPath(onlyCpu()).follow(new FollowPath.Command("step", null,
                TimeBasis.DEVICE)))).isEqualTo("the path `step` has no device time in the 1 stored run that has it "
                        + "(ask with --time host)");
    }

    @Test
    void aReportOnHostTimeAlsoComparesTheDeviceTimeWhenEveryRunHasSome() {
        ReportComparison report = new ReportComparison(fixture.sources);
        ReportComparison.Runs runs = (ReportComparison.Runs) done(report.report(new ReportComparison.Command(
                "base-0", "cand-0", 5)));
        assertThat(runs.time()).isEqualTo(TimeBasis.HOST);
        assertThat(runs.deviceComparison().matched().get(0).selfTimeNs().delta()).isEqualTo(200_000);
        assertThat(((ReportComparison.Runs) done(report.report(new ReportComparison.Command("base-0", "cpu-1", 5))))
                .deviceComparison()).isNull();

        ReportComparison.Sets sets = (ReportComparison.Sets) done(report.report(new ReportComparison.Command(
                "tag:side=base", "tag:side=cand", 5, TimeBasis.DEVICE)));
        assertThat(sets.comparison().totalMs().verdict()).isEqualTo(Verdict.SLOWER);
        assertThat(sets.deviceComparison()).isNull();
        assertThat(sets.baseRuns()).allSatisfy(r -> assertThat(r.totalMs()).isLessThan(0.3));
        assertThat(((ReportComparison.Sets) done(report.report(new ReportComparison.Command("tag:side=base",
                "tag:side=cand", 5)))).deviceComparison().totalMs().verdict()).isEqualTo(Verdict.SLOWER);
    }

    private static InMemoryStore onlyCpu() {
        InMemoryStore store = new InMemoryStore();
        store.add(trace("cpu-only", 1, 1), Map.of());
        return store;
    }
}
