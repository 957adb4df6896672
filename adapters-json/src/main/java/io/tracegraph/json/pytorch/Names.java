package io.tracegraph.json.pytorch;

import java.util.Arrays;

/**
 * Interned strings by dense id, looked up by the parser's characters without allocating: a trace of
 * millions of events names a few thousand distinct things. Python names that carry an object's
 * address ({@code <built-in method size of Tensor object at 0x7f3a...>}) are interned without it,
 * so that they neither fill the table nor change from run to run.
 */
final class Names {
    private static final String ADDRESS = " at 0x";

    private String[] strings = new String[256];
    private int[] hashes = new int[256];
    private int size;
    private int[] slots = new int[1024];
    private char[] scratch = new char[256];

    Names() {
        Arrays.fill(slots, -1);
    }

    int size() {
        return size;
    }

    String get(int id) {
        return strings[id];
    }

    int intern(String s) {
        char[] chars = s.toCharArray();
        return intern(chars, 0, chars.length, false);
    }

    /**
     * The id of the characters {@code buf[offset, offset + length)}; with {@code dropAddresses},
     * every {@code " at 0x<hex>"} in a name that starts with {@code <} is left out first.
     */
    int intern(char[] buf, int offset, int length, boolean dropAddresses) {
        if (dropAddresses && length > 0 && buf[offset] == '<' && contains(buf, offset, length)) {
            length = withoutAddresses(buf, offset, length);
            buf = scratch;
            offset = 0;
        }
        int h = 1;
        for (int i = offset, end = offset + length; i < end; i++) {
            h = 31 * h + buf[i];
        }
        h ^= h >>> 16;
        int mask = slots.length - 1;
        for (int slot = h & mask; ; slot = (slot + 1) & mask) {
            int id = slots[slot];
            if (id < 0) {
                return add(new String(buf, offset, length), h, slot);
            }
            if (hashes[id] == h && equal(strings[id], buf, offset, length)) {
                return id;
            }
        }
    }

    private int add(String s, int h, int slot) {
        if (size == strings.length) {
            strings = Arrays.copyOf(strings, size * 2);
            hashes = Arrays.copyOf(hashes, size * 2);
        }
        strings[size] = s;
        hashes[size] = h;
        slots[slot] = size;
        size++;
        if (size * 2 > slots.length) {
            rehash();
        }
        return size - 1;
    }

    private void rehash() {
        slots = new int[slots.length * 2];
        Arrays.fill(slots, -1);
        int mask = slots.length - 1;
        for (int id = 0; id < size; id++) {
            int slot = hashes[id] & mask;
            while (slots[slot] >= 0) {
                slot = (slot + 1) & mask;
            }
            slots[slot] = id;
        }
    }

    private static boolean equal(String s, char[] buf, int offset, int length) {
        if (s.length() != length) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            if (s.charAt(i) != buf[offset + i]) {
                return false;
            }
        }
        return true;
    }

    private static boolean contains(char[] buf, int offset, int length) {
        outer:
        for (int i = offset, last = offset + length - ADDRESS.length(); i <= last; i++) {
            for (int k = 0; k < ADDRESS.length(); k++) {
                if (buf[i + k] != ADDRESS.charAt(k)) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }

    /** Copies the name into {@link #scratch} without its addresses; returns the new length. */
    private int withoutAddresses(char[] buf, int offset, int length) {
        if (scratch.length < length) {
            scratch = new char[Math.max(length, scratch.length * 2)];
        }
        int out = 0;
        int i = offset;
        int end = offset + length;
        while (i < end) {
            if (i + ADDRESS.length() <= end && buf[i] == ' ' && matchesAt(buf, i)) {
                int j = i + ADDRESS.length();
                int digits = j;
                while (j < end && Character.digit(buf[j], 16) >= 0) {
                    j++;
                }
                if (j > digits) {
                    i = j;
                    continue;
                }
            }
            scratch[out++] = buf[i++];
        }
        return out;
    }

    private static boolean matchesAt(char[] buf, int i) {
        for (int k = 0; k < ADDRESS.length(); k++) {
            if (buf[i + k] != ADDRESS.charAt(k)) {
                return false;
            }
        }
        return true;
    }
}
