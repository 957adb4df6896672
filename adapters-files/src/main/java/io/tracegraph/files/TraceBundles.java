package io.tracegraph.files;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import io.tracegraph.domain.run.BundleFile;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * candle-graph's bundles and campaigns, as its own source defines them ({@code src/artifact.rs},
 * {@code src/campaign.rs}): which folder is a bundle, what its {@code bundle.json} and a campaign
 * manifest must hold, and how a bundle's files are checked against it.
 *
 * <p>A <em>bundle</em> ({@code candle-graph/bundle/1}) is a folder holding {@code bundle.json}:
 * {@code {"schema", "run_id", "files": [{"path", "bytes", "sha256"}...]}}, where {@code path} is
 * relative with {@code /} between components (no {@code ..}, {@code .}, empty components, leading
 * {@code /} or backslash), never {@code bundle.json} itself and never twice, and {@code sha256} is 64
 * hex digits (candle-graph writes them in lower case and compares them ignoring case). Every regular
 * file below the folder except {@code bundle.json} must be listed; symbolic links and special files
 * are not allowed. The trace is {@code trace.jsonl} (what candle-graph's {@code publish_bundle}
 * writes), else {@code application.jsonl}.
 *
 * <p>A <em>campaign</em> ({@code candle-graph/campaign/1}) is a JSON file
 * {@code {"schema", "campaign_id", "entrypoint", "planned": [{"capture_step", "bundle"}...]}} whose
 * bundle paths are relative to the manifest's folder; it is told by its content, not its name.
 */
final class TraceBundles {
    static final String MANIFEST = "bundle.json";
    static final String BUNDLE_SCHEMA = "candle-graph/bundle/1";
    static final String CAMPAIGN_SCHEMA = "candle-graph/campaign/1";
    static final String CAMPAIGN_SCHEMA_PREFIX = "candle-graph/campaign/";
    /** The names a bundle's trace may have, in order of preference. */
    static final List<String> TRACE_NAMES = List.of("trace.jsonl", "application.jsonl");
    /** Largest {@code bundle.json} or campaign manifest read (candle-graph's are a few kilobytes). */
    static final int MAX_MANIFEST_BYTES = 1 << 20;
    /** How much of a {@code .json} file is looked at for the campaign schema. */
    static final int CAMPAIGN_HEAD_BYTES = 1 << 16;

    static final String LINK_IN_BUNDLE = "symbolic links are not allowed in bundles";
    static final String SPECIAL_IN_BUNDLE = "special files are not allowed in bundles";

    private static final byte[] CAMPAIGN_MARK = CAMPAIGN_SCHEMA_PREFIX.getBytes(StandardCharsets.UTF_8);
    private static final int MAX_DEPTH = 16;
    private static final JsonFactory JSON = JsonFactory.builder()
            .enable(com.fasterxml.jackson.core.StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();

    private TraceBundles() {
    }

    /** A value, or the one-line reason why there is none. */
    record Read<T>(T value, String problem) {
        static <T> Read<T> of(T value) {
            return new Read<>(value, null);
        }

        static <T> Read<T> refused(String problem) {
            return new Read<>(null, problem);
        }

        boolean ok() {
            return problem == null;
        }
    }

    /**
     * A valid {@code bundle.json}.
     *
     * @param files  path → what is listed, in the manifest's order
     * @param sha256 lower-case hex SHA-256 of the manifest's bytes
     */
    record Manifest(String runId, Map<String, BundleFile> files, String tracePath, String sha256) {
        Manifest {
            files = Collections.unmodifiableMap(new LinkedHashMap<>(files));
        }

        BundleFile trace() {
            return files.get(tracePath);
        }
    }

    /** A planned capture of a campaign. */
    record Planned(long captureStep, String bundle) {
    }

    /** A valid campaign manifest, its captures by step. */
    record Campaign(String campaignId, String entrypoint, List<Planned> planned) {
        Campaign {
            List<Planned> sorted = new ArrayList<>(planned);
            sorted.sort(Comparator.comparingLong(Planned::captureStep));
            planned = List.copyOf(sorted);
        }
    }

    /** What one file of a bundle turned out to be: its size (capped one past what is listed) and hash. */
    record Observed(long bytes, String sha256) {
    }

    static boolean isManifestName(String fileName) {
        return MANIFEST.equals(fileName);
    }

    /** A {@code .json} name (what a campaign manifest may be called; traces are sniffed by content). */
    static boolean isJsonName(String fileName) {
        return fileName.toLowerCase(Locale.ROOT).endsWith(".json");
    }

    /** Reads and checks a {@code bundle.json}. */
    static Read<Manifest> manifest(byte[] bytes) {
        Read<Map<String, Object>> top = object(bytes);
        if (!top.ok()) {
            return Read.refused(top.problem());
        }
        Map<String, Object> m = top.value();
        if (!(m.get("schema") instanceof String schema)) {
            return Read.refused("member `schema`: expected a string");
        }
        if (!schema.equals(BUNDLE_SCHEMA)) {
            return Read.refused("unsupported bundle schema `" + schema + "` (tracegraph reads " + BUNDLE_SCHEMA + ")");
        }
        if (!(m.get("run_id") instanceof String runId)) {
            return Read.refused("member `run_id`: expected a string");
        }
        if (!(m.get("files") instanceof List<?> list)) {
            return Read.refused("member `files`: expected an array");
        }
        Map<String, BundleFile> files = new LinkedHashMap<>();
        for (int i = 0; i < list.size(); i++) {
            String at = "member `files[" + i + "]";
            if (!(list.get(i) instanceof Map<?, ?> file)) {
                return Read.refused(at + "`: expected an object");
            }
            if (!(file.get("path") instanceof String path)) {
                return Read.refused(at + ".path`: expected a string");
            }
            if (!(file.get("bytes") instanceof Long size) || size < 0) {
                return Read.refused(at + ".bytes`: expected an integer in 0..9223372036854775807");
            }
            if (!(file.get("sha256") instanceof String sha) || !isSha256(sha)) {
                return Read.refused(at + ".sha256`: expected 64 hex digits");
            }
            if (!isSafeRelativePath(path) || path.equals(MANIFEST)) {
                return Read.refused(at + ".path`: unsafe or reserved bundle path `" + path + "`");
            }
            if (files.put(path, new BundleFile(path, size, sha.toLowerCase(Locale.ROOT))) != null) {
                return Read.refused("declares `" + path + "` more than once");
            }
        }
        String trace = TRACE_NAMES.stream().filter(files::containsKey).findFirst().orElse(null);
        if (trace == null) {
            return Read.refused("lists no trace (" + String.join(" or ", TRACE_NAMES) + ")");
        }
        return Read.of(new Manifest(runId, files, trace, sha256(bytes)));
    }

    /** Whether the first bytes of a {@code .json} file may be a campaign manifest's. */
    static boolean mayBeCampaign(byte[] head) {
        outer:
        for (int i = 0; i + CAMPAIGN_MARK.length <= head.length; i++) {
            for (int j = 0; j < CAMPAIGN_MARK.length; j++) {
                if (head[i + j] != CAMPAIGN_MARK[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }

    /**
     * The campaign that {@code bytes} hold, checked as candle-graph's {@code CampaignManifest::validate}
     * does; {@code null} when they are no campaign at all (not a JSON object whose {@code schema} is a
     * campaign's), so that the file is read as a trace like any other {@code .json} file.
     */
    static Read<Campaign> campaign(byte[] bytes) {
        Read<Map<String, Object>> top = object(bytes);
        if (!top.ok() || !(top.value().get("schema") instanceof String schema)
                || !schema.startsWith(CAMPAIGN_SCHEMA_PREFIX)) {
            return null;
        }
        Map<String, Object> m = top.value();
        if (!schema.equals(CAMPAIGN_SCHEMA)) {
            return Read.refused("unsupported campaign schema `" + schema + "` (tracegraph reads " + CAMPAIGN_SCHEMA
                    + ")");
        }
        if (!(m.get("campaign_id") instanceof String id) || id.isBlank()) {
            return Read.refused("campaign manifest requires a non-empty campaign_id");
        }
        if (!(m.get("entrypoint") instanceof String entrypoint) || entrypoint.isBlank()) {
            return Read.refused("campaign manifest requires a non-empty entrypoint");
        }
        if (!(m.get("planned") instanceof List<?> list)) {
            return Read.refused("member `planned`: expected an array");
        }
        if (list.isEmpty()) {
            return Read.refused("campaign manifest requires at least one planned capture");
        }
        List<Planned> planned = new ArrayList<>();
        Set<Long> steps = new HashSet<>();
        Set<String> bundles = new HashSet<>();
        for (int i = 0; i < list.size(); i++) {
            String at = "member `planned[" + i + "]";
            if (!(list.get(i) instanceof Map<?, ?> capture)) {
                return Read.refused(at + "`: expected an object");
            }
            if (!(capture.get("capture_step") instanceof Long step) || step < 0) {
                return Read.refused(at + ".capture_step`: expected an integer in 0..9223372036854775807");
            }
            if (!(capture.get("bundle") instanceof String bundle)) {
                return Read.refused(at + ".bundle`: expected a string");
            }
            if (!steps.add(step)) {
                return Read.refused("campaign manifest plans duplicate capture_step " + step);
            }
            if (!isSafeRelativePath(bundle)) {
                return Read.refused("campaign manifest has an unsafe bundle path `" + bundle
                        + "`; bundle paths must be non-empty relative paths without `..` or backslashes");
            }
            if (!bundles.add(bundle)) {
                return Read.refused("campaign manifest plans duplicate bundle path `" + bundle + "`");
            }
            planned.add(new Planned(step, bundle));
        }
        return Read.of(new Campaign(id, entrypoint, planned));
    }

    /**
     * A relative path whose components are all names: not empty, no {@code .}, {@code ..} or empty
     * component, no leading {@code /}, no backslash.
     */
    static boolean isSafeRelativePath(String path) {
        if (path.isEmpty() || path.indexOf('\\') >= 0 || path.indexOf('\0') >= 0) {
            return false;
        }
        for (String component : path.split("/", -1)) {
            if (component.isEmpty() || component.equals(".") || component.equals("..")) {
                return false;
            }
        }
        return true;
    }

    /**
     * An archive entry's name as a path inside its archive: components joined by {@code /}, empty and
     * {@code .} components and leading slashes dropped; {@code null} for a name with {@code ..} (read
     * as a label only, never part of a bundle) or no component at all.
     */
    static String normalized(String entryName) {
        StringBuilder path = new StringBuilder(entryName.length());
        int start = 0;
        int n = entryName.length();
        while (start <= n) {
            int end = entryName.indexOf('/', start);
            if (end < 0) {
                end = n;
            }
            if (end > start) {
                String component = entryName.substring(start, end);
                if (component.equals("..")) {
                    return null;
                }
                if (!component.equals(".")) {
                    if (path.length() > 0) {
                        path.append('/');
                    }
                    path.append(component);
                }
            }
            start = end + 1;
        }
        return path.length() == 0 ? null : path.toString();
    }

    /** The folder of a normalized path ({@code ""} at the top). */
    static String folder(String path) {
        int slash = path.lastIndexOf('/');
        return slash < 0 ? "" : path.substring(0, slash);
    }

    /** The last component of a normalized path. */
    static String fileName(String path) {
        return path.substring(path.lastIndexOf('/') + 1);
    }

    /** {@code folder/path}, or {@code path} at the top. */
    static String join(String folder, String path) {
        return folder.isEmpty() ? path : folder + "/" + path;
    }

    /** Why an observed file is not the one listed, or {@code null} when it is. */
    static String mismatch(BundleFile listed, Observed observed) {
        if (observed.bytes() > listed.bytes()) {
            return "size mismatch (bundle.json says " + listed.bytes() + " bytes, the file has more)";
        }
        if (observed.bytes() != listed.bytes()) {
            return "size mismatch (bundle.json says " + listed.bytes() + " bytes, the file has " + observed.bytes()
                    + ")";
        }
        if (!observed.sha256().equals(listed.sha256())) {
            return "sha256 mismatch (bundle.json says " + listed.sha256() + ", the file has " + observed.sha256()
                    + ")";
        }
        return null;
    }

    /**
     * Reads {@code in} to its end, or to one byte past {@code listedBytes}, hashing it; what is read is
     * also copied to {@code copy} when it is not null.
     */
    static Observed observe(InputStream in, long listedBytes, TraceFilesSpool copy) throws IOException {
        MessageDigest sha = sha256();
        byte[] buffer = new byte[1 << 16];
        long limit = listedBytes == Long.MAX_VALUE ? Long.MAX_VALUE : listedBytes + 1;
        long total = 0;
        while (total < limit) {
            int n = in.read(buffer, 0, (int) Math.min(buffer.length, limit - total));
            if (n < 0) {
                break;
            }
            sha.update(buffer, 0, n);
            if (copy != null) {
                copy.write(buffer, 0, n);
            }
            total += n;
        }
        return new Observed(total, HexFormat.of().formatHex(sha.digest()));
    }

    /**
     * {@code in}, checked as it is read against what {@code bundle.json} lists: once it has more bytes,
     * or at its end when its size or hash differ, reads fail with {@code changed after it was verified}.
     * For a file read again after its verification, so that the bytes handed on are the bytes verified.
     */
    static InputStream rechecked(InputStream in, BundleFile listed) {
        return new Recheck(in, listed);
    }

    static String sha256(byte[] bytes) {
        return HexFormat.of().formatHex(sha256().digest(bytes));
    }

    private static boolean isSha256(String sha) {
        return sha.length() == 64 && sha.chars().allMatch(c -> Character.digit(c, 16) >= 0 && c < 128);
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The JSON object {@code bytes} hold, members in order; numbers as Long (or BigInteger, Double). */
    @SuppressWarnings("unchecked")
    private static Read<Map<String, Object>> object(byte[] bytes) {
        try (JsonParser p = JSON.createParser(bytes)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return Read.refused("not a JSON object");
            }
            Object value = value(p, 0);
            if (p.nextToken() != null) {
                return Read.refused("not valid JSON: content after the object");
            }
            return Read.of((Map<String, Object>) value);
        } catch (JsonProcessingException e) {
            return Read.refused("not valid JSON: " + TraceFilesWalk.clean(e.getOriginalMessage(), 200));
        } catch (IOException e) {
            return Read.refused("not valid JSON: " + TraceFilesWalk.reason(e));
        }
    }

    private static Object value(JsonParser p, int depth) throws IOException {
        if (depth > MAX_DEPTH) {
            throw new com.fasterxml.jackson.core.JsonParseException(p, "nested more than " + MAX_DEPTH + " deep");
        }
        JsonToken token = p.currentToken();
        switch (token) {
            case START_OBJECT: {
                Map<String, Object> object = new LinkedHashMap<>();
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String name = p.currentName();
                    p.nextToken();
                    object.put(name, value(p, depth + 1));
                }
                return object;
            }
            case START_ARRAY: {
                List<Object> array = new ArrayList<>();
                while (p.nextToken() != JsonToken.END_ARRAY) {
                    array.add(value(p, depth + 1));
                }
                return array;
            }
            case VALUE_STRING:
                return p.getText();
            case VALUE_NUMBER_INT:
                return p.getNumberType() == JsonParser.NumberType.BIG_INTEGER ? (Object) p.getBigIntegerValue()
                        : (Object) p.getLongValue();
            case VALUE_NUMBER_FLOAT:
                return p.getDoubleValue();
            case VALUE_TRUE:
                return Boolean.TRUE;
            case VALUE_FALSE:
                return Boolean.FALSE;
            default:
                return NULL;
        }
    }

    /** JSON {@code null}: a value of no expected type. */
    private static final Object NULL = new Object();

    private static final class Recheck extends FilterInputStream {
        private final BundleFile listed;
        private final MessageDigest sha = sha256();
        private long total;
        private boolean ended;
        private IOException failure;

        Recheck(InputStream in, BundleFile listed) {
            super(in);
            this.listed = listed;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            int n = read(one, 0, 1);
            return n < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (failure != null) {
                throw failure;
            }
            if (ended) {
                return -1;
            }
            int n = in.read(b, off, len);
            if (n > 0) {
                sha.update(b, off, n);
                total += n;
                if (total > listed.bytes()) {
                    throw fail(new Observed(total, ""));
                }
            } else if (n < 0) {
                Observed seen = new Observed(total, HexFormat.of().formatHex(sha.digest()));
                if (mismatch(listed, seen) != null) {
                    throw fail(seen);
                }
                ended = true;
                return -1;
            }
            return n;
        }

        @Override
        public long skip(long n) throws IOException {
            int step = (int) Math.min(Math.max(n, 0), 1 << 12);
            return Math.max(read(new byte[step], 0, step), 0);
        }

        @Override
        public boolean markSupported() {
            return false;
        }

        private IOException fail(Observed seen) {
            failure = new IOException("changed after it was verified: " + mismatch(listed, seen));
            return failure;
        }
    }
}
