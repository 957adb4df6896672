package io.tracegraph.domain.health;

import io.tracegraph.domain.trace.CaptureContract;
import io.tracegraph.domain.trace.CodePointOrder;
import io.tracegraph.domain.trace.CoverageLevel;
import io.tracegraph.domain.trace.ExpectedGradient;
import io.tracegraph.domain.trace.GradientContract;
import io.tracegraph.domain.trace.GradientEvent;
import io.tracegraph.domain.trace.GradientFamily;
import io.tracegraph.domain.trace.GradientState;
import io.tracegraph.domain.trace.RustText;
import io.tracegraph.domain.trace.TraceDocument;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The gradient checks of trace/9 and later (candle-graph {@code validate_gradient_manifest}): each
 * gradient fact's own invariants (ids, a norm that agrees with the state), then, when the capture
 * contract declares complete gradient coverage, the exact manifest and its family expectations.
 */
final class GradientManifestCheck {
    private record Key(String root, String key) {
        static final Comparator<Key> ORDER = Comparator.comparing(Key::root, CodePointOrder.COMPARATOR)
                .thenComparing(Key::key, CodePointOrder.COMPARATOR);

        String debug() {
            return "(" + RustText.debugQuote(root) + ", " + RustText.debugQuote(key) + ")";
        }
    }

    private GradientManifestCheck() {
    }

    /** Whether a norm is the one encoding of a state: present > 0 finite, zero = +0.0, else none. */
    static boolean normAgrees(GradientState state, Double norm) {
        switch (state) {
            case PRESENT:
                return norm != null && Double.isFinite(norm) && norm > 0;
            case ZERO:
                return norm != null && norm == 0.0 && Double.doubleToRawLongBits(norm) == 0L;
            default:
                return norm == null;
        }
    }

    /** What was observed of one (root, key): how many facts, the first, whether the manifest has it. */
    private static final class Observed {
        int count;
        GradientEvent first;
        boolean expected;
    }

    /** The facts of one family's manifest entries. */
    private static final class FamilyFacts {
        long members;
        long captured;
        long present;
        long attached;
        long nonFinite;
    }

    static void check(TraceDocument doc, boolean failed, List<HealthIssue> issues) {
        List<GradientEvent> gradients = doc.gradients();
        checkFacts(gradients, issues);

        CaptureContract capture = doc.run().captureContract();
        boolean complete = capture != null && capture.gradients() == CoverageLevel.COMPLETE;
        GradientContract contract = capture == null ? null : capture.gradientContract();
        if (complete && contract == null) {
            error(issues, "gradient_contract_missing",
                    "complete gradient coverage requires an exact gradient contract");
            return;
        }
        if (contract == null) {
            return;
        }
        if (!complete) {
            error(issues, "gradient_contract_without_complete_coverage",
                    "an exact gradient contract requires complete declared gradient coverage");
            return;
        }
        Optional<String> problem = contract.problem();
        if (problem.isPresent()) {
            error(issues, "gradient_contract_invalid", problem.get());
            return;
        }

        Map<String, FamilyFacts> families = countInManifestOrder(gradients, contract.expected());
        if (families == null) {
            families = new HashMap<>();
            walkManifest(gradients, contract, failed, families, issues);
        }

        for (GradientFamily family : contract.families()) {
            FamilyFacts facts = families.getOrDefault(family.family(), new FamilyFacts());
            boolean familyComplete = facts.captured == facts.members;
            String name = RustText.debugQuote(family.family());
            if (facts.nonFinite > 0) {
                error(issues, "gradient_family_non_finite",
                        "gradient family " + name + " contains " + facts.nonFinite + " non-finite gradients");
            }
            boolean judged = !failed || familyComplete;
            switch (family.expectation()) {
                case ACTIVE:
                    if (judged && facts.present < family.minPresent()) {
                        error(issues, "gradient_active_family_below_minimum", "active gradient family " + name
                                + " has " + facts.present + " present gradients; requires at least "
                                + family.minPresent());
                    }
                    break;
                case INACTIVE:
                    if (facts.attached > 0) {
                        error(issues, "gradient_inactive_family_leakage",
                                "inactive gradient family " + name + " has " + facts.attached + " attached gradients");
                    }
                    break;
                default:
                    if (judged && facts.present > 0 && facts.present < family.minPresent()) {
                        error(issues, "gradient_conditional_family_below_minimum", "data-conditional gradient family "
                                + name + " was attached but has " + facts.present
                                + " present gradients; requires at least " + family.minPresent());
                    }
            }
        }
    }

    /**
     * Each gradient fact's own invariants: ids, a unique event id, a norm that agrees with the
     * state. A method of its own, so that C2 compiles this walk without the whole check around it.
     */
    private static void checkFacts(List<GradientEvent> gradients, List<HealthIssue> issues) {
        Set<String> eventIds = new HashSet<>(gradients.size() * 2);
        for (GradientEvent gradient : gradients) {
            if (RustText.isBlank(gradient.eventId())) {
                error(issues, "empty_gradient_event_id", "gradient event IDs must not be empty");
            }
            if (RustText.isBlank(gradient.root()) || RustText.isBlank(gradient.key())) {
                error(issues, "empty_gradient_parameter_key", "gradient roots and parameter keys must not be empty");
            }
            if (!eventIds.add(gradient.eventId())) {
                error(issues, "duplicate_gradient_event_id", "gradient event ID "
                        + RustText.debugQuote(gradient.eventId()) + " occurs more than once");
            }
            if (!normAgrees(gradient.state(), gradient.norm())) {
                error(issues, "gradient_state_norm_inconsistent", "gradient "
                        + new Key(gradient.root(), gradient.key()).debug() + " state `"
                        + gradient.state().name().toLowerCase(Locale.ROOT) + "` is inconsistent with norm "
                        + RustText.debugOption(gradient.norm()));
            }
        }
    }

    /**
     * The family facts when the gradient facts name the manifest's parameters one for one, in its
     * order (as candle-graph writes them), else {@code null}. The manifest's keys are distinct
     * (checked before), so then every observed key occurs once and is expected, and nothing is
     * missing: only the family facts are left, counted in the same walk.
     */
    private static Map<String, FamilyFacts> countInManifestOrder(List<GradientEvent> gradients,
            List<ExpectedGradient> expected) {
        if (gradients.size() != expected.size()) {
            return null;
        }
        Map<String, FamilyFacts> families = new HashMap<>();
        String lastFamily = null;
        FamilyFacts facts = null;
        for (int i = 0; i < expected.size(); i++) {
            GradientEvent gradient = gradients.get(i);
            ExpectedGradient parameter = expected.get(i);
            if (!gradient.key().equals(parameter.key()) || !gradient.root().equals(parameter.root())) {
                return null;
            }
            String family = parameter.family();
            if (!family.equals(lastFamily)) {
                lastFamily = family;
                facts = families.computeIfAbsent(family, f -> new FamilyFacts());
            }
            count(facts, gradient.state());
        }
        return families;
    }

    private static void count(FamilyFacts facts, GradientState state) {
        facts.members++;
        facts.captured++;
        facts.present += state == GradientState.PRESENT ? 1 : 0;
        facts.attached += state != GradientState.MISSING ? 1 : 0;
        facts.nonFinite += state == GradientState.NON_FINITE ? 1 : 0;
    }

    /**
     * The general case: what was observed of each (root, key), then one walk of the manifest that
     * marks what was observed, notes what was not and counts per family; the keys at fault reported
     * in (root, key) order, then the ones never captured in manifest order.
     */
    private static void walkManifest(List<GradientEvent> gradients, GradientContract contract, boolean failed,
            Map<String, FamilyFacts> families, List<HealthIssue> issues) {
        Map<Key, Observed> observed = new HashMap<>(gradients.size() * 2);
        for (GradientEvent gradient : gradients) {
            Observed seen = observed.computeIfAbsent(new Key(gradient.root(), gradient.key()), k -> new Observed());
            if (seen.count++ == 0) {
                seen.first = gradient;
            }
        }
        List<Key> notCaptured = new ArrayList<>();
        for (ExpectedGradient parameter : contract.expected()) {
            Key key = new Key(parameter.root(), parameter.key());
            FamilyFacts facts = families.computeIfAbsent(parameter.family(), f -> new FamilyFacts());
            Observed seen = observed.get(key);
            if (seen == null) {
                facts.members++;
                notCaptured.add(key);
                continue;
            }
            seen.expected = true;
            count(facts, seen.first.state());
        }
        // The original walks every observed key in (root, key) order; only the keys at fault need sorting.
        List<Key> faulty = new ArrayList<>();
        observed.forEach((key, seen) -> {
            if (seen.count != 1 || !seen.expected) {
                faulty.add(key);
            }
        });
        faulty.sort(Key.ORDER);
        for (Key key : faulty) {
            Observed seen = observed.get(key);
            if (seen.count != 1) {
                error(issues, "gradient_manifest_duplicate_key", "gradient " + key.debug() + " occurs " + seen.count
                        + " times; expected exactly once");
            }
            if (!seen.expected) {
                error(issues, "gradient_manifest_undeclared_key",
                        "gradient " + key.debug() + " is absent from the manifest");
            }
        }
        for (Key key : notCaptured) {
            issues.add(new HealthIssue(failed ? HealthSeverity.WARNING : HealthSeverity.ERROR,
                    "gradient_manifest_missing_key", "manifest gradient " + key.debug() + " was not captured"));
        }
    }

    private static void error(List<HealthIssue> issues, String code, String message) {
        issues.add(new HealthIssue(HealthSeverity.ERROR, code, message));
    }
}
