package io.tracegraph.domain.run;

import java.util.List;
import java.util.Objects;

/**
 * What a run reference (a run_id, an unambiguous prefix of one, {@code latest} or {@code latest~N})
 * names in the store: one run, no run, or several runs.
 */
public sealed interface RunResolution permits RunResolution.Found, RunResolution.NotFound, RunResolution.Ambiguous {

    /** The reference as the user gave it. */
    String reference();

    record Found(String reference, RunRef run) implements RunResolution {
        public Found {
            Objects.requireNonNull(reference, "reference");
            Objects.requireNonNull(run, "run");
        }
    }

    /** Nothing matches; {@code reason} says why in a sentence for people. */
    record NotFound(String reference, String reason) implements RunResolution {
        public NotFound {
            Objects.requireNonNull(reference, "reference");
            Objects.requireNonNull(reason, "reason");
        }

        public String message() {
            return reason;
        }
    }

    /**
     * The reference is a prefix of several run_ids: {@code candidates} lists some of them (newest
     * first), {@code matches} says how many there are in all.
     */
    record Ambiguous(String reference, List<String> candidates, long matches) implements RunResolution {
        public Ambiguous {
            Objects.requireNonNull(reference, "reference");
            candidates = List.copyOf(candidates);
            if (matches < 2 || candidates.isEmpty() || candidates.size() > matches) {
                throw new IllegalArgumentException("an ambiguous reference matches at least two runs: " + matches);
            }
        }

        public String message() {
            String more = matches > candidates.size() ? " and " + (matches - candidates.size()) + " more" : "";
            return "run reference `" + reference + "` is ambiguous: it matches " + String.join(", ", candidates)
                    + more + "; give more of the run_id";
        }
    }
}
