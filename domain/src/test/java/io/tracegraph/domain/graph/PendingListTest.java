package io.tracegraph.domain.graph;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class PendingListTest {

    @Test
    void readsAsTheListOnceItIsComputed() {
        CompletableFuture<List<String>> future = new CompletableFuture<>();
        PendingList<String> pending = new PendingList<>(future);
        future.complete(List.of("a", "b"));

        assertThat(pending).containsExactly("a", "b").isEqualTo(List.of("a", "b"));
        assertThat(pending.size()).isEqualTo(2);
        assertThat(List.of("a", "b")).isEqualTo(pending);
    }

    @Test
    void waitsForTheListOnItsFirstRead() throws Exception {
        CompletableFuture<List<String>> future = new CompletableFuture<>();
        PendingList<String> pending = new PendingList<>(future);
        Thread completer = new Thread(() -> {
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            future.complete(List.of("x"));
        });
        completer.start();

        assertThat(pending.get(0)).isEqualTo("x");
        completer.join();
    }

    @Test
    void throwsTheComputationsOwnFailure() {
        CompletableFuture<List<String>> future = new CompletableFuture<>();
        future.completeExceptionally(new IllegalStateException("sorting failed"));
        PendingList<String> pending = new PendingList<>(future);

        assertThatThrownBy(pending::size).isInstanceOf(IllegalStateException.class).hasMessage("sorting failed");
    }

    @Test
    void isImmutable() {
        PendingList<String> pending = new PendingList<>(CompletableFuture.completedFuture(List.of("a")));

        assertThatThrownBy(() -> pending.add("b")).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> pending.set(0, "b")).isInstanceOf(UnsupportedOperationException.class);
    }
}
