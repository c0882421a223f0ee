package org.gridrun.engine.backend.cuda;

import java.util.Arrays;

/**
 * The arguments of one kernel launch, in the order of the kernel's parameters: device addresses, 32-bit ints and
 * floats, 64-bit longs. Each is kept as its kind and its raw bits, which is all a launcher needs to hand the values
 * to the driver (or to the emulator) without boxing.
 */
public final class KernelArgs {
    /** The kind of one argument, with its size in bytes. */
    public enum Kind {
        ADDRESS(8), INT(4), FLOAT(4), LONG(8);

        private final int bytes;

        Kind(int bytes) {
            this.bytes = bytes;
        }

        /** The argument's size as the kernel receives it. */
        public int bytes() {
            return bytes;
        }
    }

    private Kind[] kinds = new Kind[16];
    private long[] bits = new long[16];
    private int count;

    /** Empty arguments, to be added in parameter order. */
    public static KernelArgs of() {
        return new KernelArgs();
    }

    /** A device address (a pointer parameter); 0 is the null pointer. */
    public KernelArgs address(long address) {
        return add(Kind.ADDRESS, address);
    }

    /** An {@code int} parameter. */
    public KernelArgs i32(int value) {
        return add(Kind.INT, value & 0xffffffffL);
    }

    /** A {@code float} parameter. */
    public KernelArgs f32(float value) {
        return add(Kind.FLOAT, Float.floatToRawIntBits(value) & 0xffffffffL);
    }

    /** A {@code long long} (or {@code unsigned long long}) parameter. */
    public KernelArgs i64(long value) {
        return add(Kind.LONG, value);
    }

    private KernelArgs add(Kind kind, long raw) {
        if (count == kinds.length) {
            kinds = Arrays.copyOf(kinds, 2 * count);
            bits = Arrays.copyOf(bits, 2 * count);
        }
        kinds[count] = kind;
        bits[count] = raw;
        count++;
        return this;
    }

    /** How many arguments there are. */
    public int count() {
        return count;
    }

    /** The kind of argument {@code i}. */
    public Kind kind(int i) {
        return kinds[check(i)];
    }

    /** The raw bits of argument {@code i}: the address, the value, or a float's bits, zero-extended to 64. */
    public long bits(int i) {
        return bits[check(i)];
    }

    /** The address arguments, in order (null pointers included, as 0). */
    public long[] addresses() {
        long[] addresses = new long[count];
        int n = 0;
        for (int i = 0; i < count; i++) {
            if (kinds[i] == Kind.ADDRESS) {
                addresses[n++] = bits[i];
            }
        }
        return Arrays.copyOf(addresses, n);
    }

    /** Whether {@code other} holds the same arguments: the same kinds and bits in the same order. */
    public boolean sameAs(KernelArgs other) {
        if (other.count != count) {
            return false;
        }
        for (int i = 0; i < count; i++) {
            if (other.kinds[i] != kinds[i] || other.bits[i] != bits[i]) {
                return false;
            }
        }
        return true;
    }

    private int check(int i) {
        if (i < 0 || i >= count) {
            throw new IndexOutOfBoundsException("argument " + i + " of " + count);
        }
        return i;
    }

    @Override
    public String toString() {
        StringBuilder s = new StringBuilder("(");
        for (int i = 0; i < count; i++) {
            s.append(i == 0 ? "" : ", ").append(kinds[i]).append(' ').append(kinds[i] == Kind.FLOAT
                    ? Float.toString(Float.intBitsToFloat((int) bits[i])) : Long.toString(bits[i]));
        }
        return s.append(')').toString();
    }
}
