package io.tracegraph.application;

import io.tracegraph.domain.run.RunRef;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The runs a set names ({@code spec} as typed): its trace files and its stored runs, each as often
 * as the set names it, in the order named.
 */
public record RunSet(String spec, List<TraceInput> files, List<RunRef> stored) {
    public RunSet {
        Objects.requireNonNull(spec, "spec");
        files = List.copyOf(files);
        stored = List.copyOf(stored);
    }

    /** How many runs the set names, each counted as often as it is named. */
    public int size() {
        return files.size() + stored.size();
    }

    /**
     * The members named more than once (a trace file by its name, a stored run by its run_id),
     * each once, trace files first: a set is meant to hold each run once.
     */
    public List<String> duplicates() {
        List<String> twice = new ArrayList<>();
        Set<String> files = new HashSet<>();
        Set<String> reported = new HashSet<>();
        for (TraceInput file : this.files) {
            if (!files.add(file.name()) && reported.add("file:" + file.name())) {
                twice.add(file.name());
            }
        }
        Set<Long> runs = new HashSet<>();
        for (RunRef run : stored) {
            if (!runs.add(run.key()) && reported.add("run:" + run.key())) {
                twice.add(run.runId());
            }
        }
        return List.copyOf(twice);
    }
}
