package io.tracegraph.cli;

import io.tracegraph.application.ImportProgress;
import io.tracegraph.domain.run.ImportOutcome;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * Shows an import's progress on standard error: a progress bar on a terminal, otherwise a plain
 * line every few seconds (and none at all for imports that finish sooner).
 */
final class ProgressDisplay implements ImportProgress, AutoCloseable {
    private static final long LINE_EVERY_NANOS = 5_000_000_000L;

    private final ProgressBar bar;
    private final PrintWriter err;
    private final AtomicLong traces = new AtomicLong();
    private final AtomicLong rejected = new AtomicLong();
    private final AtomicLong bytes = new AtomicLong();
    private final long started = System.nanoTime();
    private volatile long lastLine = System.nanoTime();

    private ProgressDisplay(ProgressBar bar, PrintWriter err) {
        this.bar = bar;
        this.err = err;
    }

    static ProgressDisplay start(CliIo io) {
        if (io.terminal()) {
            ProgressBar bar = new ProgressBarBuilder().setTaskName("import").setInitialMax(-1)
                    .setStyle(ProgressBarStyle.ASCII).setUnit(" traces", 1).continuousUpdate()
                    .setConsumer(new me.tongfei.progressbar.InteractiveConsoleProgressBarConsumer(System.err))
                    .build();
            return new ProgressDisplay(bar, io.err());
        }
        return new ProgressDisplay(null, io.err());
    }

    @Override
    public void done(String name, ImportOutcome outcome, long size) {
        long n = traces.incrementAndGet();
        if (outcome == ImportOutcome.REJECTED) {
            rejected.incrementAndGet();
        }
        long total = bytes.addAndGet(size);
        if (bar != null) {
            bar.stepTo(n);
            bar.setExtraMessage(String.format(Locale.ROOT, " %.1f MB, %d rejected", total / 1e6, rejected.get()));
            return;
        }
        long now = System.nanoTime();
        if (now - lastLine >= LINE_EVERY_NANOS) {
            lastLine = now;
            synchronized (err) {
                err.printf(Locale.ROOT, "import: %d traces (%d rejected), %.1f MB, %.0f s%n", n, rejected.get(), total / 1e6,
                        (now - started) / 1e9);
                err.flush();
            }
        }
    }

    @Override
    public void close() {
        if (bar != null) {
            bar.close();
        }
    }
}
