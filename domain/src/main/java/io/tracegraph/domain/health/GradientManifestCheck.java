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
import java.util.TreeMap;

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

    static void check(TraceDocument doc, boolean failed, List<HealthIssue> issues) {
        Set<String> eventIds = new HashSet<>();
        Map<Key, Integer> observed = new TreeMap<>(Key.ORDER);
        Map<Key, GradientEvent> firstByKey = new HashMap<>();
        for (GradientEvent gradient : doc.gradients()) {
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
            Key key = new Key(gradient.root(), gradient.key());
            observed.merge(key, 1, Integer::sum);
            firstByKey.putIfAbsent(key, gradient);
            if (!normAgrees(gradient.state(), gradient.norm())) {
                error(issues, "gradient_state_norm_inconsistent", "gradient " + key.debug() + " state `"
                        + gradient.state().name().toLowerCase(Locale.ROOT) + "` is inconsistent with norm "
                        + RustText.debugOption(gradient.norm()));
            }
        }

        CaptureContract capture = doc.run().captureContract();
        boolean complete = capture != null && capture.gradients() == CoverageLevel.COMPLETE;
        GradientContract contract = capture == null ? null : capture.gradientContract();
        if (complete && contract == null) {
            error(issues, "gradient_contract_missing", "complete gradient coverage requires an exact gradient contract");
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

        Set<Key> expected = new HashSet<>();
        Map<String, List<Key>> byFamily = new HashMap<>();
        for (ExpectedGradient parameter : contract.expected()) {
            Key key = new Key(parameter.root(), parameter.key());
            expected.add(key);
            byFamily.computeIfAbsent(parameter.family(), f -> new ArrayList<>()).add(key);
        }
        observed.forEach((key, count) -> {
            if (count != 1) {
                error(issues, "gradient_manifest_duplicate_key", "gradient " + key.debug() + " occurs " + count
                        + " times; expected exactly once");
            }
            if (!expected.contains(key)) {
                error(issues, "gradient_manifest_undeclared_key", "gradient " + key.debug() + " is absent from the manifest");
            }
        });
        for (ExpectedGradient parameter : contract.expected()) {
            Key key = new Key(parameter.root(), parameter.key());
            if (!observed.containsKey(key)) {
                String message = "manifest gradient " + key.debug() + " was not captured";
                issues.add(new HealthIssue(failed ? HealthSeverity.WARNING : HealthSeverity.ERROR,
                        "gradient_manifest_missing_key", message));
            }
        }

        for (GradientFamily family : contract.families()) {
            List<Key> keys = byFamily.getOrDefault(family.family(), List.of());
            long captured = 0;
            long present = 0;
            long attached = 0;
            long nonFinite = 0;
            for (Key key : keys) {
                GradientEvent event = firstByKey.get(key);
                if (event == null) {
                    continue;
                }
                captured++;
                present += event.state() == GradientState.PRESENT ? 1 : 0;
                attached += event.state() != GradientState.MISSING ? 1 : 0;
                nonFinite += event.state() == GradientState.NON_FINITE ? 1 : 0;
            }
            boolean familyComplete = captured == keys.size();
            String name = RustText.debugQuote(family.family());
            if (nonFinite > 0) {
                error(issues, "gradient_family_non_finite", "gradient family " + name + " contains " + nonFinite
                        + " non-finite gradients");
            }
            boolean judged = !failed || familyComplete;
            switch (family.expectation()) {
                case ACTIVE:
                    if (judged && present < family.minPresent()) {
                        error(issues, "gradient_active_family_below_minimum", "active gradient family " + name + " has "
                                + present + " present gradients; requires at least " + family.minPresent());
                    }
                    break;
                case INACTIVE:
                    if (attached > 0) {
                        error(issues, "gradient_inactive_family_leakage", "inactive gradient family " + name + " has "
                                + attached + " attached gradients");
                    }
                    break;
                default:
                    if (judged && present > 0 && present < family.minPresent()) {
                        error(issues, "gradient_conditional_family_below_minimum", "data-conditional gradient family "
                                + name + " was attached but has " + present + " present gradients; requires at least "
                                + family.minPresent());
                    }
            }
        }
    }

    private static void error(List<HealthIssue> issues, String code, String message) {
        issues.add(new HealthIssue(HealthSeverity.ERROR, code, message));
    }
}
