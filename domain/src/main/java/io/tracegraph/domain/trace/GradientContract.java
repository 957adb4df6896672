package io.tracegraph.domain.trace;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

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
        digest.update(MANIFEST_SCHEMA.getBytes(StandardCharsets.UTF_8));
        digest.update((byte) 0);
        ByteBuffer length = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
        for (ExpectedGradient parameter : expected) {
            for (String value : new String[] {parameter.root(), parameter.key(), parameter.family()}) {
                byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
                length.clear();
                length.putLong(bytes.length);
                digest.update(length.array());
                digest.update(bytes);
            }
        }
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
        Set<List<String>> keys = new HashSet<>();
        Map<String, Integer> members = new TreeMap<>(CodePointOrder.COMPARATOR);
        for (ExpectedGradient parameter : expected) {
            if (RustText.isBlank(parameter.root()) || RustText.isBlank(parameter.key())
                    || RustText.isBlank(parameter.family())) {
                return Optional.of("gradient manifest root, key, and family must not be empty");
            }
            if (!keys.add(List.of(parameter.root(), parameter.key()))) {
                return Optional.of("gradient manifest declares (" + RustText.debugQuote(parameter.root()) + ", "
                        + RustText.debugQuote(parameter.key()) + ") more than once");
            }
            members.merge(parameter.family(), 1, Integer::sum);
        }
        Set<String> names = new HashSet<>();
        for (GradientFamily family : families) {
            String name = RustText.debugQuote(family.family());
            if (RustText.isBlank(family.family())) {
                return Optional.of("gradient family name must not be empty");
            }
            if (!names.add(family.family())) {
                return Optional.of("gradient family " + name + " is declared more than once");
            }
            int count = members.getOrDefault(family.family(), 0);
            if (count == 0) {
                return Optional.of("gradient family " + name + " has no manifest members");
            }
            if (family.expectation() == FamilyExpectation.INACTIVE) {
                if (family.minPresent() != 0) {
                    return Optional.of("inactive gradient family " + name + " must have min_present=0");
                }
            } else if (family.minPresent() <= 0 || family.minPresent() > count) {
                return Optional.of("active or data-conditional gradient family " + name
                        + " needs min_present in 1..=" + count);
            }
        }
        for (String family : members.keySet()) {
            if (!names.contains(family)) {
                return Optional.of("gradient manifest family " + RustText.debugQuote(family) + " has no family contract");
            }
        }
        return Optional.empty();
    }
}
