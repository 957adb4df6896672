package io.tracegraph.domain.compare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import java.util.List;
import org.junit.jupiter.api.Test;

class RunComparisonTest {
    private static final String GRINNING = new String(Character.toChars(0x1F600));

    private static PathStats stats(String path, long selfTimeNs, long totalTimeNs, long bytes, long peakBytes) {
        return PathStats.of(path, ModelRuns.hash(path), "function", selfTimeNs, totalTimeNs, bytes, peakBytes);
    }

    private static RunFacts run(String id, List<PathStats> paths, GradientFact... gradients) {
        return new RunFacts(id, 10, 1000, paths, List.of(gradients));
    }

    @Test
    void givesBaseCandidateDeltaAndRatioOfEveryMatchedPath() {
        RunFacts base = run("a", List.of(stats("loss", 100, 400, 50, 80), stats("loss/f", 0, 300, 0, 0)));
        RunFacts candidate = run("b", List.of(stats("loss/f", 30, 330, 10, 20), stats("loss", 90, 420, 50, 100)));

        RunComparison result = RunComparison.compare(base, candidate);

        assertThat(result.matched()).extracting(PathChange::path).containsExactly("loss/f", "loss");
        PathChange f = result.matched().get(0);
        assertThat(f.pathHash()).isEqualTo(ModelRuns.hash("loss/f"));
        assertThat(f.kind()).isEqualTo("function");
        assertThat(f.selfTimeNs()).isEqualTo(new LongChange(0, 30));
        assertThat(f.selfTimeNs().delta()).isEqualTo(30);
        assertThat(f.selfTimeNs().ratio()).as("no ratio against 0").isNull();
        assertThat(f.selfTimeNs().percent()).isNull();
        assertThat(f.totalTimeNs().delta()).isEqualTo(30);
        assertThat(f.totalTimeNs().ratio()).isEqualTo(1.1);
        PathChange loss = result.matched().get(1);
        assertThat(loss.selfTimeNs().delta()).isEqualTo(-10);
        assertThat(loss.selfTimeNs().ratio()).isEqualTo(0.9);
        assertThat(loss.selfTimeNs().percent()).isEqualTo(-10.0);
        assertThat(loss.bytes().delta()).isZero();
        assertThat(loss.bytes().ratio()).isEqualTo(1.0);
        assertThat(loss.peakBytes()).isEqualTo(new LongChange(80, 100));
        assertThat(loss.peakBytes().percent()).isEqualTo(25.0);
        assertThat(result.added()).isEmpty();
        assertThat(result.removed()).isEmpty();
    }

    @Test
    void sortsBySelfTimeChangeThenBytesChangeThenPathInCodePointOrder() {
        RunFacts base = run("a", List.of(stats("a", 100, 100, 0, 0), stats("b", 100, 100, 0, 0),
                stats("c", 100, 100, 0, 0), stats(GRINNING, 100, 100, 0, 0), stats("\uFF21", 100, 100, 0, 0),
                stats("d", 100, 100, 0, 0)));
        RunFacts candidate = run("b", List.of(stats("a", 105, 105, 0, 0), stats("b", 95, 95, 500, 500),
                stats("c", 180, 180, 0, 0), stats(GRINNING, 95, 95, 0, 0), stats("\uFF21", 105, 105, 0, 0),
                stats("d", 20, 20, 0, 0)));

        RunComparison result = RunComparison.compare(base, candidate);

        assertThat(result.matched()).extracting(PathChange::path)
                .containsExactly("c", "d", "b", "a", "\uFF21", GRINNING);
    }

    @Test
    void listsPathsOnlyInTheCandidateAsAddedAndOnlyInTheBaseAsRemovedLargestFirst() {
        RunFacts base = run("a", List.of(stats("kept", 1, 1, 0, 0), stats("old/small", 5, 5, 0, 0),
                stats("old/big", 50, 50, 0, 0)));
        RunFacts candidate = run("b", List.of(stats("new/heavy", 7, 7, 900, 900), stats("kept", 1, 1, 0, 0),
                stats("new/light", 7, 7, 10, 10), stats("new/slow", 70, 70, 0, 0)));

        RunComparison result = RunComparison.compare(base, candidate);

        assertThat(result.added()).extracting(PathStats::path)
                .containsExactly("new/slow", "new/heavy", "new/light");
        assertThat(result.removed()).extracting(PathStats::path).containsExactly("old/big", "old/small");
        assertThat(result.matched()).extracting(PathChange::path).containsExactly("kept");
    }

    @Test
    void flagsGradientsThatStoppedBeingPresent() {
        RunFacts base = run("a", List.of(),
                new GradientFact("loss", "w1", "present", 1.5),
                new GradientFact("loss", "w2", "present", 2.0),
                new GradientFact("loss", "w3", "zero", 0.0),
                new GradientFact("loss", "w4", "present", 3.0),
                new GradientFact("loss", "w5", "present", 1.0),
                new GradientFact("loss", "gone", "present", 1.0));
        RunFacts candidate = run("b", List.of(),
                new GradientFact("loss", "w5", "non_finite", null),
                new GradientFact("loss", "w1", "present", 1.7),
                new GradientFact("loss", "w2", "missing", null),
                new GradientFact("loss", "w3", "present", 0.5),
                new GradientFact("loss", "w4", "zero", 0.0),
                new GradientFact("loss", "new", "present", 9.0));

        RunComparison result = RunComparison.compare(base, candidate);

        assertThat(result.gradientChanges())
                .extracting(GradientChange::key, GradientChange::baseState, GradientChange::candidateState,
                        GradientChange::regression)
                .containsExactly(
                        tuple("w2", "present", "missing", true),
                        tuple("w4", "present", "zero", true),
                        tuple("w5", "present", "non_finite", true),
                        tuple("gone", "present", null, false),
                        tuple("new", null, "present", false),
                        tuple("w3", "zero", "present", false));
        assertThat(result.hasGradientRegression()).isTrue();
        assertThat(result.gradientChanges().get(0).baseNorm()).isEqualTo(2.0);
        assertThat(result.gradientChanges().get(0).candidateNorm()).isNull();
    }

    @Test
    void comparesTotalTimeAndMemoryPeak() {
        RunFacts base = new RunFacts("a", 200, 1000, List.of());
        RunFacts candidate = new RunFacts("b", 250, 900, List.of());

        RunComparison result = RunComparison.compare(base, candidate);

        assertThat(result.baseRunId()).isEqualTo("a");
        assertThat(result.candidateRunId()).isEqualTo("b");
        assertThat(result.totalMs().delta()).isEqualTo(50.0);
        assertThat(result.totalMs().percent()).isEqualTo(25.0);
        assertThat(result.totalMs().ratio()).isEqualTo(1.25);
        assertThat(result.peakBytes().delta()).isEqualTo(-100);
        assertThat(result.peakBytes().percent()).isEqualTo(-10.0);
        assertThat(result.hasGradientRegression()).isFalse();
        assertThat(new DoubleChange(0, 5).percent()).isNull();
        assertThat(new DoubleChange(0, 5).ratio()).isNull();
    }

    @Test
    void rejectsInvalidFacts() {
        PathStats a = stats("a", 1, 1, 1, 1);

        assertThatThrownBy(() -> new RunFacts("r", 1, 1, List.of(a, a)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("run r lists path a twice; aggregate its occurrences first");
        assertThatThrownBy(() -> new RunFacts("r", Double.NaN, 1, List.of()))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new RunFacts("r", 1, -1, List.of())).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new GradientFact("loss", "w", "PRESENT", null))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("unknown gradient state: PRESENT");
        assertThatThrownBy(() -> new LongChange(-1, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new PathChange(a, stats("b", 1, 1, 1, 1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new GradientChange("loss", "w", "zero", "zero", null, null))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
