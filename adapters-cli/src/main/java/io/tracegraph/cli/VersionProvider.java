package io.tracegraph.cli;

import picocli.CommandLine;

/** Reports the version from the jar manifest. */
final class VersionProvider implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
        String version = Main.class.getPackage().getImplementationVersion();
        return new String[] {"tracegraph " + (version == null ? "(development build)" : version),
            "reads candle-graph/trace/6 to /10 (bundle/1, campaign/1) and PyTorch profiler traces",
            "writes candle-graph/graph/3"};
    }
}
