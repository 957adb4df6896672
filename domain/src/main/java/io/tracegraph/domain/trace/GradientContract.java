package io.tracegraph.domain.trace;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
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
        MessageDigest digest;
        try {
            digest = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no SHA-256", e);
        }
        // One buffer, one update: the digest's per-call overhead dominates for thousands of short
        // strings. ASCII strings (almost all) are copied in as they are, without a UTF-8 array each.
        Buffer bytes = new Buffer(64 + expected.size() * 64);
        bytes.put(MANIFEST_SCHEMA.getBytes(StandardCharsets.UTF_8));
        bytes.put((byte) 0);
        for (ExpectedGradient parameter : expected) {
            bytes.field(parameter.root());
            bytes.field(parameter.key());
            bytes.field(parameter.family());
        }
        digest.update(bytes.array, 0, bytes.size);
        StringBuilder hex = new StringBuilder("sha256:");
        for (byte b : digest.digest()) {
            hex.append(Character.forDigit((b >> 4) & 0xF, 16)).append(Character.forDigit(b & 0xF, 16));
        }
        return hex.toString();
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
        if (!manifestSha256.equals(manifestSha256Of(expected))) {
            return Optional.of("gradient manifest SHA-256 does not match its ordered parameter manifest");
        }
        // The (root, key) pairs seen, as keys per root: a manifest has few roots, and a pair list
        // per parameter (100k and more) was an allocation and two string hashes combined each.
        Map<String, Set<String>> keysByRoot = new java.util.HashMap<>();
        String lastRoot = null;
        Set<String> rootKeys = null;
        Map<String, Integer> members = new java.util.HashMap<>();
        // Members counted per run of one family (a manifest lists a family's parameters together).
        String runFamily = null;
        int run = 0;
        for (ExpectedGradient parameter : expected) {
            if (RustText.isBlank(parameter.root()) || RustText.isBlank(parameter.key())
                    || RustText.isBlank(parameter.family())) {
                return Optional.of("gradient manifest root, key, and family must not be empty");
            }
            if (!parameter.root().equals(lastRoot)) {
                lastRoot = parameter.root();
                rootKeys = keysByRoot.computeIfAbsent(lastRoot, root -> new HashSet<>());
            }
            if (!rootKeys.add(parameter.key())) {
                return Optional.of("gradient manifest declares (" + RustText.debugQuote(parameter.root()) + ", "
                        + RustText.debugQuote(parameter.key()) + ") more than once");
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
        members.merge(runFamily, run, Integer::sum);
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

    /** A growable byte array for the digest's input, with the manifest's field encoding. */
    private static final class Buffer {
        byte[] array;
        int size;

        Buffer(int capacity) {
            array = new byte[capacity];
        }

        private void ensure(int more) {
            if (array.length - size < more) {
                array = Arrays.copyOf(array, Math.max(array.length * 2, size + more));
            }
        }

        void put(byte b) {
            ensure(1);
            array[size++] = b;
        }

        void put(byte[] bytes) {
            ensure(bytes.length);
            System.arraycopy(bytes, 0, array, size, bytes.length);
            size += bytes.length;
        }

        /** The value's UTF-8 length as a little-endian u64, then its UTF-8 bytes. */
        void field(String value) {
            int n = value.length();
            boolean ascii = true;
            for (int i = 0; i < n && ascii; i++) {
                ascii = value.charAt(i) < 0x80;
            }
            byte[] utf8 = ascii ? null : value.getBytes(StandardCharsets.UTF_8);
            long length = ascii ? n : utf8.length;
            ensure(8);
            for (int i = 0; i < 8; i++) {
                array[size++] = (byte) (length >>> (8 * i));
            }
            if (ascii) {
                ensure(n);
                for (int i = 0; i < n; i++) {
                    array[size++] = (byte) value.charAt(i);
                }
            } else {
                put(utf8);
            }
        }
    }
}
