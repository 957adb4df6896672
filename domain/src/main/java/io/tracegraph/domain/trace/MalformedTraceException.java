package io.tracegraph.domain.trace;

/** Raised by trace readers and the assembler when a trace cannot be read; carries the problem. */
public final class MalformedTraceException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final transient TraceProblem problem;

    public MalformedTraceException(TraceProblem problem) {
        super(problem.render(), null, false, false);
        this.problem = problem;
    }

    public TraceProblem problem() {
        return problem;
    }
}
