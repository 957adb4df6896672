package io.tracegraph.cli.bench;

import io.tracegraph.domain.graph.GraphBuilder;
import io.tracegraph.domain.graph.GraphOutcome;
import io.tracegraph.domain.trace.ExecutionPhase;
import io.tracegraph.domain.trace.RunMeta;
import io.tracegraph.domain.trace.SpanKind;
import io.tracegraph.domain.trace.SpanRecord;
import io.tracegraph.domain.trace.TimingMode;
import io.tracegraph.domain.trace.TraceDocument;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The graph builder alone on one measured span with 125,000 and 1,000,000 direct children (the
 * shape of the domain's {@code buildsASpanWithAMillionChildren}, which asserts what is built but
 * no times). n·log n keeps time(1M)/time(125k) near 9; the bound is 40 (a quadratic step gives 64,
 * and the collector's share for a million nodes is large on 2 cores). {@code bench/build-scaling}
 * runs it and checks the bound.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2)
@Measurement(iterations = 5)
@Fork(value = 1, jvmArgsAppend = {"-Xmx2g", "-XX:+UseParallelGC"})
public class WideTreeBenchmark {
    @Param({"125000", "1000000"})
    public int children;

    private TraceDocument trace;

    @Setup(Level.Trial)
    public void generate() {
        List<SpanRecord> spans = new ArrayList<>(children + 1);
        spans.add(new SpanRecord("root", null, "wide::run", SpanKind.FUNCTION, true, 0, true, 2L * children, null));
        for (int i = 0; i < children; i++) {
            spans.add(new SpanRecord("c" + (10_000_000 + i), "root", "child", SpanKind.FUNCTION, false, 2L * i, true,
                    1, null));
        }
        RunMeta run = new RunMeta("bench-wide", "bench/wide", "wide::run", ExecutionPhase.INFER,
                "2026-08-04T18:00:00Z", 1, 0, "cpu", TimingMode.HOST, Map.of(), null);
        trace = new TraceDocument(TraceDocument.SCHEMA, run, spans, List.of(), List.of(), List.of(), List.of(),
                List.of(), List.of());
    }

    @Benchmark
    public GraphOutcome build() {
        GraphOutcome outcome = GraphBuilder.build(trace);
        if (!(outcome instanceof GraphOutcome.Built)) {
            throw new IllegalStateException("the wide tree was refused: " + outcome);
        }
        return outcome;
    }
}
