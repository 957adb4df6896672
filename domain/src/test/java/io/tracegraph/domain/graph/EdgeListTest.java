package io.tracegraph.domain.graph;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tracegraph.domain.Traces;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class EdgeListTest {
    private static EdgeList.Columns columns() {
        // Arrays longer than the edges, as the builder leaves them when it drops duplicates.
        return new EdgeList.Columns(2, new String[] {"a", "t1", "x"}, new String[] {"b", "t2", "y"},
                new byte[] {(byte) GraphEdgeKind.CALL.ordinal(), (byte) GraphEdgeKind.DATA.ordinal(), 0},
                new long[] {7, 9, 1}, new String[] {null, "add", null});
    }

    @Test
    void ofAnEdgeListIsItselfAndOfAnyOtherListItsEdgesAsColumns() {
        EdgeList built = new EdgeList(CompletableFuture.completedFuture(columns()));
        assertThat(EdgeList.of(built)).isSameAs(built);

        List<GraphEdge> plain = List.of(new GraphEdge("a", "b", GraphEdgeKind.CALL, 7, null),
                new GraphEdge("t1", "t2", GraphEdgeKind.DATA, 9, "add"));
        EdgeList copied = EdgeList.of(plain);
        assertThat(copied).isEqualTo(plain);
        assertThat(copied.from(1)).isEqualTo("t1");
        assertThat(copied.kind(1)).isEqualTo(GraphEdgeKind.DATA);
        assertThat(copied.durationNs(0)).isEqualTo(7);
        assertThat(copied.label(0)).isNull();
        assertThat(copied.label(1)).isEqualTo("add");
        assertThat(EdgeList.of(List.of())).isEmpty();
    }

    @Test
    void readsAsAListOfEdgesAndMemberByMember() {
        EdgeList edges = new EdgeList(CompletableFuture.completedFuture(columns()));

        List<GraphEdge> expected = List.of(new GraphEdge("a", "b", GraphEdgeKind.CALL, 7, null),
                new GraphEdge("t1", "t2", GraphEdgeKind.DATA, 9, "add"));
        assertThat(edges).containsExactlyElementsOf(expected).isEqualTo(expected);
        assertThat(expected).isEqualTo(edges);
        assertThat(edges.hashCode()).isEqualTo(expected.hashCode());
        assertThat(edges.from(1)).isEqualTo("t1");
        assertThat(edges.to(1)).isEqualTo("t2");
        assertThat(edges.kind(1)).isEqualTo(GraphEdgeKind.DATA);
        assertThat(edges.durationNs(0)).isEqualTo(7);
        assertThat(edges.label(0)).isNull();
        assertThat(edges.label(1)).isEqualTo("add");
        assertThat(edges.size()).isEqualTo(2);
        assertThatThrownBy(() -> edges.get(2)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> edges.from(2)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> edges.label(-1)).isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void waitsForTheEdgesOnTheFirstReadAndThrowsTheComputationsOwnFailure() throws Exception {
        CompletableFuture<EdgeList.Columns> future = new CompletableFuture<>();
        EdgeList edges = new EdgeList(future);
        Thread completer = new Thread(() -> {
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            future.complete(columns());
        });
        completer.start();
        assertThat(edges.size()).isEqualTo(2);
        completer.join();

        CompletableFuture<EdgeList.Columns> failing = new CompletableFuture<>();
        failing.completeExceptionally(new IllegalStateException("sorting failed"));
        assertThatThrownBy(new EdgeList(failing)::size).isInstanceOf(IllegalStateException.class)
                .hasMessage("sorting failed");
    }

    @Test
    void isImmutable() {
        EdgeList edges = new EdgeList(CompletableFuture.completedFuture(columns()));

        assertThatThrownBy(() -> edges.add(edges.get(0))).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> edges.set(0, edges.get(1))).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void isWhatTheBuilderHandsOverAndTheGraphKeepsUncopied() {
        ExecutionGraph graph = ((GraphOutcome.Built) GraphBuilder.build(Traces.syntheticTrace())).graph();

        assertThat(graph.edges()).isInstanceOf(EdgeList.class).isNotEmpty();
        List<GraphEdge> copy = new ArrayList<>(graph.edges());
        EdgeList edges = (EdgeList) graph.edges();
        for (int i = 0; i < copy.size(); i++) {
            assertThat(new GraphEdge(edges.from(i), edges.to(i), edges.kind(i), edges.durationNs(i), edges.label(i)))
                    .isEqualTo(copy.get(i));
        }
        ExecutionGraph again = new ExecutionGraph(graph.schema(), graph.spans(), graph.edges(), graph.tensors(),
                graph.gradients(), graph.summary(), graph.memory(), graph.capture(), graph.tensorStats());
        assertThat(again.edges()).isSameAs(graph.edges());
        assertThat(again).isEqualTo(graph);
    }
}
