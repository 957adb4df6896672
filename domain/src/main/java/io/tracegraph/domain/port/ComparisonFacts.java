package io.tracegraph.domain.port;

import io.tracegraph.domain.compare.PathStats;
import io.tracegraph.domain.compare.RunFacts;
import io.tracegraph.domain.run.RunRef;
import java.util.List;

/**
 * What comparisons need of stored runs: their semantic paths aggregated, their totals and
 * gradients. Nothing here changes the store.
 */
public interface ComparisonFacts {
    /**
     * The run's semantic paths, each aggregated over its occurrences (as
     * {@link PathStats#ofGraph} does for a graph), in path order (code point order of the text, then
     * hash); empty when the run is not stored.
     */
    List<PathStats> pathStats(RunRef run);

    /**
     * What a comparison needs of each run (total time, memory peak, paths and gradients), in the
     * order given, each run's paths as {@link #pathStats} gives them. Runs are read concurrently;
     * this fails when one of them is no longer stored.
     */
    default List<RunFacts> facts(List<RunRef> runs) {
        return facts(runs, true);
    }

    /**
     * {@link #facts(List)}, with each run's gradient records only when {@code gradients} (set
     * comparisons do not use them, and a training run may have tens of thousands).
     */
    List<RunFacts> facts(List<RunRef> runs, boolean gradients);
}
