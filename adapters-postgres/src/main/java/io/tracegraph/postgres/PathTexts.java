package io.tracegraph.postgres;

import static io.tracegraph.postgres.Reads.gone;

import io.tracegraph.domain.run.RunRef;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jdbi.v3.core.Handle;

/**
 * Path texts by path hash, from one run's paths in path order: a hash always names the same text.
 * The runs of one model have mostly the same paths in the same order, so a run's hashes are first
 * matched position by position, then by hash; the texts still unknown are probed in the store.
 */
final class PathTexts {
    private final long[] hashes;
    private final String[] texts;
    private final Map<Long, String> probed = new ConcurrentHashMap<>();
    private volatile Map<Long, String> byHash;

    private PathTexts(long[] hashes, String[] texts) {
        this.hashes = hashes;
        this.texts = texts;
    }

    /** A run's path texts in path order (V5 {@code path_packs}), as one array. */
    static String[] read(Handle h, RunRef run) throws SQLException {
        BinaryCopyReader copy = BinaryCopyReader.read(h.getConnection(), "COPY (SELECT texts FROM path_packs "
                + "WHERE run_key = " + run.key() + ") TO STDOUT (FORMAT binary)");
        return copy.nextRow() ? copy.textArray() : new String[0];
    }

    /** The texts of {@code run}'s paths, read apart from their hashes (in another transaction). */
    static PathTexts of(RunRef run, long[] hashes, String[] texts) {
        if (hashes.length != texts.length) {
            // A run's rows never change: it was deleted in between.
            throw gone(run);
        }
        return new PathTexts(hashes, texts);
    }

    /** The texts of the paths whose hashes are {@code wanted}, in their order; null where not known. */
    String[] known(long[] wanted) {
        if (wanted == hashes) {
            // The paths of the run the texts were read for (shared, as they are by the runs alike).
            return texts;
        }
        String[] found = new String[wanted.length];
        for (int i = 0; i < wanted.length; i++) {
            long hash = wanted[i];
            found[i] = i < hashes.length && hashes[i] == hash ? texts[i] : byHash().get(hash);
            if (found[i] == null) {
                found[i] = probed.get(hash);
            }
        }
        return found;
    }

    /** Fills in the texts {@link #known} left null, from {@code run}'s paths in the store. */
    void probe(Handle h, RunRef run, long[] wanted, String[] found) {
        boolean unknown = false;
        for (String text : found) {
            unknown |= text == null;
        }
        if (!unknown) {
            return;
        }
        // The run's texts whole, beside their hashes: one packed row, however many are unknown.
        try {
            BinaryCopyReader copy = BinaryCopyReader.read(h.getConnection(), "COPY (SELECT hashes, texts "
                    + "FROM path_packs WHERE run_key = " + run.key() + ") TO STDOUT (FORMAT binary)");
            if (copy.nextRow()) {
                long[] hashes = copy.int8Array();
                String[] texts = copy.textArray();
                for (int i = 0; i < hashes.length && i < texts.length; i++) {
                    probed.putIfAbsent(hashes[i], texts[i]);
                }
            }
        } catch (SQLException e) {
            throw DatabaseException.wrap(e);
        }
        for (int i = 0; i < found.length; i++) {
            if (found[i] == null) {
                found[i] = probed.get(wanted[i]);
                if (found[i] == null) {
                    throw gone(run);
                }
            }
        }
    }

    private Map<Long, String> byHash() {
        Map<Long, String> map = byHash;
        if (map == null) {
            map = new HashMap<>(hashes.length * 2);
            for (int i = 0; i < hashes.length; i++) {
                map.put(hashes[i], texts[i]);
            }
            byHash = map;
        }
        return map;
    }
}
