package io.tracegraph.files;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * Remembers the first failure of the stream below, so the walker can tell a failing input from a
 * failing visitor; keeps the stream below open when closed (it belongs to an archive or to the
 * walker); and refuses reads once {@link #expire() expired}.
 */
final class TraceFilesGuard extends FilterInputStream {
    private IOException failure;
    private boolean expired;

    TraceFilesGuard(InputStream in) {
        super(in);
    }

    /** The first exception a read or skip threw, or null. */
    IOException failure() {
        return failure;
    }

    /** Makes every later read fail: the stream was lent for one visit only. */
    void expire() {
        expired = true;
    }

    @Override
    public int read() throws IOException {
        check();
        try {
            return in.read();
        } catch (IOException | RuntimeException e) {
            throw fail(e);
        }
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        check();
        try {
            return in.read(b, off, len);
        } catch (IOException | RuntimeException e) {
            throw fail(e);
        }
    }

    @Override
    public long skip(long n) throws IOException {
        check();
        try {
            return in.skip(n);
        } catch (IOException | RuntimeException e) {
            throw fail(e);
        }
    }

    @Override
    public int available() throws IOException {
        check();
        try {
            return in.available();
        } catch (IOException | RuntimeException e) {
            throw fail(e);
        }
    }

    @Override
    public boolean markSupported() {
        return false;
    }

    @Override
    public void close() {
        // The stream below is closed by its owner.
    }

    private void check() throws IOException {
        if (expired) {
            throw new IOException("trace stream used after Visitor.trace returned");
        }
        if (failure != null) {
            throw failure;
        }
    }

    /** A library that meets corrupt data may throw a runtime exception; it is a failure of the input all the same. */
    private IOException fail(Exception e) {
        if (failure == null) {
            failure = e instanceof IOException io ? io
                    : new IOException("corrupt data (" + e.getClass().getSimpleName() + ")", e);
        }
        return failure;
    }
}
