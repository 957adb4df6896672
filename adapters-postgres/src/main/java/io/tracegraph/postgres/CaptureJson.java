package io.tracegraph.postgres;

import io.tracegraph.domain.trace.CaptureContract;
import io.tracegraph.domain.trace.ComparisonIdentity;
import io.tracegraph.domain.trace.ExpectedGradient;
import io.tracegraph.domain.trace.GradientContract;
import io.tracegraph.domain.trace.GradientFamily;
import java.util.List;
import java.util.Map;

/**
 * The jsonb of {@code runs.comparison_identity} and {@code runs.capture_contract} (V6): the members
 * as the trace's meta record names them, numbers as numbers, enums in their wire spelling (lower
 * case). The contract keeps its gradient manifest whole ({@code gradient_contract.expected}: root,
 * key, family; {@code families}: family, expectation, min_present), so that the stored graph is the
 * one {@code build} gives. {@link JdbiStoredGraphs} reads them back member by member in SQL.
 */
final class CaptureJson {
    private CaptureJson() {
    }

    static String identity(ComparisonIdentity identity) {
        StringBuilder json = new StringBuilder("{");
        for (Map.Entry<String, String> member : identity.members().entrySet()) {
            if (json.length() > 1) {
                json.append(',');
            }
            json.append(Json.string(member.getKey())).append(':');
            boolean number = member.getKey().equals("physical_batch") || member.getKey().equals("accumulation_steps");
            json.append(number ? member.getValue() : Json.string(member.getValue()));
        }
        return json.append('}').toString();
    }

    static String contract(CaptureContract c) {
        StringBuilder json = new StringBuilder("{");
        json.append("\"measurement_scope\":").append(Json.string(RunPacks.wire(c.measurementScope())));
        json.append(",\"operations\":").append(Json.string(RunPacks.wire(c.operations())));
        json.append(",\"tensors\":").append(Json.string(RunPacks.wire(c.tensors())));
        json.append(",\"gradients\":").append(Json.string(RunPacks.wire(c.gradients())));
        json.append(",\"logical_memory\":").append(Json.string(RunPacks.wire(c.logicalMemory())));
        json.append(",\"physical_memory\":").append(Json.string(RunPacks.wire(c.physicalMemory())));
        json.append(",\"device_timing\":").append(Json.string(RunPacks.wire(c.deviceTiming())));
        labels(json, "required_semantic_labels", c.requiredSemanticLabels());
        labels(json, "gpu_expected_semantic_labels", c.gpuExpectedSemanticLabels());
        labels(json, "cpu_only_semantic_labels", c.cpuOnlySemanticLabels());
        GradientContract g = c.gradientContract();
        if (g != null) {
            json.append(",\"gradient_contract\":{\"manifest_sha256\":").append(Json.string(g.manifestSha256()))
                    .append(",\"expected\":[");
            List<ExpectedGradient> expected = g.expected();
            for (int i = 0; i < expected.size(); i++) {
                ExpectedGradient e = expected.get(i);
                json.append(i > 0 ? "," : "").append(Json.object(new Object[][] {
                    {"root", e.root()}, {"key", e.key()}, {"family", e.family()}}));
            }
            json.append("],\"families\":[");
            List<GradientFamily> families = g.families();
            for (int i = 0; i < families.size(); i++) {
                GradientFamily f = families.get(i);
                json.append(i > 0 ? "," : "").append(Json.object(new Object[][] {
                    {"family", f.family()}, {"expectation", RunPacks.wire(f.expectation())},
                    {"min_present", f.minPresent()}}));
            }
            json.append("]}");
        }
        return json.append('}').toString();
    }

    private static void labels(StringBuilder json, String name, List<String> labels) {
        json.append(',').append(Json.string(name)).append(":[");
        for (int i = 0; i < labels.size(); i++) {
            json.append(i > 0 ? "," : "").append(Json.string(labels.get(i)));
        }
        json.append(']');
    }
}
