package org.gridrun.engine.compress;

import java.nio.ByteOrder;
import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * {@link BitPacker}'s and {@link BitReader}'s whole-byte paths for 2-, 4- and 8-bit codes with the Vector API: sixteen
 * codes at once, combined in pairs within 64-bit lanes and narrowed to bytes (2-bit codes: their nibbles then gathered
 * in a long, through eight scratch bytes, since JDK 17 compiles no reinterpretation of a 64-bit vector), least significant bit first as the scalar packer writes them.
 *
 * <p>Loaded only when {@link org.gridrun.engine.simd.Simd#enabled()}; used only where the preferred vectors hold
 * sixteen ints ({@link #supported}), since narrower ones would leave fewer than eight bytes per vector.
 */
final class VectorPacking {
    private static final VectorSpecies<Integer> INTS = IntVector.SPECIES_512;
    private static final VectorSpecies<Long> LONGS = LongVector.SPECIES_512;
    private static final int CODES = INTS.length();

    private VectorPacking() {
    }

    /** Whether the machine's vectors are 512 bits wide. */
    static boolean supported() {
        return IntVector.SPECIES_PREFERRED.vectorBitSize() >= 512;
    }

    /**
     * Packs whole groups of sixteen of {@code codes[from … count)}, each masked to {@code width} (2, 4 or 8) bits, into
     * {@code out} from byte {@code p}, as far as the array holds them; returns how many codes it packed.
     */
    static int pack(int[] codes, int from, int count, int width, byte[] out, int p) {
        int bytes = 2 * width;
        int groups = Math.min((count - from) / CODES, (out.length - p) / bytes);
        byte[] scratch = new byte[8];
        for (int g = 0, i = from; g < groups; g++, i += CODES, p += bytes) {
            IntVector c = IntVector.fromArray(INTS, codes, i);
            if (width == 2) {
                LongVector pairs = c.and(3).reinterpretAsLongs();
                pairs.or(pairs.lanewise(VectorOperators.LSHR, 30)).and(0xFL)
                        .convertShape(VectorOperators.L2B, ByteVector.SPECIES_64, 0).reinterpretAsBytes()
                        .intoByteArray(scratch, 0, ByteOrder.LITTLE_ENDIAN);
                long nibbles = LittleEndian.getInt(scratch, 0) & 0xFFFFFFFFL | (long) LittleEndian.getInt(scratch, 4) << 32;
                LittleEndian.putInt(out, p, (int) gather(nibbles));
            } else if (width == 8) {
                c.convertShape(VectorOperators.I2B, ByteVector.SPECIES_128, 0).reinterpretAsBytes()
                        .intoByteArray(out, p, ByteOrder.LITTLE_ENDIAN);
            } else {
                LongVector pairs = c.and(0xF).reinterpretAsLongs();
                pairs.or(pairs.lanewise(VectorOperators.LSHR, 28)).and(0xFFL)
                        .convertShape(VectorOperators.L2B, ByteVector.SPECIES_64, 0).reinterpretAsBytes()
                        .intoByteArray(out, p, ByteOrder.LITTLE_ENDIAN);
            }
        }
        return groups * CODES;
    }

    /**
     * Unpacks whole groups of sixteen codes of {@code width} (2, 4 or 8) bits from byte {@code p} of {@code in} into
     * {@code codes[from … count)}, as far as the array holds them; returns how many codes it read.
     */
    static int unpack(byte[] in, int p, int[] codes, int from, int count, int width) {
        int bytes = 2 * width;
        int groups = Math.min((count - from) / CODES, (in.length - p) / bytes);
        byte[] scratch = new byte[8];
        for (int g = 0, i = from; g < groups; g++, i += CODES, p += bytes) {
            if (width == 2) {
                long nibbles = spread(LittleEndian.getInt(in, p) & 0xFFFFFFFFL);
                LittleEndian.putInt(scratch, 0, (int) nibbles);
                LittleEndian.putInt(scratch, 4, (int) (nibbles >>> 32));
                LongVector b = (LongVector) ByteVector.fromByteArray(ByteVector.SPECIES_64, scratch, 0,
                        ByteOrder.LITTLE_ENDIAN).convertShape(VectorOperators.B2L, LONGS, 0);
                b.and(3L).or(b.and(0xCL).lanewise(VectorOperators.LSHL, 30)).reinterpretAsInts().intoArray(codes, i);
            } else if (width == 8) {
                ((IntVector) ByteVector.fromByteArray(ByteVector.SPECIES_128, in, p, ByteOrder.LITTLE_ENDIAN)
                        .convertShape(VectorOperators.B2I, INTS, 0)).and(0xFF).intoArray(codes, i);
            } else {
                LongVector b = (LongVector) ByteVector.fromByteArray(ByteVector.SPECIES_64, in, p,
                        ByteOrder.LITTLE_ENDIAN).convertShape(VectorOperators.B2L, LONGS, 0);
                b.and(0xFL).or(b.and(0xF0L).lanewise(VectorOperators.LSHL, 28)).reinterpretAsInts()
                        .intoArray(codes, i);
            }
        }
        return groups * CODES;
    }

    /** The low nibbles of the eight bytes of {@code nibbles}, side by side in 32 bits. */
    private static long gather(long nibbles) {
        long t = (nibbles | nibbles >>> 4) & 0x00FF00FF00FF00FFL;
        t = (t | t >>> 8) & 0x0000FFFF0000FFFFL;
        return (t | t >>> 16) & 0xFFFFFFFFL;
    }

    /** {@link #gather}'s inverse: the eight nibbles of 32 bits, each in the low half of its own byte. */
    private static long spread(long bits) {
        long t = (bits | bits << 16) & 0x0000FFFF0000FFFFL;
        t = (t | t << 8) & 0x00FF00FF00FF00FFL;
        return (t | t << 4) & 0x0F0F0F0F0F0F0F0FL;
    }
}
