package io.tracegraph.application;

import static io.tracegraph.application.Fixture.done;
import static io.tracegraph.application.Fixture.rejection;
import static io.tracegraph.application.Traces.trace;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tracegraph.domain.compare.GroupComparison;
import io.tracegraph.domain.compare.GroupOptions;
import io.tracegraph.domain.compare.RunFacts;
import io.tracegraph.domain.compare.Verdict;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CompareSetsTest {
    private final Fixture fixture = new Fixture();
    private final CompareSets compare = new CompareSets(fixture.sources);
    private final List<RunFacts> base = new ArrayList<>();
    private final List<RunFacts> cand = new ArrayList<>();

    CompareSetsTest() {
        // Ten runs a side; the candidate's forward span is twice as slow.
        for (int i = 0; i < 10; i++) {
            var b = trace("base-" + i, 1_000_000 + 1_000 * i, 500_000 + 1_000 * i);
            var c = trace("cand-" + i, 1_500_000 + 1_000 * i, 1_000_000 + 1_000 * i);
            fixture.store.add(b, Map.of("side", "base")).add(c, Map.of("side", "cand"));
            base.add(0, RunSources.factsOf("base-" + i, Traces.graph(b)));
            cand.add(0, RunSources.factsOf("cand-" + i, Traces.graph(c)));
        }
        fixture.files.with("t.jsonl", trace("t", 1_000_000, 500_000));
    }

    @Test
    void comparesTwoSetsAsTheDomainComparesTheirRunsReadingTheStoreOnce() {
        CompareSets.Result result = done(compare.compare(new CompareSets.Command("tag:side=base", "tag:side=cand",
                5, null)));

        GroupComparison expected = GroupComparison.compare(base, cand, GroupOptions.defaults().withThreshold(0.05));
        assertThat(result.comparison()).isEqualTo(expected);
        assertThat(result.comparison().totalMs().verdict()).isEqualTo(Verdict.SLOWER);
        assertThat(result.regression()).isFalse();
        assertThat(fixture.store.factCalls).hasSize(1);
        assertThat(fixture.store.factCalls.get(0)).hasSize(20).doesNotHaveDuplicates();
    }

    @Test
    void saysWhetherTheCandidateRegressedPastTheLimit() {
        assertThat(done(compare.compare(new CompareSets.Command("tag:side=base", "tag:side=cand", 5, 10.0)))
                .regression()).isTrue();
        assertThat(done(compare.compare(new CompareSets.Command("tag:side=base", "tag:side=cand", 5, 500.0)))
                .regression()).isFalse();
    }

    @Test
    void takesTraceFilesIntoASetFirst() {
        CompareSets.Result result = done(compare.compare(new CompareSets.Command("base-1,t.jsonl", "tag:side=cand",
                5, null)));

        assertThat(result.comparison().baselineRuns()).isEqualTo(2);
        assertThat(fixture.store.factCalls.get(0)).startsWith("base-1").hasSize(11);
    }

    @Test
    void reportsRunsNamedTwiceAndKeepsTodaysFailureForThem() {
        // Today a run named twice reaches the domain, which refuses the set (an internal error).
        assertThatThrownBy(() -> compare.compare(new CompareSets.Command("base-1,base-1,base-2", "tag:side=cand", 5,
                null))).isInstanceOf(IllegalArgumentException.class);
        assertThat(done(new ResolveRunSet(fixture.sources).resolve(new ResolveRunSet.Command("base-1,base-1,base-2")))
                .duplicates()).containsExactly("base-1");
        CompareSets.Result distinct = done(compare.compare(new CompareSets.Command("base-1,base-2", "cand-1,cand-2",
                5, null)));
        assertThat(distinct.baselineDuplicates()).isEmpty();
        assertThat(distinct.candidateDuplicates()).isEmpty();
    }

    @Test
    void rejectsASetThatNamesNoRunOrAnUnknownOne() {
        assertThat(rejection(compare.compare(new CompareSets.Command("latest~40..latest~50", "tag:side=cand", 5,
                null)))).isEqualTo("`latest~40..latest~50` names no run");
        assertThat(rejection(compare.compare(new CompareSets.Command("tag:side=base", "zeta", 5, null))))
                .isEqualTo("no stored run has the run_id `zeta` or one starting with it");
        assertThat(fixture.store.factCalls).hasSize(1);
    }

    @Test
    void refusesANegativeThresholdAsTheDomainDoes() {
        assertThatThrownBy(() -> compare.compare(new CompareSets.Command("tag:side=base", "tag:side=cand", -5, null)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("threshold");
        assertThat(fixture.store.factCalls).isEmpty();
    }
}
