package org.gridrun.engine.backend.cuda;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.gridrun.engine.backend.cuda.LaneOrder.Sharing;
import org.junit.jupiter.api.Test;

/**
 * What each operation of a step waits for: outside the lanes, everything before it; in a lane, the lane's operation
 * before it and the other lanes' last touch of the same memory (the allocation, an address of a sliced one, nothing
 * of a read one, and any address outside the known allocations).
 */
class LaneOrderTest {
    private static final long A = 0x1000;
    private static final long B = 0x2000;
    private static final long SLICED = 0x3000;
    private static final long READ = 0x4000;

    private static LaneOrder order() {
        LaneOrder order = new LaneOrder();
        order.allocated(A, 256);
        order.allocated(B, 256);
        order.allocated(SLICED, 256);
        order.allocated(READ, 256);
        assertTrue(order.share(SLICED, Sharing.SLICES));
        assertTrue(order.share(READ + 8, Sharing.READ));
        return order;
    }

    @Test
    void unitsAreAllocationsAddressesOfSlicedOnesNothingOfReadOnesAndOneForUnknownMemory() {
        LaneOrder order = order();
        assertArrayEquals(new long[] {A, A, SLICED + 16, LaneOrder.UNKNOWN},
                order.units(A + 4, A + 255, SLICED + 16, READ + 4, 0, A + 256 * 64));
        assertFalse(order.share(0x9000, Sharing.READ), "no allocation there");
        order.freed(B);
        assertArrayEquals(new long[] {LaneOrder.UNKNOWN}, order.units(B));
    }

    @Test
    void lanesWaitForTheirOwnOperationsTheForkAndOtherLanesTouchingTheSameMemory() {
        LaneOrder order = order();
        int[] lanes = {-1, 0, 0, 1, 1, 1, 2, -1};
        long[][] units = {
            null,
            order.units(A, READ),           // 1: lane 0 on A
            order.units(SLICED),            // 2: lane 0 on a slice
            order.units(B, READ),           // 3: lane 1 on B: only the fork
            order.units(SLICED + 4),        // 4: another slice: only its lane
            order.units(A),                 // 5: A, which lane 0 touched at 1
            order.units(SLICED, 0x9000),    // 6: lane 2: the slice of 2, and unknown memory
            null
        };
        int[][] after = LaneOrder.after(lanes, units);
        assertArrayEquals(new int[] {}, after[0]);
        assertArrayEquals(new int[] {0}, after[1]);
        assertArrayEquals(new int[] {1}, after[2]);
        assertArrayEquals(new int[] {0}, after[3]);
        assertArrayEquals(new int[] {3}, after[4]);
        assertArrayEquals(new int[] {1, 4}, after[5]);
        assertArrayEquals(new int[] {0, 2}, after[6]);
        // the join waits for every lane's last operation
        assertArrayEquals(new int[] {2, 5, 6}, after[7]);
        assertEquals(5, LaneOrder.longestChain(after), "0, 3, 4, 5, 7");
    }

    @Test
    void withoutLanesEveryOperationWaitsForTheOneBefore() {
        int[][] after = LaneOrder.after(new int[] {-1, -1, -1}, new long[3][]);
        assertArrayEquals(new int[][] {{}, {0}, {1}}, after);
        assertEquals(3, LaneOrder.longestChain(after));
    }
}
