package io.tracegraph.application;

/** The use cases over an in-memory store and in-memory trace files. */
final class Fixture {
    final InMemoryStore store = new InMemoryStore();
    final InMemoryTraces files = new InMemoryTraces();
    final RunSources sources = new RunSources(store, store, store, files, new BuildGraph(files));

    static <T> T done(Outcome<T> outcome) {
        if (outcome instanceof Outcome.Rejected<T> rejected) {
            throw new AssertionError("rejected: " + rejected.message());
        }
        return ((Outcome.Done<T>) outcome).value();
    }

    static String rejection(Outcome<?> outcome) {
        if (outcome instanceof Outcome.Rejected<?> rejected) {
            return rejected.message();
        }
        throw new AssertionError("not rejected: " + outcome);
    }
}
