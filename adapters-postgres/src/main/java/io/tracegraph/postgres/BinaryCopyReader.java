package io.tracegraph.postgres;

import java.io.ByteArrayOutputStream;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Arrays;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyOut;

/**
 * Reads the rows of a {@code COPY (...) TO STDOUT (FORMAT binary)} field by field: the reading
 * counterpart of {@link CopyRows}, for the few reads that move so many rows that the text
 * protocol's decoding dominates. The whole output is received first (a few MB at most for the
 * reads that use it), then decoded from memory; the caller reads each row's fields in the query's
 * column order.
 */
final class BinaryCopyReader {
    private static final byte[] SIGNATURE = {'P', 'G', 'C', 'O', 'P', 'Y', '\n', (byte) 0xFF, '\r', '\n', 0};
    /** The node kinds, decoded once: a run has tens of thousands of rows naming one of them. */
    private static final String[] KINDS = {"root", "function", "module", "op", "other"};
    private static final byte[][] KIND_BYTES = Arrays.stream(KINDS)
            .map(k -> k.getBytes(StandardCharsets.US_ASCII)).toArray(byte[][]::new);

    private final ByteBuffer data;
    private int fieldsLeft;

    private BinaryCopyReader(ByteBuffer data) {
        this.data = data;
    }

    /** Runs {@code copyQuery} on {@code connection} and receives its whole output. */
    static BinaryCopyReader read(Connection connection, String copyQuery) throws SQLException {
        CopyOut copy = connection.unwrap(PGConnection.class).getCopyAPI().copyOut(copyQuery);
        ByteArrayOutputStream received = new ByteArrayOutputStream(1 << 16);
        try {
            for (byte[] chunk = copy.readFromCopy(); chunk != null; chunk = copy.readFromCopy()) {
                received.write(chunk, 0, chunk.length);
            }
        } finally {
            if (copy.isActive()) {
                copy.cancelCopy();
            }
        }
        BinaryCopyReader reader = new BinaryCopyReader(ByteBuffer.wrap(received.toByteArray()));
        reader.readHeader();
        return reader;
    }

    private void readHeader() throws SQLException {
        try {
            byte[] signature = new byte[SIGNATURE.length];
            data.get(signature);
            if (!Arrays.equals(signature, SIGNATURE)) {
                throw new SQLException("not a binary COPY stream");
            }
            data.getInt();
            int extension = data.getInt();
            data.position(data.position() + extension);
        } catch (BufferUnderflowException | IllegalArgumentException e) {
            throw new SQLException("the COPY stream ends in its header", e);
        }
    }

    /** Moves to the next row; false at the end of the data. */
    boolean nextRow() throws SQLException {
        if (fieldsLeft != 0) {
            throw new IllegalStateException(fieldsLeft + " fields of the row were not read");
        }
        if (data.remaining() < 2) {
            return false;
        }
        short fields = data.getShort();
        if (fields == -1) {
            return false;
        }
        fieldsLeft = fields;
        return true;
    }

    /** The next field, a non-null {@code bigint}. */
    long int8() throws SQLException {
        int length = field();
        if (length != 8) {
            throw new SQLException("unexpected field length " + length + " in the COPY stream, expected 8");
        }
        return data.getLong();
    }

    /** The next field, a {@code text} (null when SQL NULL). */
    String text() throws SQLException {
        int length = field();
        if (length < 0) {
            return null;
        }
        String text = new String(data.array(), data.position(), length, StandardCharsets.UTF_8);
        data.position(data.position() + length);
        return text;
    }

    /** The next field, a node kind: the shared string when it is one of the known kinds. */
    String kind() throws SQLException {
        int length = field();
        if (length < 0) {
            return null;
        }
        int at = data.position();
        for (int k = 0; k < KINDS.length; k++) {
            if (KIND_BYTES[k].length == length
                    && Arrays.equals(data.array(), at, at + length, KIND_BYTES[k], 0, length)) {
                data.position(at + length);
                return KINDS[k];
            }
        }
        String text = new String(data.array(), at, length, StandardCharsets.UTF_8);
        data.position(at + length);
        return text;
    }

    private int field() throws SQLException {
        if (fieldsLeft-- <= 0) {
            throw new IllegalStateException("no field left in the row");
        }
        if (data.remaining() < 4) {
            throw new SQLException("the COPY stream ends inside a row");
        }
        int length = data.getInt();
        if (length > data.remaining()) {
            throw new SQLException("the COPY stream ends inside a field");
        }
        return length;
    }
}
