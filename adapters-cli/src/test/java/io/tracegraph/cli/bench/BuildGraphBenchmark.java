package io.tracegraph.cli.bench;

import io.tracegraph.application.BuildGraph;
import io.tracegraph.application.TraceInput;
import io.tracegraph.application.TraceResult;
import io.tracegraph.json.JacksonTraceReader;
import io.tracegraph.json.SyntheticTrace;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Reads a generated training trace from disk and builds its graph (the whole of
 * {@code tracegraph build} but writing the JSON), at 10k, 100k and 1M ops, in a 2 GiB heap.
 * Scaling is n·log n when time(1M)/time(100k) stays near 10 (the bound is 12).
 *
 * <p>Run: {@code mvn -B -pl adapters-cli -am -Pbench verify -DskipTests}, or see
 * {@code docs/performance.md}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2)
@Measurement(iterations = 5)
@Fork(value = 1, jvmArgsAppend = {"-Xmx2g", "-XX:+UseParallelGC"})
public class BuildGraphBenchmark {
    @Param({"10000", "100000", "1000000"})
    public long ops;

    private Path dir;
    private Path trace;
    private BuildGraph buildGraph;

    @Setup(Level.Trial)
    public void generate() throws IOException {
        dir = Files.createTempDirectory("tracegraph-bench");
        trace = dir.resolve("train-" + ops + ".jsonl");
        SyntheticTrace.training().ops(ops).seed(42).writeTo(trace);
        buildGraph = new BuildGraph(new JacksonTraceReader());
    }

    @Benchmark
    public TraceResult readAndBuild() {
        TraceResult result = buildGraph.build(TraceInput.of(trace));
        if (!(result instanceof TraceResult.Built)) {
            throw new IllegalStateException("generated trace was rejected: " + result);
        }
        return result;
    }

    @TearDown(Level.Trial)
    public void clean() throws IOException {
        Files.deleteIfExists(trace);
        Files.deleteIfExists(dir);
    }
}
