package io.tracegraph.application;

import static io.tracegraph.application.Fixture.done;
import static io.tracegraph.application.Fixture.rejection;
import static io.tracegraph.application.Traces.trace;
import static org.assertj.core.api.Assertions.assertThat;

import io.tracegraph.domain.run.RunRef;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ResolveRunSetTest {
    private final Fixture fixture = new Fixture();
    private final ResolveRunSet resolve = new ResolveRunSet(fixture.sources);

    ResolveRunSetTest() {
        fixture.store.add(trace("a-1", 100, 50), Map.of("commit", "abc"))
                .add(trace("a-2", 100, 50), Map.of("commit", "abc"))
                .add(trace("b-1", 100, 50), Map.of("commit", "def"))
                .add(trace("b-2", 100, 50), Map.of("commit", "def", "host", "x"));
        fixture.files.with("t0.jsonl", trace("t0", 100, 50)).with("t1.jsonl", trace("t1", 100, 50));
    }

    private RunSet set(String spec) {
        return done(resolve.resolve(new ResolveRunSet.Command(spec)));
    }

    private static List<String> ids(RunSet set) {
        return set.stored().stream().map(RunRef::runId).toList();
    }

    @Test
    void resolvesAListOfRunIdsLatestsAndTraceFiles() {
        RunSet set = set("a-1, b-2 , latest~1,t0.jsonl,,latest");

        assertThat(ids(set)).containsExactly("a-1", "b-2", "b-1", "b-2");
        assertThat(set.files()).extracting(TraceInput::name).containsExactly("t0.jsonl");
        assertThat(set.spec()).isEqualTo("a-1, b-2 , latest~1,t0.jsonl,,latest");
    }

    @Test
    void resolvesATagToEveryRunWithItNewestFirst() {
        assertThat(ids(set("tag:commit=abc"))).containsExactly("a-2", "a-1");
        assertThat(ids(set("tag:host=x"))).containsExactly("b-2");
    }

    @Test
    void resolvesARangeOfLatestsInEitherOrder() {
        assertThat(ids(set("latest~2..latest"))).containsExactly("b-2", "b-1", "a-2");
        assertThat(ids(set("latest..latest~1"))).containsExactly("b-2", "b-1");
        // Past the oldest run: what there is.
        assertThat(ids(set("latest~2..latest~9"))).containsExactly("a-2", "a-1");
    }

    @Test
    void keepsTraceFilesApartFromStoredRuns() {
        RunSet set = set("t1.jsonl,a-1,t0.jsonl");

        assertThat(set.files()).extracting(TraceInput::name).containsExactly("t1.jsonl", "t0.jsonl");
        assertThat(ids(set)).containsExactly("a-1");
        assertThat(set.size()).isEqualTo(3);
    }

    @Test
    void reportsARunNamedTwiceButKeepsItTwice() {
        RunSet set = set("a-1,latest~3,t0.jsonl,b-2,t0.jsonl,tag:commit=def");

        assertThat(ids(set)).containsExactly("a-1", "a-1", "b-2", "b-2", "b-1");
        assertThat(set.duplicates()).containsExactly("t0.jsonl", "a-1", "b-2");
        assertThat(set("a-1,a-2,t0.jsonl").duplicates()).isEmpty();
    }

    @Test
    void rejectsAMemberThatNamesNoRun() {
        assertThat(rejection(resolve.resolve(new ResolveRunSet.Command("a-1,zeta"))))
                .isEqualTo("no stored run has the run_id `zeta` or one starting with it");
        assertThat(rejection(resolve.resolve(new ResolveRunSet.Command("a-1,a-"))))
                .startsWith("run reference `a-` is ambiguous");
        assertThat(rejection(resolve.resolve(new ResolveRunSet.Command("tag:commit=zzz"))))
                .isEqualTo("no stored run has tag commit=zzz");
    }

    @Test
    void tellsASetFromOneRun() {
        assertThat(RunSources.isSet("a,b")).isTrue();
        assertThat(RunSources.isSet(" tag:k=v ")).isTrue();
        assertThat(RunSources.isSet("latest~9..latest")).isTrue();
        assertThat(RunSources.isSet("latest~9")).isFalse();
        assertThat(RunSources.isSet("tag:=v")).isFalse();
        assertThat(RunSources.isSet("run.jsonl")).isFalse();
    }
}
