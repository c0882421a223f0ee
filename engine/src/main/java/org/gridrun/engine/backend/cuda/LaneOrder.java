package org.gridrun.engine.backend.cuda;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What each operation of a recorded step must wait for, so that the step's lanes (its workers' passes) may run at the
 * same time and still compute the bits of the step run in its recorded order.
 *
 * <p>An operation outside every lane waits for all that was recorded before it. An operation in a lane waits for the
 * one before it in the same lane (the first for the last operation outside the lanes), and for the last operation of
 * another lane that touched the same memory: the same allocation, or, in one whose lanes address disjoint slices
 * ({@link Sharing#SLICES}: the running statistics, the loss sums), the same address; memory no lane writes
 * ({@link Sharing#READ}: the parameters) orders nothing. A kernel's memory is where its address arguments point; an
 * address outside every allocation this class was told of counts as one memory shared by all. So a buffer that two
 * workers share by mistake orders their work rather than letting it race: a missed sharing costs speed, not bits.
 */
final class LaneOrder {
    /** How lanes use an allocation. */
    enum Sharing {
        /** Any two lanes that touch it run one after the other, in the recorded order. */
        ORDERED,
        /** Lanes only read it while they run (the parameters). */
        READ,
        /** Lanes write disjoint slices of it, each through its own address; ordered where an address repeats. */
        SLICES
    }

    /** An address outside every known allocation: one memory that orders every lane touching it. */
    static final long UNKNOWN = -1;

    /** An allocation: where it ends and how lanes use it. */
    private record Allocation(long end, Sharing sharing) {
    }

    /** The allocations by start. */
    private final NavigableMap<Long, Allocation> allocations = new TreeMap<>();

    void allocated(long address, long bytes) {
        allocations.put(address, new Allocation(address + Math.max(bytes, 1), Sharing.ORDERED));
    }

    void freed(long address) {
        allocations.remove(address);
    }

    /** Declares how lanes use the allocation holding {@code address}; false where none does. */
    boolean share(long address, Sharing sharing) {
        Map.Entry<Long, Allocation> a = holding(address);
        if (a == null) {
            return false;
        }
        allocations.put(a.getKey(), new Allocation(a.getValue().end(), sharing));
        return true;
    }

    /** The allocation holding {@code address}, by its start, or null. */
    private Map.Entry<Long, Allocation> holding(long address) {
        Map.Entry<Long, Allocation> a = allocations.floorEntry(address);
        return a == null || address >= a.getValue().end() ? null : a;
    }

    /**
     * The memories an operation touches through {@code addresses} (0 is no address), as units of ordering: an
     * allocation's start, an address of a {@link Sharing#SLICES} allocation, or {@link #UNKNOWN}.
     */
    long[] units(long... addresses) {
        long[] units = new long[addresses.length];
        int n = 0;
        for (long address : addresses) {
            if (address == 0) {
                continue;
            }
            Map.Entry<Long, Allocation> a = holding(address);
            Sharing sharing = a == null ? null : a.getValue().sharing();
            if (sharing == Sharing.READ) {
                continue;
            }
            units[n++] = a == null ? UNKNOWN : sharing == Sharing.SLICES ? address : a.getKey();
        }
        return Arrays.copyOf(units, n);
    }

    /**
     * For each of the recorded operations, of lanes {@code lanes} (−1: outside every lane) that touch {@code units},
     * the earlier operations it must wait for.
     */
    static int[][] after(int[] lanes, long[][] units) {
        int[][] after = new int[lanes.length][];
        int lastOutside = -1;
        Map<Integer, Integer> laneLast = new HashMap<>();
        // per unit: the last lane operation that touched it, and its lane
        Map<Long, int[]> touched = new HashMap<>();
        for (int i = 0; i < lanes.length; i++) {
            TreeSet<Integer> deps = new TreeSet<>();
            int lane = lanes[i];
            if (lane < 0) {
                if (laneLast.isEmpty()) {
                    if (lastOutside >= 0) {
                        deps.add(lastOutside);
                    }
                } else {
                    deps.addAll(laneLast.values());
                }
                lastOutside = i;
                laneLast.clear();
                touched.clear();
            } else {
                Integer before = laneLast.get(lane);
                if (before != null) {
                    deps.add(before);
                } else if (lastOutside >= 0) {
                    deps.add(lastOutside);
                }
                for (long unit : units[i]) {
                    int[] last = touched.get(unit);
                    if (last != null && last[1] != lane) {
                        deps.add(last[0]);
                    }
                    touched.put(unit, new int[] {i, lane});
                }
                laneLast.put(lane, i);
            }
            after[i] = deps.stream().mapToInt(Integer::intValue).toArray();
        }
        return after;
    }

    /** The operations on the longest chain of waits in {@code after}: what running lanes at once cannot shorten. */
    static int longestChain(int[][] after) {
        int[] depth = new int[after.length];
        int longest = 0;
        for (int i = 0; i < after.length; i++) {
            int d = 0;
            for (int j : after[i]) {
                d = Math.max(d, depth[j]);
            }
            depth[i] = d + 1;
            longest = Math.max(longest, depth[i]);
        }
        return longest;
    }
}
