package io.tracegraph.application;

import static io.tracegraph.application.Fixture.done;
import static io.tracegraph.application.Fixture.rejection;
import static io.tracegraph.application.Traces.trace;
import static io.tracegraph.application.Traces.untrusted;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tracegraph.domain.port.StoredGraphs.GraphPart;
import java.io.UncheckedIOException;
import java.util.EnumSet;
import org.junit.jupiter.api.Test;

class ReadRunTest {
    private final Fixture fixture = new Fixture();
    private final ReadRun read = new ReadRun(fixture.sources);

    ReadRunTest() {
        fixture.store.add(trace("run-1", 100, 50)).add(trace("run-2", 120, 70));
        fixture.files.with("t.jsonl", trace("t", 200, 20)).with("open.jsonl", untrusted("open"))
                .malformed("bad.jsonl", "member `duration_ns`: expected an integer");
    }

    @Test
    void readsAStoredRunWithTheHealthAndRecordItWasStoredWith() {
        RunGraph run = done(read.read(ReadRun.Command.whole("latest")));

        assertThat(run.label()).isEqualTo("run-2");
        assertThat(run.fromFile()).isFalse();
        assertThat(run.stored().run().runId()).isEqualTo("run-2");
        assertThat(run.health().trusted()).isTrue();
        assertThat(run.graph()).isEqualTo(Traces.graph(trace("run-2", 120, 70)));
        assertThat(fixture.store.lastParts).isEqualTo(EnumSet.allOf(GraphPart.class));
    }

    @Test
    void readsOnlyThePartsAQuestionNeeds() {
        done(read.read(ReadRun.Command.toAnswer("run-1", QueryKind.SLOWEST)));
        assertThat(fixture.store.lastParts).containsExactly(GraphPart.NODES);

        done(read.read(ReadRun.Command.toAnswer("run-1", QueryKind.HEALTH)));
        assertThat(fixture.store.lastParts).isEmpty();

        done(read.read(ReadRun.Command.toAnswer("run-1", QueryKind.SPANS)));
        assertThat(fixture.store.lastParts).containsExactlyInAnyOrder(GraphPart.NODES, GraphPart.EDGES);
    }

    @Test
    void buildsATraceFileWithoutTheStore() {
        RunGraph run = done(read.read(ReadRun.Command.toAnswer("t.jsonl", QueryKind.SLOWEST)));

        assertThat(run.label()).isEqualTo("t.jsonl");
        assertThat(run.fromFile()).isTrue();
        assertThat(run.graph()).isEqualTo(Traces.graph(trace("t", 200, 20)));
        assertThat(fixture.store.lastParts).isNull();
    }

    @Test
    void rejectsAMalformedOrUntrustedTraceFileInItsOwnWords() {
        assertThat(rejection(read.read(ReadRun.Command.whole("bad.jsonl"))))
                .isEqualTo("bad.jsonl:3: member `duration_ns`: expected an integer");
        assertThat(rejection(read.read(ReadRun.Command.whole("open.jsonl"))))
                .isEqualTo("trace is structurally untrusted: span `root` was not closed");
    }

    @Test
    void rejectsAReferenceThatNamesNoRunAndARunNoLongerStored() {
        assertThat(rejection(read.read(ReadRun.Command.whole("zeta"))))
                .isEqualTo("no stored run has the run_id `zeta` or one starting with it");
        fixture.store.forget("run-1");
        assertThat(rejection(read.read(ReadRun.Command.whole("run-1"))))
                .isEqualTo("run `run-1` is no longer stored");
    }

    @Test
    void leavesAMissingTraceFileAFailureToRead() {
        assertThatThrownBy(() -> read.read(ReadRun.Command.whole("missing.jsonl")))
                .isInstanceOf(UncheckedIOException.class).hasMessageContaining("missing.jsonl");
    }
}
