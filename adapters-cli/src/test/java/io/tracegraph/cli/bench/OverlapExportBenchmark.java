package io.tracegraph.cli.bench;

import io.tracegraph.domain.graph.ExecutionGraph;
import io.tracegraph.domain.graph.GraphNode;
import io.tracegraph.domain.graph.GraphNodeKind;
import io.tracegraph.domain.graph.GraphSummary;
import io.tracegraph.domain.memory.MemoryProfile;
import io.tracegraph.domain.memory.MemorySummary;
import io.tracegraph.domain.trace.Shape;
import io.tracegraph.json.ChromeTraceWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
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
 * The Chrome export of ops that all overlap one another (each starts before the one before ends),
 * 60,000 and 600,000 of them: every op needs a track of its own among those in use, so a search
 * over the tracks per op would be quadratic. Linear-logarithmic keeps time(600k)/time(60k) near
 * 11; {@code bench/build-scaling} checks the bound 25 (a quadratic step gives 100). This replaces
 * the timeout the unit test {@code ChromeTraceWriterTest} once carried (unit tests assert no times).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2)
@Measurement(iterations = 5)
@Fork(value = 1, jvmArgsAppend = {"-Xmx2g"})
public class OverlapExportBenchmark {
    @Param({"60000", "600000"})
    public int ops;

    private ExecutionGraph graph;

    @Setup(Level.Trial)
    public void generate() {
        List<GraphNode> nodes = new ArrayList<>(ops + 1);
        nodes.add(new GraphNode("root", null, "root", GraphNodeKind.ROOT, 0, 0, 100L * ops, null, null, null, 0, 0,
                0, null));
        for (int i = 0; i < ops; i++) {
            nodes.add(new GraphNode("root/op/" + i, "root", "matmul", GraphNodeKind.OP, i * 10L, 100_000, 100_000,
                    Shape.of(2, 2), "f32", "cpu", 16, 16, 0, 16L));
        }
        graph = new ExecutionGraph(ExecutionGraph.SCHEMA, nodes, List.of(), List.of(), List.of(),
                new GraphSummary("bench", 0.0, List.of(), List.of(), MemorySummary.EMPTY), MemoryProfile.EMPTY);
    }

    @Benchmark
    public long export() throws IOException {
        Counting out = new Counting();
        ChromeTraceWriter.write(graph, "bench-overlap", out);
        return out.bytes;
    }

    /** Counts what is written, keeps none of it. */
    private static final class Counting extends OutputStream {
        long bytes;

        @Override
        public void write(int b) {
            bytes++;
        }

        @Override
        public void write(byte[] b, int off, int len) {
            bytes += len;
        }
    }
}
