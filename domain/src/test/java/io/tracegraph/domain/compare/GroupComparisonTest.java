package io.tracegraph.domain.compare;

import static io.tracegraph.domain.compare.ModelRuns.SLOWED;
import static io.tracegraph.domain.compare.ModelRuns.SLOWED_AND_ANCESTORS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.function.Function;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class GroupComparisonTest {
    private static final GroupOptions DEFAULTS = GroupOptions.defaults();

    private static PathComparison row(GroupComparison result, String path) {
        return result.paths().stream().filter(p -> p.path().equals(path)).findFirst().orElseThrow();
    }

    private static List<String> pathsWith(GroupComparison result, Verdict verdict) {
        return result.pathsWith(verdict).stream().map(PathComparison::path).toList();
    }

    private static Stream<MetricComparison> everyMetric(GroupComparison result) {
        return Stream.concat(
                result.paths().stream().flatMap(p -> Stream.of(p.selfTimeNs(), p.totalTimeNs(), p.bytes())),
                Stream.of(result.totalMs(), result.peakBytes()));
    }

    @Test
    void callsExactlyTheSlowedSpanAndItsAncestorsSlowerOnTenRunsPerSide() {
        for (long seed = 1; seed <= 20; seed++) {
            List<RunFacts> baseline = ModelRuns.seeded(seed).runs("base", 10);
            List<RunFacts> candidate = ModelRuns.seeded(1000 + seed).slowedBy(1.3).memoryGrownBy(1.2).runs("cand", 10);

            GroupComparison result = GroupComparison.compare(baseline, candidate, DEFAULTS);

            assertThat(pathsWith(result, Verdict.SLOWER)).as("data seed %d", seed)
                    .containsExactlyInAnyOrderElementsOf(SLOWED_AND_ANCESTORS);
            assertThat(result.paths()).as("data seed %d", seed).hasSize(21)
                    .filteredOn(p -> !SLOWED_AND_ANCESTORS.contains(p.path()))
                    .allSatisfy(p -> {
                        assertThat(p.verdict()).isIn(Verdict.UNCHANGED, Verdict.INCONCLUSIVE);
                        assertThat(p.selfTimeNs().verdict()).isIn(Verdict.UNCHANGED, Verdict.INCONCLUSIVE);
                    });
            PathComparison slowed = result.paths().get(0);
            assertThat(slowed.path()).as("the largest self-time change comes first").isEqualTo(SLOWED);
            assertThat(slowed.selfTimeNs().verdict()).isEqualTo(Verdict.SLOWER);
            assertThat(slowed.selfTimeNs().relativeChange()).isCloseTo(0.3, within(0.08));
            assertThat(slowed.selfTimeNs().interval().lower()).isGreaterThan(0.05);
            assertThat(result.totalMs().verdict()).isEqualTo(Verdict.SLOWER);
            assertThat(result.peakBytes().verdict()).isEqualTo(Verdict.SLOWER);
            assertThat(result.peakBytes().relativeChange()).isCloseTo(0.2, within(0.01));
            assertThat(result.regressionOver(0.10)).isTrue();
            assertThat(result.regressionOver(0.40)).isFalse();
            assertThat(result.notes()).isEmpty();
            assertThat(result.onlyInBaseline()).isEmpty();
            assertThat(result.onlyInCandidate()).isEmpty();
        }
    }

    /**
     * Thousands of untouched paths with realistic noise: each alone has a small chance of an
     * interval beyond the threshold by luck, so without a correction for the number of paths some
     * would be called slower. Only the one that really changed may be.
     */
    @Test
    void callsNoUntouchedPathSlowerAmongThousandsOfNoisyOnes() {
        for (long seed = 1; seed <= 3; seed++) {
            SplittableRandom random = new SplittableRandom(seed);
            List<RunFacts> baseline = new ArrayList<>();
            List<RunFacts> candidate = new ArrayList<>();
            for (int run = 0; run < 20; run++) {
                boolean isCandidate = run >= 10;
                List<PathStats> paths = new ArrayList<>();
                for (int p = 0; p < 2000; p++) {
                    double lognormal = Math.exp(0.2 * gaussian(random));
                    long ns = Math.round(1_000_000 * lognormal * (isCandidate && p == 0 ? 2 : 1));
                    paths.add(PathStats.of("span" + p, 1000L + p, "op", ns, ns, 0, 0));
                }
                (isCandidate ? candidate : baseline).add(new RunFacts((isCandidate ? "c" : "b") + run, 1, 1, paths));
            }

            GroupComparison result = GroupComparison.compare(baseline, candidate, DEFAULTS);

            assertThat(pathsWith(result, Verdict.SLOWER)).as("data seed %d", seed).containsExactly("span0");
            assertThat(result.pathsWith(Verdict.FASTER)).as("data seed %d", seed).isEmpty();
        }
    }

    @Test
    void testsOnlyThePathsWithTheMostTimeAndSaysSo() {
        SplittableRandom random = new SplittableRandom(5);
        List<RunFacts> baseline = new ArrayList<>();
        List<RunFacts> candidate = new ArrayList<>();
        for (int run = 0; run < 20; run++) {
            boolean isCandidate = run >= 10;
            List<PathStats> paths = new ArrayList<>();
            for (int p = 0; p < 30; p++) {
                // Path p takes (p + 1) ms; the candidate doubles the smallest and the largest.
                double slow = isCandidate && (p == 0 || p == 29) ? 2 : 1;
                long ns = Math.round((p + 1) * 1_000_000 * slow * (1 + 0.02 * random.nextDouble()));
                paths.add(PathStats.of("span" + p, 1000L + p, "op", ns, ns, 0, 0));
            }
            (isCandidate ? candidate : baseline).add(new RunFacts((isCandidate ? "c" : "b") + run, 1, 1, paths));
        }

        GroupComparison result = GroupComparison.compare(baseline, candidate, DEFAULTS.withMaxTestedPaths(10));

        assertThat(pathsWith(result, Verdict.SLOWER)).containsExactly("span29");
        PathComparison smallest = row(result, "span0");
        assertThat(smallest.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
        assertThat(smallest.totalTimeNs().interval()).isNull();
        assertThat(smallest.totalTimeNs().relativeChange()).isCloseTo(1.0, within(0.05));
        assertThat(result.paths()).filteredOn(p -> p.totalTimeNs().interval() != null).extracting(PathComparison::path)
                .containsExactlyInAnyOrder("span20", "span21", "span22", "span23", "span24", "span25", "span26",
                        "span27", "span28", "span29");
        assertThat(result.notes()).contains("20 paths with less total time than the 10 largest are not tested: "
                + "medians and changes only, verdict inconclusive");
    }

    @Test
    void saysWhenTheRankSumTestDoesNotConfirmAnIntervalBeyondTheThreshold() {
        // 3 runs a side can never be significant: 1/20 is the smallest one-sided p-value.
        GroupComparison result = GroupComparison.compare(runsOf("b", 100, 101, 102), runsOf("c", 200, 201, 202),
                DEFAULTS);

        assertThat(result.paths().get(0).verdict()).isEqualTo(Verdict.INCONCLUSIVE);
        assertThat(result.paths().get(0).totalTimeNs().interval().lower()).isGreaterThan(0.05);
        assertThat(result.notes()).containsExactly("1 path whose interval lies beyond the threshold is inconclusive: "
                + "the rank-sum test does not confirm the change (1 path tested, family-wise error rate 2.5%)");
    }

    private static double gaussian(SplittableRandom random) {
        return Math.sqrt(-2 * Math.log(1 - random.nextDouble())) * Math.cos(2 * Math.PI * random.nextDouble());
    }

    @Test
    void findsNothingSlowerBetweenTwoHalvesOfTheSameCommit() {
        for (long seed = 1; seed <= 20; seed++) {
            List<RunFacts> runs = ModelRuns.seeded(seed).runs("run", 20);

            GroupComparison result = GroupComparison.compare(runs.subList(0, 10), runs.subList(10, 20), DEFAULTS);

            assertThat(everyMetric(result)).as("data seed %d", seed)
                    .noneMatch(m -> m.verdict() == Verdict.SLOWER || m.verdict() == Verdict.FASTER);
            assertThat(result.regressionOver(0)).isFalse();
        }
    }

    @Test
    void findsNothingChangedBetweenASetAndItself() {
        List<RunFacts> runs = ModelRuns.seeded(7).runs("run", 10);

        GroupComparison result = GroupComparison.compare(runs, runs, DEFAULTS);

        assertThat(everyMetric(result)).allSatisfy(m -> {
            assertThat(m.relativeChange()).isZero();
            assertThat(m.interval().lower()).isLessThanOrEqualTo(0);
            assertThat(m.interval().upper()).isGreaterThanOrEqualTo(0);
            assertThat(m.verdict()).isIn(Verdict.UNCHANGED, Verdict.INCONCLUSIVE);
        });
        assertThat(pathsWith(result, Verdict.UNCHANGED)).hasSizeGreaterThan(15);
        assertThat(result.regressionOver(0)).isFalse();
    }

    @Test
    void doesNotLetNoisySelfTimesOfWrappingSpansDecideTheirVerdict() {
        for (long seed = 1; seed <= 10; seed++) {
            List<RunFacts> runs = ModelRuns.seeded(seed).wrapperNoise(0.9).runs("run", 20);
            List<RunFacts> candidate = ModelRuns.seeded(500 + seed).wrapperNoise(0.9).slowedBy(1.3).runs("cand", 10);

            GroupComparison sameCommit = GroupComparison.compare(runs.subList(0, 10), runs.subList(10, 20), DEFAULTS);
            GroupComparison slowed = GroupComparison.compare(runs.subList(0, 10), candidate, DEFAULTS);

            assertThat(pathsWith(sameCommit, Verdict.SLOWER)).as("data seed %d", seed).isEmpty();
            assertThat(sameCommit.regressionOver(0)).isFalse();
            assertThat(pathsWith(slowed, Verdict.SLOWER)).as("data seed %d", seed)
                    .containsExactlyInAnyOrderElementsOf(SLOWED_AND_ANCESTORS);
        }
    }

    @Test
    void saysPlainlyWhenASideHasTooFewRunsAndConcludesNothing() {
        List<RunFacts> baseline = ModelRuns.seeded(1).runs("base", 2);
        List<RunFacts> candidate = ModelRuns.seeded(2).slowedBy(3).memoryGrownBy(2).runs("cand", 10);

        GroupComparison result = GroupComparison.compare(baseline, candidate, DEFAULTS);

        assertThat(result.notes())
                .containsExactly("too few runs: baseline has 2, candidate has 10; at least 3 per side are needed");
        assertThat(result.enoughRuns()).isFalse();
        assertThat(result.paths()).hasSize(21);
        assertThat(everyMetric(result)).allSatisfy(m -> {
            assertThat(m.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
            assertThat(m.interval()).isNull();
        });
        assertThat(row(result, SLOWED).selfTimeNs().relativeChange()).isCloseTo(2.0, within(0.1));
        assertThat(result.regressionOver(0)).isFalse();
    }

    @Test
    void leavesPathsSeenInTooFewRunsInconclusiveAndListsOneSidedPaths() {
        List<RunFacts> baseline = new ArrayList<>();
        List<RunFacts> candidate = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            List<PathStats> base = new ArrayList<>(List.of(stats("a", 100, 0), stats("gone", 10, 0)));
            List<PathStats> cand = new ArrayList<>(List.of(stats("a", 200, 0), stats("new", 10, 0)));
            if (i < 2) {
                base.add(stats("rare", 50, 0));
                cand.add(stats("rare", 500, 0));
            }
            baseline.add(new RunFacts("b" + i, 1, 1, base));
            candidate.add(new RunFacts("c" + i, 1, 1, cand));
        }
        candidate.add(new RunFacts("c9", 1, 1, List.of(stats("a", 200, 0), stats("new", 10, 0))));

        GroupComparison result = GroupComparison.compare(baseline, candidate, DEFAULTS);

        assertThat(result.paths()).extracting(PathComparison::path, PathComparison::baselineRuns,
                PathComparison::candidateRuns, PathComparison::verdict).as("verdicts first, then the largest change")
                .containsExactly(
                        tuple("a", 5, 6, Verdict.SLOWER),
                        tuple("rare", 2, 2, Verdict.INCONCLUSIVE));
        assertThat(row(result, "rare").totalTimeNs().interval()).isNull();
        assertThat(result.notes())
                .containsExactly("1 path occurs in fewer than 3 runs of a side; its verdict is inconclusive");
        assertThat(result.onlyInBaseline()).containsExactly(new PathPresence(ModelRuns.hash("gone"), "gone", "op", 5));
        assertThat(result.onlyInCandidate()).containsExactly(new PathPresence(ModelRuns.hash("new"), "new", "op", 6));
    }

    @Test
    void givesIdenticalResultsForTheSameSeedWhateverTheRunOrder() {
        List<RunFacts> baseline = ModelRuns.seeded(3).runs("base", 10);
        List<RunFacts> candidate = ModelRuns.seeded(4).slowedBy(1.3).runs("cand", 10);
        List<RunFacts> shuffledBaseline = new ArrayList<>(baseline);
        List<RunFacts> shuffledCandidate = new ArrayList<>(candidate);
        Collections.shuffle(shuffledBaseline, new Random(1));
        Collections.shuffle(shuffledCandidate, new Random(2));

        GroupComparison first = GroupComparison.compare(baseline, candidate, DEFAULTS);
        GroupComparison again = GroupComparison.compare(baseline, candidate, DEFAULTS);
        GroupComparison shuffled = GroupComparison.compare(shuffledBaseline, shuffledCandidate, DEFAULTS);
        GroupComparison otherSeed = GroupComparison.compare(baseline, candidate, DEFAULTS.withSeed(99));

        assertThat(again).isEqualTo(first);
        assertThat(shuffled).isEqualTo(first);
        assertThat(otherSeed.paths()).extracting(PathComparison::totalTimeNs)
                .isNotEqualTo(first.paths().stream().map(PathComparison::totalTimeNs).toList());
        assertThat(otherSeed.paths()).extracting(PathComparison::path, PathComparison::verdict)
                .isEqualTo(first.paths().stream().map(p -> tuple(p.path(), p.verdict()))
                        .toList());
    }

    @Test
    void givesTheSameResultWhateverOrderEachRunListsItsPathsIn() {
        List<RunFacts> baseline = ModelRuns.seeded(7).runs("base", 10);
        List<RunFacts> candidate = ModelRuns.seeded(8).slowedBy(1.3).runs("cand", 10);
        Random random = new Random(3);
        // Every run but the first of each side lists its paths in an order of its own.
        Function<List<RunFacts>, List<RunFacts>> shuffled = runs -> runs.stream().map(run -> {
            List<PathStats> paths = new ArrayList<>(run.paths());
            if (run != runs.get(0)) {
                Collections.shuffle(paths, random);
            }
            return new RunFacts(run.runId(), run.totalMs(), run.peakBytes(), paths, run.gradients());
        }).toList();

        GroupComparison inOrder = GroupComparison.compare(baseline, candidate, DEFAULTS);

        assertThat(GroupComparison.compare(shuffled.apply(baseline), shuffled.apply(candidate), DEFAULTS))
                .isEqualTo(inOrder);
        assertThat(pathsWith(inOrder, Verdict.SLOWER)).containsExactlyInAnyOrderElementsOf(SLOWED_AND_ANCESTORS);
    }

    @Test
    void computesEachPathsIntervalIndependentlyOfTheOtherPathsEvenInParallel() {
        List<RunFacts> baseline = withFiller(ModelRuns.seeded(5).runs("base", 10), 1);
        List<RunFacts> candidate = withFiller(ModelRuns.seeded(6).slowedBy(1.3).runs("cand", 10), 2);

        GroupComparison many = GroupComparison.compare(baseline, candidate, DEFAULTS);
        PathComparison alone = GroupComparison.compare(only(baseline, SLOWED), only(candidate, SLOWED), DEFAULTS)
                .paths().get(0);

        assertThat(many.paths()).hasSize(321);
        // Everything but the p-values, which are Holm-adjusted for the family of tested paths by design.
        assertThat(row(many, SLOWED)).usingRecursiveComparison()
                .ignoringFields("selfTimeNs.pValue", "totalTimeNs.pValue", "bytes.pValue").isEqualTo(alone);
        assertThat(row(many, SLOWED).totalTimeNs().pValue()).as("more tests, a larger adjusted p-value")
                .isGreaterThanOrEqualTo(alone.totalTimeNs().pValue());
        assertThat(GroupComparison.compare(baseline, candidate, DEFAULTS)).isEqualTo(many);
        assertThat(pathsWith(many, Verdict.SLOWER)).containsExactlyInAnyOrderElementsOf(SLOWED_AND_ANCESTORS);
    }

    @Test
    void takesMediansOfEachSideAndTheirRelativeChange() {
        List<RunFacts> baseline = runsOf("b", 30, 10, 20);
        List<RunFacts> candidate = runsOf("c", 40, 10, 30, 20);

        MetricComparison self = GroupComparison.compare(baseline, candidate, DEFAULTS).paths().get(0).selfTimeNs();

        assertThat(self.baselineMedian()).isEqualTo(20);
        assertThat(self.candidateMedian()).isEqualTo(25);
        assertThat(self.relativeChange()).isEqualTo(0.25);
    }

    @Test
    void givesEachSideItsSpreadAsTheMedianAbsoluteDeviation() {
        MetricComparison self = onlyMetric(runsOf("b", 10, 20, 30, 40), runsOf("c", 100, 100, 100, 140), DEFAULTS);

        assertThat(self.baselineSpread()).as("|10-25|, |20-25|, |30-25|, |40-25|").isEqualTo(10);
        assertThat(self.candidateSpread()).isEqualTo(0);
        assertThat(onlyMetric(runsOf("b", 7), runsOf("c", 9), DEFAULTS).baselineSpread()).isEqualTo(0);
    }

    @Test
    void givesThePValueInTheDirectionOfTheChangeAtMostTheErrorRateExactlyWhenConfirmed() {
        for (long seed = 1; seed <= 5; seed++) {
            GroupComparison result = GroupComparison.compare(ModelRuns.seeded(seed).runs("base", 10),
                    ModelRuns.seeded(1000 + seed).slowedBy(1.3).memoryGrownBy(1.2).runs("cand", 10), DEFAULTS);
            double alpha = (1 - DEFAULTS.confidence()) / 2;
            for (PathComparison p : result.paths()) {
                MetricComparison total = p.totalTimeNs();
                assertThat(total.pValue()).as("%s, seed %d", p.path(), seed).isBetween(0.0, 1.0);
                if (total.verdict() == Verdict.SLOWER || total.verdict() == Verdict.FASTER) {
                    assertThat(total.pValue()).as(p.path()).isLessThanOrEqualTo(alpha);
                }
            }
            assertThat(row(result, SLOWED).totalTimeNs().pValue()).isLessThanOrEqualTo(alpha);
            assertThat(result.totalMs().pValue()).isLessThanOrEqualTo(alpha);
            assertThat(result.peakBytes().pValue()).isLessThanOrEqualTo(alpha);
        }
    }

    @Test
    void hasNoPValueWithoutATest() {
        GroupComparison fewRuns = GroupComparison.compare(ModelRuns.seeded(1).runs("base", 2),
                ModelRuns.seeded(2).runs("cand", 10), DEFAULTS);
        assertThat(everyMetric(fewRuns)).allSatisfy(m -> assertThat(m.pValue()).isNaN());
        assertThat(onlyMetric(runsOf("b", 100, 100, 100), runsOf("c", 130, 130, 130), DEFAULTS).pValue())
                .as("measured, not estimated").isNaN();
    }

    @Test
    void givesADegenerateIntervalWhenNoRunVaries() {
        List<RunFacts> baseline = runsOf("b", 100, 100, 100);

        assertThat(onlyMetric(baseline, runsOf("c", 130, 130, 130), DEFAULTS))
                .isEqualTo(new MetricComparison(100, 130, 0.3, new ConfidenceInterval(0.3, 0.3), Verdict.SLOWER, 0, 0,
                        Double.NaN));
        assertThat(onlyMetric(baseline, runsOf("c", 80, 80, 80), DEFAULTS).verdict()).isEqualTo(Verdict.FASTER);
        assertThat(onlyMetric(baseline, runsOf("c", 104, 104, 104), DEFAULTS).verdict()).isEqualTo(Verdict.UNCHANGED);
        assertThat(onlyMetric(baseline, runsOf("c", 105, 105, 105), DEFAULTS).verdict())
                .as("a change of exactly the threshold is unchanged").isEqualTo(Verdict.UNCHANGED);
    }

    /**
     * Resampling {90, 110, 130} three times gives a median of 90 or 130 with probability 7/27 each
     * and 110 with 13/27, so the 2.5% and 97.5% percentiles of the change against 100 are exactly
     * -10% and +30%.
     */
    @Test
    void takesTheIntervalFromThePercentilesOfResampledChanges() {
        List<RunFacts> baseline = runsOf("b", 100, 100, 100);
        List<RunFacts> candidate = runsOf("c", 130, 90, 110);

        MetricComparison atFivePercent = onlyMetric(baseline, candidate, DEFAULTS);
        MetricComparison atFortyPercent = onlyMetric(baseline, candidate, DEFAULTS.withThreshold(0.4));
        MetricComparison middle40 = onlyMetric(baseline, candidate, DEFAULTS.withConfidence(0.4));

        assertThat(atFivePercent.relativeChange()).isCloseTo(0.1, within(1e-12));
        assertThat(atFivePercent.interval().lower()).isCloseTo(-0.1, within(1e-12));
        assertThat(atFivePercent.interval().upper()).isCloseTo(0.3, within(1e-12));
        assertThat(atFivePercent.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
        assertThat(atFortyPercent.verdict()).isEqualTo(Verdict.UNCHANGED);
        assertThat(middle40.interval()).as("30th and 70th percentiles").isEqualTo(new ConfidenceInterval(0.1, 0.1));
    }

    @Test
    void treatsABaselineOfZeroAsAnUnboundedChange() {
        assertThat(onlyMetric(runsOf("b", 0, 0, 0), runsOf("c", 0, 0, 0), DEFAULTS))
                .isEqualTo(new MetricComparison(0, 0, 0, new ConfidenceInterval(0, 0), Verdict.UNCHANGED, 0, 0,
                        Double.NaN));
        MetricComparison fromZero = onlyMetric(runsOf("b", 0, 0, 0), runsOf("c", 5, 5, 5), DEFAULTS);
        assertThat(fromZero.relativeChange()).isEqualTo(Double.POSITIVE_INFINITY);
        assertThat(fromZero.verdict()).isEqualTo(Verdict.SLOWER);
    }

    @Test
    void reportsRegressionsOnlyAboveTheGivenPercentage() {
        GroupComparison result = GroupComparison.compare(runsOf("b", 100, 100, 100), runsOf("c", 120, 120, 120),
                DEFAULTS);

        assertThat(result.regressionOver(0.199)).isTrue();
        assertThat(result.regressionOver(0.201)).isFalse();
    }

    @Test
    void rejectsEmptySidesAndRepeatedRuns() {
        List<RunFacts> runs = runsOf("b", 1, 2, 3);

        assertThatThrownBy(() -> GroupComparison.compare(List.of(), runs))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("the baseline has no runs");
        assertThatThrownBy(() -> GroupComparison.compare(runs, List.of(runs.get(0), runs.get(0))))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("run b0 is listed twice in the candidate");
    }

    @Test
    void rejectsMeaninglessOptions() {
        assertThatThrownBy(() -> DEFAULTS.withResamples(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> DEFAULTS.withConfidence(1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> DEFAULTS.withConfidence(Double.NaN)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> DEFAULTS.withThreshold(-0.01)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> DEFAULTS.withMinRunsPerSide(0)).isInstanceOf(IllegalArgumentException.class);
        assertThat(DEFAULTS).isEqualTo(new GroupOptions(GroupOptions.DEFAULT_SEED, 1000, 0.95, 0.05, 3, 1000));
    }

    private static MetricComparison onlyMetric(List<RunFacts> baseline, List<RunFacts> candidate,
            GroupOptions options) {
        return GroupComparison.compare(baseline, candidate, options).paths().get(0).selfTimeNs();
    }

    private static PathStats stats(String path, long selfTimeNs, long bytes) {
        return PathStats.of(path, ModelRuns.hash(path), "op", selfTimeNs, selfTimeNs, bytes, bytes);
    }

    /** One run per value, each with the single path {@code p} of that self time. */
    private static List<RunFacts> runsOf(String prefix, long... selfTimes) {
        List<RunFacts> runs = new ArrayList<>();
        for (int i = 0; i < selfTimes.length; i++) {
            runs.add(new RunFacts(prefix + i, 1, 1, List.of(stats("p", selfTimes[i], 0))));
        }
        return runs;
    }

    /** The runs with 300 more paths {@code filler/i} of noisy self time. */
    private static List<RunFacts> withFiller(List<RunFacts> runs, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        return runs.stream().map(run -> {
            List<PathStats> paths = new ArrayList<>(run.paths());
            for (int i = 0; i < 300; i++) {
                long self = 1000 + random.nextInt(100);
                paths.add(PathStats.of("filler/" + i, ModelRuns.hash("filler/" + i), "op", self, self, i, i));
            }
            return new RunFacts(run.runId(), run.totalMs(), run.peakBytes(), paths);
        }).toList();
    }

    private static List<RunFacts> only(List<RunFacts> runs, String path) {
        return runs.stream().map(run -> new RunFacts(run.runId(), run.totalMs(), run.peakBytes(),
                run.paths().stream().filter(p -> p.path().equals(path)).toList())).toList();
    }
}
