package io.tracegraph.domain.trace;

import java.util.List;
import java.util.Objects;

/**
 * What a capture promised to record, declared by its producer before capturing (candle-graph
 * trace/7 {@code meta.capture_contract}): the measurement scope, a coverage level per kind of
 * evidence, the semantic labels (span names) that must each occur exactly once, and from trace/9
 * an exact gradient contract. Absent ({@code null} on {@link RunMeta}) for trace/6.
 *
 * @param gradientContract the exact gradient manifest, or {@code null} (trace/9 and later)
 * @param gpuExpectedSemanticLabels required labels expected on the GPU (trace/10; empty when not declared)
 * @param cpuOnlySemanticLabels required labels that run on the CPU only (trace/10; empty when not declared)
 */
public record CaptureContract(
        MeasurementScope measurementScope,
        CoverageLevel operations,
        CoverageLevel tensors,
        CoverageLevel gradients,
        GradientContract gradientContract,
        CoverageLevel logicalMemory,
        CoverageLevel physicalMemory,
        CoverageLevel deviceTiming,
        List<String> requiredSemanticLabels,
        List<String> gpuExpectedSemanticLabels,
        List<String> cpuOnlySemanticLabels) {

    /** The contract of a producer that declares nothing: unknown scope, no coverage, no labels. */
    public static final CaptureContract NOTHING_DECLARED = new CaptureContract(MeasurementScope.UNKNOWN,
            CoverageLevel.NONE, CoverageLevel.NONE, CoverageLevel.NONE, null, CoverageLevel.NONE, CoverageLevel.NONE,
            CoverageLevel.NONE, List.of(), List.of(), List.of());

    public CaptureContract {
        Objects.requireNonNull(measurementScope, "measurementScope");
        Objects.requireNonNull(operations, "operations");
        Objects.requireNonNull(tensors, "tensors");
        Objects.requireNonNull(gradients, "gradients");
        Objects.requireNonNull(logicalMemory, "logicalMemory");
        Objects.requireNonNull(physicalMemory, "physicalMemory");
        Objects.requireNonNull(deviceTiming, "deviceTiming");
        requiredSemanticLabels = List.copyOf(requiredSemanticLabels);
        gpuExpectedSemanticLabels = List.copyOf(gpuExpectedSemanticLabels);
        cpuOnlySemanticLabels = List.copyOf(cpuOnlySemanticLabels);
    }
}
