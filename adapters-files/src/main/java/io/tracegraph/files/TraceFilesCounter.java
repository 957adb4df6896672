package io.tracegraph.files;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/** Charges every byte read or skipped through it to a budget, so that the budget's limit holds. */
final class TraceFilesCounter extends FilterInputStream {
    /** Skips go in steps of this size, so a limit is noticed before a huge skip has finished. */
    private static final long SKIP_STEP = 1 << 16;

    private final TraceFilesBudget budget;

    TraceFilesCounter(InputStream in, TraceFilesBudget budget) {
        super(in);
        this.budget = budget;
    }

    @Override
    public int read() throws IOException {
        int b = in.read();
        if (b >= 0) {
            budget.charge(1);
        }
        return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        int n = in.read(b, off, len);
        if (n > 0) {
            budget.charge(n);
        }
        return n;
    }

    @Override
    public long skip(long n) throws IOException {
        long skipped = in.skip(Math.min(n, SKIP_STEP));
        if (skipped > 0) {
            budget.charge(skipped);
        }
        return skipped;
    }

    @Override
    public boolean markSupported() {
        return false;
    }
}
