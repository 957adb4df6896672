package io.tracegraph.domain.trace;

import java.util.Arrays;

/** A tensor shape: dimensions, outermost first. Immutable. */
public final class Shape {
    public static final Shape SCALAR = new Shape(new long[0]);

    private final long[] dims;

    private Shape(long[] dims) {
        this.dims = dims;
    }

    public static Shape of(long... dims) {
        if (dims.length == 0) {
            return SCALAR;
        }
        for (long d : dims) {
            if (d < 0) {
                throw new IllegalArgumentException("negative dimension " + d);
            }
        }
        return new Shape(dims.clone());
    }

    public int rank() {
        return dims.length;
    }

    public long dim(int i) {
        return dims[i];
    }

    public boolean isEmpty() {
        return dims.length == 0;
    }

    /** Element count: the product of the dimensions, 1 for a scalar, saturating. */
    public long elementCount() {
        long count = 1;
        for (long d : dims) {
            count = Saturating.mul(count, d);
        }
        return count;
    }

    public long[] toArray() {
        return dims.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Shape other && Arrays.equals(dims, other.dims);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(dims);
    }

    @Override
    public String toString() {
        return Arrays.toString(dims);
    }
}
