package io.tracegraph.application;

import static io.tracegraph.application.Fixture.done;
import static io.tracegraph.application.Fixture.rejection;
import static io.tracegraph.application.Traces.trace;
import static org.assertj.core.api.Assertions.assertThat;

import io.tracegraph.domain.run.ReadOnlySql;
import io.tracegraph.domain.run.RunFilter;
import io.tracegraph.domain.run.RunListing;
import io.tracegraph.domain.run.RunSummary;
import io.tracegraph.domain.run.SqlOutcome;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The use cases that ask the store one question: show, runs, history, sql. */
class ShowRunTest {
    private final Fixture fixture = new Fixture();

    ShowRunTest() {
        fixture.store.add(trace("run-1", 100, 50), Map.of("commit", "abc")).add(trace("run-2", 120, 70));
    }

    @Test
    void showsTheSummaryOfTheRunAReferenceNames() {
        RunSummary summary = done(new ShowRun(fixture.sources, fixture.store).show(new ShowRun.Command("latest~1")));

        assertThat(summary.run().run().runId()).isEqualTo("run-1");
        assertThat(summary.summary()).isEqualTo(Traces.graph(trace("run-1", 100, 50)).summary());
    }

    @Test
    void rejectsAnUnknownReferenceAndARunNoLongerStored() {
        ShowRun show = new ShowRun(fixture.sources, fixture.store);

        assertThat(rejection(show.show(new ShowRun.Command("zeta"))))
                .isEqualTo("no stored run has the run_id `zeta` or one starting with it");
        fixture.store.forget("run-2");
        assertThat(rejection(show.show(new ShowRun.Command("run-2")))).isEqualTo("run `run-2` is no longer stored");
    }

    @Test
    void listsTheRunsAFilterSelectsNewestFirst() {
        ListRuns list = new ListRuns(fixture.store);

        assertThat(list.list(new ListRuns.Command(RunFilter.all()))).extracting(RunListing::runId)
                .containsExactly("run-2", "run-1");
        assertThat(list.list(new ListRuns.Command(RunFilter.all().withTags(Map.of("commit", "abc")))))
                .extracting(RunListing::runId).containsExactly("run-1");
    }

    @Test
    void followsAPathAcrossTheRunsOrSaysNoRunHasIt() {
        FollowPath follow = new FollowPath(fixture.store);

        assertThat(done(follow.follow(new FollowPath.Command("step/forward", null))).points())
                .extracting(p -> p.stats().totalTimeNs()).containsExactly(50L, 70L);
        assertThat(rejection(follow.follow(new FollowPath.Command("step/backward", Traces.ENTRYPOINT))))
                .isEqualTo("no stored run has the path `step/backward`");
        assertThat(rejection(follow.follow(new FollowPath.Command("step/forward", "other::entry"))))
                .isEqualTo("no stored run has the path `step/forward`");
    }

    @Test
    void runsSqlThroughThePort() {
        RunSql sql = new RunSql(fixture.store);

        assertThat(sql.run(new RunSql.Command(ReadOnlySql.of("SELECT count(*) FROM runs"))))
                .isInstanceOf(SqlOutcome.Rows.class);
        assertThat(sql.run(new RunSql.Command(ReadOnlySql.of("DELETE FROM runs")))).isInstanceOf(SqlOutcome.Refused.class);
    }
}
