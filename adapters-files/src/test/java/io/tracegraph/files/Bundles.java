package io.tracegraph.files;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPOutputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.apache.commons.compress.archivers.zip.ZipArchiveEntry;
import org.apache.commons.compress.archivers.zip.ZipArchiveOutputStream;

/**
 * candle-graph bundles and campaigns made for tests, laid out as its {@code publish_bundle} does:
 * {@code trace.jsonl}, {@code evidence.json}, {@code report.md}, {@code viewer.html}, {@code nsight/...},
 * and {@code bundle.json} listing every other file with its size and SHA-256 (lower-case hex).
 */
public final class Bundles {
    private Bundles() {
    }

    /** A bundle's files (bundle.json not among them), by path, in order. */
    public static final class Bundle {
        public final String runId;
        public final Map<String, byte[]> files = new LinkedHashMap<>();
        /** Files put into the bundle but left out of its bundle.json. */
        final Map<String, byte[]> unlisted = new LinkedHashMap<>();
        String manifestOverride;
        public boolean upperCaseHashes;

        public Bundle(String runId) {
            this.runId = runId;
        }

        /** The usual bundle: a trace and the files candle-graph derives from it. */
        public static Bundle of(String runId, String trace) {
            Bundle b = new Bundle(runId);
            b.files.put("trace.jsonl", trace.getBytes(UTF_8));
            b.files.put("evidence.json", ("{\"schema\":\"candle-graph/evidence/4\",\"provenance\":{\"run_id\":\""
                    + runId + "\"}}\n").getBytes(UTF_8));
            b.files.put("nsight/capture.nsys-rep", "retained raw capture".getBytes(UTF_8));
            b.files.put("nsight/capture-manifest.json", "{\"schema\":\"candle-graph/nsight-capture/1\"}".getBytes(UTF_8));
            b.files.put("report.md", "# candle-graph evidence\n".getBytes(UTF_8));
            b.files.put("viewer.html", "<!doctype html><title>viewer</title>".getBytes(UTF_8));
            return b;
        }

        public Bundle with(String path, byte[] data) {
            files.put(path, data);
            return this;
        }

        public Bundle without(String path) {
            files.remove(path);
            return this;
        }

        /** A file present in the bundle but not listed in its bundle.json. */
        public Bundle unlisted(String path, String text) {
            unlisted.put(path, text.getBytes(UTF_8));
            return this;
        }

        public Bundle manifest(String json) {
            manifestOverride = json;
            return this;
        }

        /** bundle.json as candle-graph writes it (pretty, files sorted by path). */
        public byte[] manifest() {
            if (manifestOverride != null) {
                return manifestOverride.getBytes(UTF_8);
            }
            StringBuilder json = new StringBuilder("{\n  \"schema\": \"candle-graph/bundle/1\",\n  \"run_id\": \"")
                    .append(runId).append("\",\n  \"files\": [");
            List<String> paths = new ArrayList<>(files.keySet());
            paths.sort(null);
            for (int i = 0; i < paths.size(); i++) {
                byte[] data = files.get(paths.get(i));
                String sha = sha256(data);
                json.append(i == 0 ? "\n" : ",\n").append("    {\n      \"path\": \"").append(paths.get(i))
                        .append("\",\n      \"bytes\": ").append(data.length).append(",\n      \"sha256\": \"")
                        .append(upperCaseHashes ? sha.toUpperCase(java.util.Locale.ROOT) : sha).append("\"\n    }");
            }
            return json.append("\n  ]\n}\n").toString().getBytes(UTF_8);
        }

        /** Every file as it lies in the bundle: bundle.json last, as a streamed tar may give it. */
        public Map<String, byte[]> entries(boolean manifestFirst) {
            Map<String, byte[]> all = new LinkedHashMap<>();
            if (manifestFirst) {
                all.put("bundle.json", manifest());
            }
            all.putAll(files);
            all.putAll(unlisted);
            if (!manifestFirst) {
                all.put("bundle.json", manifest());
            }
            return all;
        }

        /** Writes the bundle as a directory. */
        public Path writeTo(Path directory) throws IOException {
            for (Map.Entry<String, byte[]> e : entries(true).entrySet()) {
                Path file = directory.resolve(e.getKey());
                Files.createDirectories(file.getParent());
                Files.write(file, e.getValue());
            }
            return directory;
        }

        /** The bundle's files under {@code folder/} (or at the top for ""), for an archive. */
        public Map<String, byte[]> under(String folder, boolean manifestFirst) {
            Map<String, byte[]> all = new LinkedHashMap<>();
            entries(manifestFirst).forEach((k, v) -> all.put(folder.isEmpty() ? k : folder + "/" + k, v));
            return all;
        }
    }

    /** A campaign manifest as candle-graph writes it; {@code planned} alternates step and bundle path. */
    public static byte[] campaign(String id, String entrypoint, Object... planned) {
        StringBuilder json = new StringBuilder("{\n  \"schema\": \"candle-graph/campaign/1\",\n  \"campaign_id\": \"")
                .append(id).append("\",\n  \"entrypoint\": \"").append(entrypoint).append("\",\n  \"planned\": [");
        for (int i = 0; i < planned.length; i += 2) {
            json.append(i == 0 ? "\n" : ",\n").append("    {\"capture_step\": ").append(planned[i])
                    .append(", \"bundle\": \"").append(planned[i + 1]).append("\"}");
        }
        return json.append("\n  ]\n}\n").toString().getBytes(UTF_8);
    }

    public static String sha256(byte[] data) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(data));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A copy of {@code data} with the byte at {@code index} changed. */
    public static byte[] oneByteChanged(byte[] data, int index) {
        byte[] changed = data.clone();
        changed[index] = (byte) (changed[index] == 'x' ? 'y' : 'x');
        return changed;
    }

    public static byte[] tar(Map<String, byte[]> entries) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (TarArchiveOutputStream tar = new TarArchiveOutputStream(out)) {
            tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
            for (Map.Entry<String, byte[]> e : entries.entrySet()) {
                TarArchiveEntry header = new TarArchiveEntry(e.getKey(), true);
                header.setSize(e.getValue().length);
                tar.putArchiveEntry(header);
                tar.write(e.getValue());
                tar.closeArchiveEntry();
            }
        }
        return out.toByteArray();
    }

    public static byte[] zip(Map<String, byte[]> entries) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (ZipArchiveOutputStream zip = new ZipArchiveOutputStream(out)) {
            for (Map.Entry<String, byte[]> e : entries.entrySet()) {
                zip.putArchiveEntry(new ZipArchiveEntry(e.getKey()));
                zip.write(e.getValue());
                zip.closeArchiveEntry();
            }
        }
        return out.toByteArray();
    }

    public static byte[] gzip(byte[] data) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (OutputStream gz = new GZIPOutputStream(out)) {
            gz.write(data);
        }
        return out.toByteArray();
    }

    @SafeVarargs
    public static Map<String, byte[]> merged(Map<String, byte[]>... parts) {
        Map<String, byte[]> all = new LinkedHashMap<>();
        for (Map<String, byte[]> part : parts) {
            all.putAll(part);
        }
        return all;
    }
}
