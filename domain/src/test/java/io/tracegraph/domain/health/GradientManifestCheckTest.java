package io.tracegraph.domain.health;

import static io.tracegraph.domain.Traces.span;
import static io.tracegraph.domain.Traces.trace;
import static org.assertj.core.api.Assertions.assertThat;

import io.tracegraph.domain.trace.CaptureContract;
import io.tracegraph.domain.trace.CoverageLevel;
import io.tracegraph.domain.trace.ExecutionPhase;
import io.tracegraph.domain.trace.ExpectedGradient;
import io.tracegraph.domain.trace.FamilyExpectation;
import io.tracegraph.domain.trace.GradientContract;
import io.tracegraph.domain.trace.GradientEvent;
import io.tracegraph.domain.trace.GradientFamily;
import io.tracegraph.domain.trace.GradientState;
import io.tracegraph.domain.trace.MeasurementScope;
import io.tracegraph.domain.trace.TraceDocument;
import io.tracegraph.domain.trace.TraceSchemas;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The exact gradient contract of trace/9 and later: candle-graph's {@code tests/gradient_contract.rs}, ported. */
class GradientManifestCheckTest {

    private static GradientEvent gradient(String key, GradientState state, Double norm) {
        return new GradientEvent("gradient-" + key, "parameters", key, state, norm);
    }

    private static GradientContract contract(List<ExpectedGradient> expected, List<GradientFamily> families) {
        return new GradientContract(GradientContract.manifestSha256Of(expected), expected, families);
    }

    private static GradientContract contract() {
        return contract(List.of(new ExpectedGradient("parameters", "trunk.weight", "trunk"),
                        new ExpectedGradient("parameters", "frozen.weight", "frozen"),
                        new ExpectedGradient("parameters", "optional.weight", "optional")),
                List.of(new GradientFamily("trunk", FamilyExpectation.ACTIVE, 1),
                        new GradientFamily("frozen", FamilyExpectation.INACTIVE, 0),
                        new GradientFamily("optional", FamilyExpectation.DATA_CONDITIONAL, 1)));
    }

    private static CaptureContract capture(CoverageLevel gradients, GradientContract contract) {
        return new CaptureContract(MeasurementScope.PRODUCTION_EQUIVALENT, CoverageLevel.NONE, CoverageLevel.NONE,
                gradients, contract, CoverageLevel.NONE, CoverageLevel.NONE, CoverageLevel.NONE, List.of(), List.of(),
                List.of());
    }

    private static TraceDocument document(List<GradientEvent> gradients, CaptureContract capture, boolean failed) {
        var doc = trace().schema(TraceSchemas.TRACE_9).phase(ExecutionPhase.TRAIN).entrypoint("train::step")
                .span(span("root").name("train::step").measured().duration(10))
                .contract(capture);
        if (failed) {
            doc.failed("interrupted before gradient inspection", 10);
        } else {
            doc.complete(10);
        }
        gradients.forEach(doc::gradient);
        return doc.build();
    }

    private static TraceHealth health(List<GradientEvent> gradients) {
        return HealthAnalyzer.analyze(document(gradients, capture(CoverageLevel.COMPLETE, contract()), false));
    }

    private static List<String> codes(TraceHealth health) {
        return health.issues().stream().map(HealthIssue::code).toList();
    }

    private static List<GradientEvent> validGradients() {
        return new ArrayList<>(List.of(gradient("trunk.weight", GradientState.PRESENT, 2.0),
                gradient("frozen.weight", GradientState.MISSING, null),
                gradient("optional.weight", GradientState.MISSING, null)));
    }

    @Test
    void orderedManifestDigestHasAStableGoldenValue() {
        assertThat(contract().manifestSha256())
                .isEqualTo("sha256:d7f0b4aa8a4072b9824018c8d3eff5757286f1348366c15ef8780be38945fcc6");
    }

    @Test
    void exactManifestAndFamilyExpectationsValidate() {
        TraceHealth health = health(validGradients());

        assertThat(health.structurallyValid()).as("%s", health.issues()).isTrue();
    }

    @Test
    void completeGradientCoverageRejectsAMissingManifestKey() {
        TraceHealth health = health(List.of(gradient("trunk.weight", GradientState.PRESENT, 2.0),
                gradient("frozen.weight", GradientState.MISSING, null)));

        assertThat(health.errors()).extracting(HealthIssue::message)
                .containsExactly("manifest gradient (\"parameters\", \"optional.weight\") was not captured");
    }

    @Test
    void gradientStateRequiresAConsistentNorm() {
        List<GradientEvent> gradients = validGradients();
        gradients.set(0, gradient("trunk.weight", GradientState.PRESENT, null));

        TraceHealth health = health(gradients);

        assertThat(health.errors()).extracting(HealthIssue::message).contains(
                "gradient (\"parameters\", \"trunk.weight\") state `present` is inconsistent with norm None");
        assertThat(codes(health)).contains("gradient_state_norm_inconsistent");
    }

    @Test
    void everyGradientStateHasAnUnambiguousNormEncoding() {
        Object[][] cases = {
            {GradientState.PRESENT, 0.0, "Some(0.0)"},
            {GradientState.PRESENT, -1.5, "Some(-1.5)"},
            {GradientState.ZERO, null, "None"},
            {GradientState.ZERO, -0.0, "Some(-0.0)"},
            {GradientState.MISSING, 0.0, "Some(0.0)"},
            {GradientState.NON_FINITE, 1e-7, "Some(1e-7)"},
        };
        for (Object[] c : cases) {
            List<GradientEvent> gradients = validGradients();
            gradients.set(0, gradient("trunk.weight", (GradientState) c[0], (Double) c[1]));
            TraceHealth health = health(gradients);
            assertThat(health.issues()).extracting(HealthIssue::message).as("%s %s", c[0], c[1])
                    .anyMatch(m -> m.endsWith("is inconsistent with norm " + c[2]));
        }
        assertThat(GradientManifestCheck.normAgrees(GradientState.ZERO, 0.0)).isTrue();
        assertThat(GradientManifestCheck.normAgrees(GradientState.NON_FINITE, null)).isTrue();
    }

    @Test
    void activeFamilyRejectsAnAllZeroCapture() {
        List<GradientEvent> gradients = validGradients();
        gradients.set(0, gradient("trunk.weight", GradientState.ZERO, 0.0));

        assertThat(health(gradients).errors()).extracting(HealthIssue::message).containsExactly(
                "active gradient family \"trunk\" has 0 present gradients; requires at least 1");
    }

    @Test
    void inactiveAndDataConditionalFamiliesEnforceTheirContracts() {
        List<GradientEvent> leaking = validGradients();
        leaking.set(1, gradient("frozen.weight", GradientState.PRESENT, 1.0));
        assertThat(health(leaking).errors()).extracting(HealthIssue::message)
                .containsExactly("inactive gradient family \"frozen\" has 1 attached gradients");

        List<GradientEvent> zero = validGradients();
        zero.set(2, gradient("optional.weight", GradientState.ZERO, 0.0));
        assertThat(codes(health(zero))).doesNotContain("gradient_conditional_family_below_minimum");
    }

    private static List<String> conditionalMatrix(GradientState[] states, Double[] norms) {
        GradientContract contract = contract(
                List.of(new ExpectedGradient("parameters", "trunk.weight", "trunk"),
                        new ExpectedGradient("parameters", "optional.a", "optional"),
                        new ExpectedGradient("parameters", "optional.b", "optional"),
                        new ExpectedGradient("parameters", "optional.c", "optional")),
                List.of(new GradientFamily("trunk", FamilyExpectation.ACTIVE, 1),
                        new GradientFamily("optional", FamilyExpectation.DATA_CONDITIONAL, 2)));
        List<GradientEvent> gradients = new ArrayList<>(List.of(gradient("trunk.weight", GradientState.PRESENT, 1.0)));
        String[] keys = {"optional.a", "optional.b", "optional.c"};
        for (int i = 0; i < 3; i++) {
            gradients.add(gradient(keys[i], states[i], norms[i]));
        }
        return codes(HealthAnalyzer.analyze(document(gradients, capture(CoverageLevel.COMPLETE, contract), false)));
    }

    @Test
    void multiMemberDataConditionalMatrixIsFailClosed() {
        GradientState m = GradientState.MISSING;
        GradientState z = GradientState.ZERO;
        GradientState p = GradientState.PRESENT;
        assertThat(conditionalMatrix(new GradientState[] {m, m, m}, new Double[] {null, null, null}))
                .doesNotContain("gradient_conditional_family_below_minimum");
        assertThat(conditionalMatrix(new GradientState[] {z, z, z}, new Double[] {0.0, 0.0, 0.0}))
                .doesNotContain("gradient_conditional_family_below_minimum");
        assertThat(conditionalMatrix(new GradientState[] {p, p, m}, new Double[] {1.0, 1.0, null}))
                .doesNotContain("gradient_conditional_family_below_minimum");
        assertThat(conditionalMatrix(new GradientState[] {p, z, m}, new Double[] {1.0, 0.0, null}))
                .contains("gradient_conditional_family_below_minimum");
        assertThat(conditionalMatrix(new GradientState[] {GradientState.NON_FINITE, m, m}, new Double[] {null, null, null}))
                .contains("gradient_family_non_finite");
    }

    @Test
    void exactManifestRejectsDuplicateUndeclaredAndAmbiguousEvents() {
        List<GradientEvent> duplicate = validGradients();
        duplicate.add(gradient("trunk.weight", GradientState.PRESENT, 2.0));
        TraceHealth dup = health(duplicate);
        assertThat(codes(dup)).contains("gradient_manifest_duplicate_key", "duplicate_gradient_event_id");
        assertThat(dup.errors()).extracting(HealthIssue::message).contains(
                "gradient event ID \"gradient-trunk.weight\" occurs more than once",
                "gradient (\"parameters\", \"trunk.weight\") occurs 2 times; expected exactly once");

        List<GradientEvent> undeclared = validGradients();
        undeclared.add(gradient("extra.weight", GradientState.PRESENT, 1.0));
        assertThat(health(undeclared).errors()).extracting(HealthIssue::message)
                .containsExactly("gradient (\"parameters\", \"extra.weight\") is absent from the manifest");

        List<GradientEvent> emptyId = validGradients();
        emptyId.set(0, new GradientEvent("", "parameters", "trunk.weight", GradientState.PRESENT, 2.0));
        assertThat(codes(health(emptyId))).contains("empty_gradient_event_id");
    }

    @Test
    void contractDigestAndFamilyClassificationAreValidatedAfterReading() {
        GradientContract good = contract();
        List<ExpectedGradient> tamperedKeys = new ArrayList<>(good.expected());
        tamperedKeys.set(0, new ExpectedGradient("parameters", "different.weight", "trunk"));
        GradientContract tampered = new GradientContract(good.manifestSha256(), tamperedKeys, good.families());
        assertThat(tampered.problem())
                .contains("gradient manifest SHA-256 does not match its ordered parameter manifest");

        GradientContract unclassified = contract(good.expected(), good.families().subList(1, 3));
        assertThat(unclassified.problem()).contains("gradient manifest family \"trunk\" has no family contract");

        TraceHealth health = HealthAnalyzer.analyze(document(validGradients(), capture(CoverageLevel.COMPLETE, tampered),
                false));
        assertThat(health.errors()).extracting(HealthIssue::code).containsExactly("gradient_contract_invalid");
    }

    @Test
    void captureContractRejectsGradientContractCoverageMismatches() {
        TraceHealth missing = HealthAnalyzer.analyze(document(validGradients(), capture(CoverageLevel.COMPLETE, null), false));
        assertThat(missing.errors()).extracting(HealthIssue::message)
                .containsExactly("complete gradient coverage requires an exact gradient contract");

        TraceHealth undeclared = HealthAnalyzer.analyze(document(validGradients(),
                capture(CoverageLevel.PARTIAL, contract()), false));
        assertThat(undeclared.errors()).extracting(HealthIssue::message)
                .containsExactly("an exact gradient contract requires complete declared gradient coverage");
    }

    @Test
    void partialGradientEventsStillObeyEventLevelInvariants() {
        TraceHealth health = HealthAnalyzer.analyze(document(List.of(gradient("trunk.weight", GradientState.PRESENT, null)),
                capture(CoverageLevel.PARTIAL, null), false));

        assertThat(codes(health)).contains("gradient_state_norm_inconsistent");
        assertThat(health.structurallyValid()).isFalse();
    }

    @Test
    void interruptedExactCaptureReportsMissingManifestEventsAsWarnings() {
        TraceHealth health = HealthAnalyzer.analyze(document(List.of(), capture(CoverageLevel.COMPLETE, contract()), true));

        assertThat(health.structurallyValid()).isTrue();
        assertThat(health.captureComplete()).isFalse();
        assertThat(health.issues()).filteredOn(i -> i.code().equals("gradient_manifest_missing_key"))
                .hasSize(3).allMatch(i -> !i.isError());
    }

    @Test
    void trace7And8DoNotCheckGradients() {
        TraceDocument doc = trace().schema(TraceSchemas.TRACE_8).complete(10)
                .span(span("root").measured().duration(10))
                .contract(capture(CoverageLevel.COMPLETE, null))
                .gradient(gradient("w", GradientState.PRESENT, null)).build();

        assertThat(HealthAnalyzer.analyze(doc).structurallyValid()).isTrue();
    }

    @Test
    void factsInManifestOrderAndInAnyOtherOrderGiveTheSameVerdicts() {
        // In manifest order the check counts the families by position; in another order it pairs
        // the facts with the manifest by key. Both must report the same issues.
        List<GradientEvent> inOrder = new ArrayList<>(List.of(gradient("trunk.weight", GradientState.ZERO, 0.0),
                gradient("frozen.weight", GradientState.NON_FINITE, null),
                gradient("optional.weight", GradientState.PRESENT, 1.0)));
        List<GradientEvent> reordered = List.of(inOrder.get(2), inOrder.get(0), inOrder.get(1));

        List<HealthIssue> expected = health(inOrder).issues();
        assertThat(expected).extracting(HealthIssue::code).filteredOn(code -> code.startsWith("gradient"))
                .containsExactly("gradient_active_family_below_minimum", "gradient_family_non_finite",
                        "gradient_inactive_family_leakage");
        assertThat(health(reordered).issues()).isEqualTo(expected);
    }

    @Test
    void aFactMissingFromAnOrderedCaptureIsStillReported() {
        List<GradientEvent> gradients = validGradients();
        gradients.set(1, gradient("other.weight", GradientState.MISSING, null));

        assertThat(codes(health(gradients))).filteredOn(code -> code.startsWith("gradient"))
                .containsExactly("gradient_manifest_undeclared_key", "gradient_manifest_missing_key");
    }

    @Test
    void manifestDigestEncodesNonAsciiNamesAsUtf8() throws Exception {
        List<ExpectedGradient> expected = List.of(new ExpectedGradient("vb", "blöck.wéight", "fämily"),
                new ExpectedGradient("vb", "plain.weight", "family"), new ExpectedGradient("vb", "\uD83D\uDE00", "f"));
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        bytes.writeBytes(GradientContract.MANIFEST_SCHEMA.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        bytes.write(0);
        for (ExpectedGradient e : expected) {
            for (String value : List.of(e.root(), e.key(), e.family())) {
                byte[] utf8 = value.getBytes(java.nio.charset.StandardCharsets.UTF_8);
                bytes.writeBytes(java.nio.ByteBuffer.allocate(8).order(java.nio.ByteOrder.LITTLE_ENDIAN)
                        .putLong(utf8.length).array());
                bytes.writeBytes(utf8);
            }
        }
        byte[] digest = java.security.MessageDigest.getInstance("SHA-256").digest(bytes.toByteArray());

        assertThat(GradientContract.manifestSha256Of(expected))
                .isEqualTo("sha256:" + java.util.HexFormat.of().formatHex(digest));
    }
}
