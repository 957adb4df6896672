package io.tracegraph.files;

import java.io.IOException;
import java.io.InputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;

/**
 * A tar stream whose headers are bounded: commons-compress keeps a PAX record or a GNU long name
 * in memory whole and follows a chain of PAX headers by recursion, so a few hundred kilobytes of
 * gzip could otherwise ask for gigabytes of heap or a very deep stack. Everything read while
 * finding the next entry (header records, PAX data, long names, sparse maps; not the rest of the
 * previous entry) counts; past {@link #MAX_HEADER_BYTES}, or past {@link #MAX_CHAINED_HEADERS}
 * headers before one entry, the tar is refused.
 */
final class TraceFilesTarStream extends TarArchiveInputStream {
    static final int MAX_HEADER_BYTES = 1 << 20;
    static final int MAX_CHAINED_HEADERS = 32;

    private boolean findingNext;
    private TarArchiveEntry previous;
    private long headerBytes;
    private int chained;

    TraceFilesTarStream(InputStream in) {
        super(in);
    }

    @Override
    public TarArchiveEntry getNextEntry() throws IOException {
        if (findingNext) { // the library's own recursion after a PAX header or a long name
            if (++chained > MAX_CHAINED_HEADERS) {
                throw new IOException("tar entry with more than " + MAX_CHAINED_HEADERS + " chained headers");
            }
            return super.getNextEntry();
        }
        previous = getCurrentEntry();
        headerBytes = 0;
        chained = 0;
        findingNext = true;
        try {
            return super.getNextEntry();
        } finally {
            findingNext = false;
        }
    }

    @Override
    protected byte[] readRecord() throws IOException {
        byte[] record = super.readRecord();
        if (findingNext && record != null) {
            charge(record.length);
        }
        return record;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
        int n = super.read(buffer, offset, length);
        if (findingNext && n > 0 && getCurrentEntry() != previous) {
            charge(n);
        }
        return n;
    }

    private void charge(long bytes) throws IOException {
        headerBytes += bytes;
        if (headerBytes > MAX_HEADER_BYTES) {
            throw new IOException("tar headers of one entry larger than " + MAX_HEADER_BYTES + " bytes");
        }
    }
}
