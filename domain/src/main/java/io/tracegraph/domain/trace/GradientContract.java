package io.tracegraph.domain.trace;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * An exact, digest-bound gradient manifest (candle-graph trace/9 {@code gradient_contract}): every
 * parameter whose gradient the capture must report, the family of each, and what each family
 * expects. {@code manifestSha256} binds the ordered manifest ({@link #manifestSha256Of}).
 */
public record GradientContract(String manifestSha256, List<ExpectedGradient> expected, List<GradientFamily> families) {

    /** The digest's domain separator. */
    public static final String MANIFEST_SCHEMA = "candle-graph/gradient-manifest/1";

    public GradientContract {
        Objects.requireNonNull(manifestSha256, "manifestSha256");
        expected = List.copyOf(expected);
        families = List.copyOf(families);
    }

    /**
     * {@code sha256:<hex>} of the schema name, a NUL byte, then for each entry in order its root,
     * key and family, each as its UTF-8 length (little-endian u64) followed by its bytes.
     */
    public static String manifestSha256Of(List<ExpectedGradient> expected) {
        Digest digest = new Digest();
        for (ExpectedGradient parameter : expected) {
            digest.entry(parameter);
        }
        return digest.hex();
    }

    /**
     * The first way this contract is inconsistent, in the original's words and order; empty when it
     * is valid.
     */
    public Optional<String> problem() {
        if (expected.isEmpty()) {
            return Optional.of("gradient manifest must not be empty");
        }
        if (families.isEmpty()) {
            return Optional.of("gradient families must not be empty");
        }
        // One walk of the manifest: its digest, and the first entry problem in manifest order
        // (reported after a digest mismatch, as the original checks the digest first).
        Digest digest = new Digest();
        Map<String, Integer> members = new java.util.HashMap<>();
        String entryProblem = walkEntries(digest, members);
        if (!manifestSha256.equals(digest.hex())) {
            return Optional.of("gradient manifest SHA-256 does not match its ordered parameter manifest");
        }
        if (entryProblem != null) {
            return Optional.of(entryProblem);
        }
        Set<String> names = new HashSet<>();
        for (GradientFamily family : families) {
            String name = family.family();
            if (RustText.isBlank(family.family())) {
                return Optional.of("gradient family name must not be empty");
            }
            if (!names.add(family.family())) {
                return Optional.of("gradient family " + RustText.debugQuote(name) + " is declared more than once");
            }
            int count = members.getOrDefault(family.family(), 0);
            if (count == 0) {
                return Optional.of("gradient family " + RustText.debugQuote(name) + " has no manifest members");
            }
            if (family.expectation() == FamilyExpectation.INACTIVE) {
                if (family.minPresent() != 0) {
                    return Optional.of("inactive gradient family " + RustText.debugQuote(name)
                            + " must have min_present=0");
                }
            } else if (family.minPresent() <= 0 || family.minPresent() > count) {
                return Optional.of("active or data-conditional gradient family " + RustText.debugQuote(name)
                        + " needs min_present in 1..=" + count);
            }
        }
        // The original reports the first family in byte order that has no contract.
        Optional<String> unclassified = members.keySet().stream().filter(family -> !names.contains(family))
                .min(CodePointOrder.COMPARATOR);
        if (unclassified.isPresent()) {
            return Optional.of("gradient manifest family " + RustText.debugQuote(unclassified.get())
                    + " has no family contract");
        }
        return Optional.empty();
    }

    /**
     * Feeds every entry to {@code digest} and counts each family's members into {@code members}
     * (until the first entry problem); returns that problem, or {@code null}. A method of its own:
     * as a loop of problem() it was compiled by C2 (on-stack replacement) with all of problem()
     * around it, in some builds.
     */
    private String walkEntries(Digest digest, Map<String, Integer> members) {
        // The (root, key) pairs seen, as keys per root: a manifest has few roots, and a pair list
        // per parameter (100k and more) was an allocation and two string hashes combined each.
        Map<String, Set<String>> keysByRoot = new java.util.HashMap<>();
        String lastRoot = null;
        Set<String> rootKeys = null;
        // Members counted per run of one family (a manifest lists a family's parameters together).
        String runFamily = null;
        int run = 0;
        String problem = null;
        for (ExpectedGradient parameter : expected) {
            digest.entry(parameter);
            if (problem != null) {
                continue;
            }
            if (RustText.isBlank(parameter.root()) || RustText.isBlank(parameter.key())
                    || RustText.isBlank(parameter.family())) {
                problem = "gradient manifest root, key, and family must not be empty";
                continue;
            }
            if (!parameter.root().equals(lastRoot)) {
                lastRoot = parameter.root();
                rootKeys = keysByRoot.computeIfAbsent(lastRoot, root -> new HashSet<>());
            }
            if (!rootKeys.add(parameter.key())) {
                problem = "gradient manifest declares (" + RustText.debugQuote(parameter.root()) + ", "
                        + RustText.debugQuote(parameter.key()) + ") more than once";
                continue;
            }
            if (!parameter.family().equals(runFamily)) {
                if (runFamily != null) {
                    members.merge(runFamily, run, Integer::sum);
                }
                runFamily = parameter.family();
                run = 0;
            }
            run++;
        }
        if (runFamily != null) {
            members.merge(runFamily, run, Integer::sum);
        }
        return problem;
    }

    /**
     * The manifest digest being computed: the schema name and a NUL byte, then each entry's fields,
     * each as its UTF-8 length (little-endian u64) and its bytes, fed to SHA-256 through one 64 KiB
     * buffer (the digest's per-call overhead dominates for thousands of short strings; a buffer of
     * the whole encoding was 7.5 MB for a 116,000-entry manifest). ASCII strings (almost all) are
     * copied in as they are, without a UTF-8 array each.
     */
    private static final class Digest {
        private final MessageDigest sha256;
        private final byte[] buffer = new byte[64 << 10];
        private int size;

        Digest() {
            try {
                sha256 = MessageDigest.getInstance("SHA-256");
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException("the JDK has no SHA-256", e);
            }
            put(MANIFEST_SCHEMA.getBytes(StandardCharsets.UTF_8));
            room(1);
            buffer[size++] = 0;
        }

        void entry(ExpectedGradient parameter) {
            field(parameter.root());
            field(parameter.key());
            field(parameter.family());
        }

        /** {@code sha256:<hex>} of everything fed. */
        String hex() {
            sha256.update(buffer, 0, size);
            size = 0;
            StringBuilder hex = new StringBuilder("sha256:");
            for (byte b : sha256.digest()) {
                hex.append(Character.forDigit((b >> 4) & 0xF, 16)).append(Character.forDigit(b & 0xF, 16));
            }
            return hex.toString();
        }

        /** Room for {@code more} bytes, the buffer fed to the digest first when they do not fit. */
        private void room(int more) {
            if (buffer.length - size < more) {
                sha256.update(buffer, 0, size);
                size = 0;
            }
        }

        private void put(byte[] bytes) {
            if (bytes.length > buffer.length) {
                sha256.update(buffer, 0, size);
                size = 0;
                sha256.update(bytes);
                return;
            }
            room(bytes.length);
            System.arraycopy(bytes, 0, buffer, size, bytes.length);
            size += bytes.length;
        }

        /** The value's UTF-8 length as a little-endian u64, then its UTF-8 bytes. */
        private void field(String value) {
            int n = value.length();
            if (n <= buffer.length - 8) {
                // Written as ASCII in one pass; undone for the UTF-8 encoding at the first other char.
                room(8 + n);
                int start = size;
                length(n);
                int at = size;
                for (int i = 0; i < n; i++) {
                    char c = value.charAt(i);
                    if (c >= 0x80) {
                        size = start;
                        utf8(value);
                        return;
                    }
                    buffer[at++] = (byte) c;
                }
                size = at;
            } else {
                utf8(value);
            }
        }

        private void utf8(String value) {
            byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
            room(8);
            length(bytes.length);
            put(bytes);
        }

        private void length(long length) {
            for (int i = 0; i < 8; i++) {
                buffer[size++] = (byte) (length >>> (8 * i));
            }
        }
    }
}
