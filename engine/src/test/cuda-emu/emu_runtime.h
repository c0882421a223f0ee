// The host emulator's device, as the JNI bridge (emu_jni.cpp) drives it: memory (emu_memory.cpp) and launches
// (emu_runtime.cpp). Every failure is an Error whose message says what went wrong where; none is fatal.
#pragma once

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>

namespace gr_emu {

struct Error : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// One allocation: its bytes lie between two guard zones that only an out-of-bounds write changes.
struct Allocation {
    uint64_t bytes;
    uint64_t id;  // 1, 2, … in allocation order, to name it in messages
    char* block;  // what was allocated: guard, the bytes rounded up to 256, guard
};

// The memory of one emulated device, keyed by address.
struct Device {
    std::map<uint64_t, Allocation> allocations;
    uint64_t allocated = 0;
};

// A new allocation of `bytes` bytes, aligned to 256 and filled with 0xFF (NaN as floats); 0 when the host cannot
// hold it.
uint64_t allocate(Device& device, uint64_t bytes);
// Frees an allocation, checking its guard zones first.
void release(Device& device, uint64_t address);
void release_all(Device& device);
// The allocation that starts last at or below `address` (its start in *base), or nullptr: whether the address lies
// inside it, or just past its end, is the caller's test.
const Allocation* allocation_below(Device& device, uint64_t address, uint64_t* base);
// The host pointer for [address, address + bytes), which must lie inside one allocation; `what` names the use.
char* at(Device& device, uint64_t address, uint64_t bytes, const char* what);
// Checks every allocation's guard zones and restores them; a message per damaged allocation, empty when none.
std::string check_guards(Device& device, const char* culprit);
uint64_t host_memory();

// The registered kernel of this name, or -1.
int find_kernel(const char* name);
// Runs a kernel to completion: grid and block are x, y, z; kinds are KernelArgs.Kind ordinals, slots their bits.
void launch(Device& device, int kernel, const unsigned grid[3], const unsigned block[3], int count, const int* kinds,
            const uint64_t* slots);

// What the race check (emu_race.cpp) needs to know of the running launch, kept up to date by the scheduler.
struct RaceClock {
    bool checking;            // a launch runs
    uint64_t block;           // the running block's linear id
    unsigned thread;          // the running thread's linear id in its block
    uint32_t barriers;        // the __syncthreads the block has passed
    uint32_t warp_syncs[32];  // the __syncwarp each warp of the block has passed
    uintptr_t stacks_begin;   // the fibers' stacks, each private to the thread running on it
    uintptr_t stacks_end;
};
extern RaceClock race_clock;

// Forgets every access recorded: a new launch of `kernel` on `device` begins.
void race_begin(Device& device, const char* kernel);
// Fails the running launch with `message`, from inside a kernel's thread.
[[noreturn]] void fail_launch(const std::string& message);

}  // namespace gr_emu
