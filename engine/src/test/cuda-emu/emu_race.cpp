// The host emulator's race check: which two threads of one launch touch the same byte, at least one of them writing,
// with nothing between them that orders the two on a GPU.
//
// The emulator runs a block's threads one after another between barriers, so a kernel whose threads race gives the
// same bits every run here while a GPU gives whichever order its warps took: lanes that add to the same shared
// counter in one instruction lose all but one addition there and none here. Running every other launch in reverse
// (emu_runtime.cpp) shows a read that comes too early; it cannot show a lost update. This check shows both, and
// says where.
//
// `scripts/build-cuda-emu.sh --racecheck` compiles the kernel sources with g++'s -fsanitize=thread, which calls a hook
// before every load and store the compiler could not keep in a register (__tsan_read4 and friends); the hooks are
// defined here, not by ThreadSanitizer's runtime, which the library does not link. Each hook records the access in
// a shadow of the bytes it touches and compares it with the last write and the last reads of those bytes:
//  - threads of one block are ordered by a __syncthreads both passed between the two accesses, lanes of one warp
//    also by a __syncwarp (a shuffle or a ballot exchanges registers, not memory, and orders nothing);
//  - two blocks of one launch are never ordered, so a byte of device memory one block writes and another touches is
//    a race; shared memory belongs to one block at a time, what an earlier block did there is forgotten;
//  - two launches are ordered: the shadow starts empty at every launch.
// A thread's own fiber stack is private and not recorded. The first race fails the launch with both threads, both
// places in the source (addr2line of the instrumented library, built with -g) and which memory. So do a read of
// shared memory that no thread of the block wrote, and an access at an address not a multiple of its size (a float4
// from a float array at an odd offset), on which a GPU faults. And so does a byte of memory that one thread reads
// through __ldg (the read-only cache, not coherent with the launch's stores) and any thread writes, in either order.
#include "cuda_emu.h"
#include "emu_runtime.h"

#include <dlfcn.h>
#include <link.h>

#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <unordered_map>

namespace gr_emu {

RaceClock race_clock;

namespace {

// One access to a 4-byte granule: who, when (in the block's barrier and the warp's __syncwarp counts) and where.
struct Access {
    uint32_t block;       // linear id
    uint32_t barriers;
    uint32_t warp_syncs;
    uint32_t pc;          // the instruction, as an offset into this library (Library)
    uint16_t thread;      // linear id in the block
    uint8_t bytes;        // which bytes of the granule, bit i for byte i
    bool write;
};

// What the shadow keeps of a granule: its last write and the reads since, at most two from different threads (the
// last two; a write that races with an older read races with them too unless they are ordered after it).
struct Cell {
    Access write;
    Access reads[2];
    uint32_t launch;  // the launch that recorded these; an earlier one's cell is empty
    uint8_t reads_held;
    bool written;
    bool device;          // inside a device allocation: blocks do not forget it
    bool shared;          // shared memory (the kernels' __shared__ variables)
    uint8_t initialised;  // the bytes written in this launch (of shared memory: by the block running there now)
    uint8_t read_only;    // the bytes read through __ldg in this launch
    Access read_only_by;  // the last such read
};

// The cells of every granule touched, a page of cells per 4 KiB of memory (a kernel's neighbouring accesses find
// neighbouring cells), each stamped with its launch so that a new launch forgets everything at no cost.
class Cells {
public:
    // The granule's cell, made empty when `fresh` (not yet touched in this launch).
    Cell& at(uintptr_t granule, bool& fresh) {
        uintptr_t page = granule >> 12;
        if (page != last_page_) {
            std::unique_ptr<Cell[]>& cells = pages_[page];
            if (!cells) {
                cells.reset(new Cell[PAGE_CELLS]());
            }
            last_page_ = page;
            last_ = cells.get();
        }
        Cell& cell = last_[(granule >> 2) & (PAGE_CELLS - 1)];
        fresh = cell.launch != launch_;
        if (fresh) {
            cell = Cell{};
            cell.launch = launch_;
        }
        return cell;
    }

    void clear() {
        launch_++;
        if (pages_.size() > MAX_PAGES) {
            pages_.clear();  // memory freed and allocated again leaves pages no launch touches any more
        }
        last_page_ = ~(uintptr_t) 0;
    }

private:
    static constexpr size_t PAGE_CELLS = 1024;
    static constexpr size_t MAX_PAGES = 8192;  // 512 MiB of cells

    std::unordered_map<uintptr_t, std::unique_ptr<Cell[]>> pages_;
    uintptr_t last_page_ = ~(uintptr_t) 0;
    Cell* last_ = nullptr;
    uint32_t launch_ = 1;
};

struct Shadow {
    bool shared_known = false;   // whether this launch has found its thread's __shared__ variables (SharedMemory)
    uintptr_t shared_begin = 0;
    uintptr_t shared_end = 0;
    Device* device = nullptr;
    const char* kernel = nullptr;
    Cells cells;
    uintptr_t last_base = 0;  // the allocation the last device access fell in, to skip the map's search
    uintptr_t last_end = 0;
};

// This library, whose instructions the accesses' pc offsets are into.
struct Library {
    uintptr_t base = 0;
    std::string file;
};

const Library& library() {
    static const Library self = [] {
        Dl_info info;
        Library found;
        if (dladdr((void*) &library, &info) != 0 && info.dli_fname != nullptr) {
            found.base = (uintptr_t) info.dli_fbase;
            found.file = info.dli_fname;
        }
        return found;
    }();
    return self;
}

Shadow shadow;

// Whether `earlier` happens before the access being made now (same block, as the caller checked).
bool ordered(const Access& earlier) {
    if (earlier.barriers != race_clock.barriers) {
        return true;
    }
    return earlier.thread / 32 == race_clock.thread / 32
           && earlier.warp_syncs != race_clock.warp_syncs[race_clock.thread / 32];
}

// file:line in function of an instrumented instruction (its pc offset), by addr2line in the library's debug
// information.
std::string place(uint32_t pc) {
    uint32_t offset = pc - 1;  // the return address of the hook: the instruction after the call
    char command[1024];
    std::snprintf(command, sizeof command, "addr2line -e '%s' -f -C 0x%" PRIx32 " 2>/dev/null",
                  library().file.c_str(), offset);
    std::string function;
    std::string line;
    if (FILE* out = popen(command, "r")) {
        char text[512];
        if (std::fgets(text, sizeof text, out)) {
            function = text;
        }
        if (std::fgets(text, sizeof text, out)) {
            line = text;
        }
        pclose(out);
    }
    auto chomp = [](std::string& s) {
        while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) {
            s.pop_back();
        }
    };
    chomp(function);
    chomp(line);
    if (line.empty() || line[0] == '?') {
        char text[160];
        std::snprintf(text, sizeof text, "%s+0x%" PRIx32, library().file.c_str(), offset);
        return text;
    }
    while (line.rfind("./", 0) == 0) {
        line.erase(0, 2);  // relative to the project root (-fdebug-prefix-map), as ././engine/…
    }
    // A unit is named as its source plus ".cpp" (scripts/build-cuda-emu.sh); the line is the source's.
    size_t unit = line.find(".cu.cpp:");
    if (unit != std::string::npos) {
        line.erase(unit + 3, 4);
    }
    size_t discriminator = line.find(" (discriminator");
    if (discriminator != std::string::npos) {
        line.erase(discriminator);
    }
    // Each source's namespace (gr_emu_<unit>::) and the parameter list only make the name long.
    for (size_t space; (space = function.find("gr_emu_")) != std::string::npos;) {
        size_t colons = function.find("::", space);
        function.erase(space, colons == std::string::npos ? std::string::npos : colons + 2 - space);
    }
    size_t parameters = function.find('(');
    if (parameters != std::string::npos) {
        function.erase(parameters);
    }
    if (function.rfind("void ", 0) == 0) {
        function.erase(0, 5);
    }
    return line + (function.empty() ? "" : " in " + function);
}

std::string thread_name(uint32_t block, unsigned thread) {
    char text[96];
    std::snprintf(text, sizeof text, "thread (%u,%u,%u) of block (%u,%u,%u)", thread % blockDim.x,
                  thread / blockDim.x % blockDim.y, thread / blockDim.x / blockDim.y, (unsigned) (block % gridDim.x),
                  (unsigned) (block / gridDim.x % gridDim.y), (unsigned) (block / gridDim.x / gridDim.y));
    return text;
}

bool in_shared_memory(uintptr_t address);

// The device allocation holding the byte at `address` (its start in *base), or nullptr.
const Allocation* allocation_at(uintptr_t address, uint64_t* base) {
    const Allocation* a = allocation_below(*shadow.device, address, base);
    return a != nullptr && address - *base < a->bytes ? a : nullptr;
}

// Which memory the byte at `address` is: a byte of an allocation, shared memory, or else a static of the library.
std::string memory_name(uintptr_t address) {
    uint64_t base;
    const Allocation* a = allocation_at(address, &base);
    if (a == nullptr) {
        return in_shared_memory(address) ? "shared memory" : "a static of the kernels' library";
    }
    char text[192];
    std::snprintf(text, sizeof text, "byte %" PRIu64 " of allocation #%" PRIu64 " (%" PRIu64 " bytes)",
                  (uint64_t) (address - base), a->id, a->bytes);
    return text;
}

[[noreturn]] void report(const Access& now, const Access& before, uintptr_t granule) {
    unsigned byte = (unsigned) __builtin_ctz(now.bytes & before.bytes);
    std::string memory = memory_name(granule + byte);
    const char* between = now.block != before.block ? "in another block of the same launch"
                          : now.thread / 32 == before.thread / 32
                              ? "in the same warp with no __syncwarp or __syncthreads between them"
                              : "with no __syncthreads between them";
    std::string text = std::string("data race in ") + shadow.kernel + ": " + thread_name(now.block, now.thread)
                       + (now.write ? " writes " : " reads ") + memory + " at " + place(now.pc) + ", which "
                       + thread_name(before.block, before.thread) + (before.write ? " wrote" : " read") + " at "
                       + place(before.pc) + ", " + between;
    fail_launch(text);
}

// A read of shared memory that no thread of the block wrote: a GPU gives whatever the multiprocessor's memory held,
// the emulator what its last block left (or zeros).
[[noreturn]] void uninitialised(const Access& now) {
    fail_launch(std::string("uninitialised shared memory in ") + shadow.kernel + ": "
                + thread_name(now.block, now.thread) + " reads shared memory at " + place(now.pc)
                + " that no thread of its block has written");
}

bool private_to_thread(uintptr_t address) {
    return address >= race_clock.stacks_begin && address < race_clock.stacks_end;
}

// Where the calling thread's __shared__ variables are. They are the library's thread-local variables
// (cuda_emu.h: `static thread_local`), so they fill its TLS block, one per OS thread and made when the thread first
// touches one: `touched` makes it, dlinfo finds it, and the library's PT_TLS program header gives its size.
struct SharedMemory {
    uintptr_t begin, end;
};

thread_local char touched;

SharedMemory shared_memory() {
    static const size_t bytes = [] {
        size_t found = 0;
        dl_iterate_phdr(
            [](dl_phdr_info* info, size_t, void* out) {
                if (info->dlpi_addr != library().base) {
                    return 0;
                }
                for (int h = 0; h < info->dlpi_phnum; h++) {
                    if (info->dlpi_phdr[h].p_type == PT_TLS) {
                        *(size_t*) out = info->dlpi_phdr[h].p_memsz;
                    }
                }
                return 1;
            },
            &found);
        return found;
    }();
    static void* const handle = dlopen(library().file.c_str(), RTLD_NOW | RTLD_NOLOAD);
    *(volatile char*) &touched = 0;
    void* block = nullptr;
    if (handle == nullptr || dlinfo(handle, RTLD_DI_TLS_DATA, &block) != 0 || block == nullptr) {
        return {0, 0};
    }
    return {(uintptr_t) block, (uintptr_t) block + bytes};
}

bool in_device_memory(uintptr_t address) {
    if (address >= shadow.last_base && address < shadow.last_end) {
        return true;
    }
    uint64_t base;
    const Allocation* a = allocation_at(address, &base);
    if (a == nullptr) {
        return false;
    }
    shadow.last_base = base;
    shadow.last_end = base + a->bytes;
    return true;
}

// Whether `address` is one of the launching thread's __shared__ variables: found at the launch's first question,
// so that launches of the plain emulator, which asks only when it reports, do not look for them.
bool in_shared_memory(uintptr_t address) {
    if (!shadow.shared_known) {
        SharedMemory shared = shared_memory();
        shadow.shared_begin = shared.begin;
        shadow.shared_end = shared.end;
        shadow.shared_known = true;
    }
    return address >= shadow.shared_begin && address < shadow.shared_end;
}

// The running thread's access of `bytes` of a granule, made now at `pc`.
Access access_now(uint8_t bytes, bool write, uint32_t pc) {
    return Access{(uint32_t) race_clock.block, race_clock.barriers, race_clock.warp_syncs[race_clock.thread / 32], pc,
                  (uint16_t) race_clock.thread, bytes, write};
}

// The granule's cell as access `now` finds it: empty at the launch's first touch, and emptied where it is shared
// memory that an earlier block of the launch used.
Cell& cell_for(uintptr_t granule, const Access& now) {
    bool fresh;
    Cell& cell = shadow.cells.at(granule, fresh);
    if (fresh) {
        cell.device = in_device_memory(granule);
        cell.shared = in_shared_memory(granule);
    } else if (!cell.device && (cell.written ? cell.write.block : cell.reads[0].block) != now.block) {
        cell.written = false;  // shared memory of a block that has finished
        cell.reads_held = 0;
        cell.initialised = 0;
    }
    return cell;
}

// A byte that `load` reads through __ldg and `store` writes in the same launch (`store` null: an earlier write of
// the launch, no longer held): the read-only cache may give its value from before the write.
[[noreturn]] void incoherent(const Access& load, const Access* store, uintptr_t granule, uint8_t bytes) {
    std::string memory = memory_name(granule + (unsigned) __builtin_ctz(bytes));
    std::string writer = store == nullptr ? std::string("the launch writes it")
                                          : thread_name(store->block, store->thread) + " writes it at "
                                                + place(store->pc);
    fail_launch(std::string("__ldg of written memory in ") + shadow.kernel + ": " + thread_name(load.block, load.thread)
                + " reads " + memory + " through __ldg at " + place(load.pc) + ", and " + writer
                + " in the same launch: the read-only cache is not coherent with the launch's stores (load it plainly)");
}

// A load through __ldg: of global memory only, and of bytes the launch does not write.
void record_read_only(uintptr_t granule, uint8_t bytes, uint32_t pc) {
    Access now = access_now(bytes, false, pc);
    Cell& cell = cell_for(granule, now);
    if (cell.shared) {
        fail_launch(std::string("__ldg of shared memory in ") + shadow.kernel + ": "
                    + thread_name(now.block, now.thread) + " at " + place(pc)
                    + " (the read-only cache serves global memory only)");
    }
    if ((cell.initialised & bytes) != 0) {
        bool held = cell.written && (cell.write.bytes & bytes) != 0;
        incoherent(now, held ? &cell.write : nullptr, granule, cell.initialised & bytes);
    }
    cell.read_only |= bytes;
    cell.read_only_by = now;
}

void record(uintptr_t granule, uint8_t bytes, bool write, uint32_t pc) {
    Access now = access_now(bytes, write, pc);
    Cell& cell = cell_for(granule, now);
    if (cell.shared && !write && (bytes & ~cell.initialised) != 0) {
        uninitialised(now);
    }
    if (write && (cell.read_only & bytes) != 0) {
        incoherent(cell.read_only_by, &now, granule, cell.read_only & bytes);
    }
    auto races = [&](const Access& before) {
        if ((before.bytes & bytes) == 0 || (before.block == now.block && before.thread == now.thread)) {
            return false;
        }
        return before.block != now.block || !ordered(before);
    };
    if (cell.written && races(cell.write)) {
        report(now, cell.write, granule);
    }
    if (write) {
        for (int r = 0; r < cell.reads_held; r++) {
            if (races(cell.reads[r])) {
                report(now, cell.reads[r], granule);
            }
        }
        cell.write = now;
        cell.written = true;
        cell.initialised |= bytes;
        cell.reads_held = 0;
        return;
    }
    for (int r = 0; r < cell.reads_held; r++) {
        Access& held = cell.reads[r];
        if (held.block == now.block && held.thread == now.thread) {
            now.bytes |= held.barriers == now.barriers && held.warp_syncs == now.warp_syncs ? held.bytes : 0;
            held = now;
            return;
        }
    }
    if (cell.reads_held < 2) {
        cell.reads[cell.reads_held++] = now;
    } else {
        cell.reads[0] = cell.reads[1];
        cell.reads[1] = now;
    }
}

// An access of `size` bytes at an address not a multiple of size: a GPU faults (CUDA_ERROR_MISALIGNED_ADDRESS)
// where x86 loads the bytes, or faults only for some instructions.
[[noreturn]] void fail_misaligned(uintptr_t address, unsigned size, bool write, const std::string& where) {
    fail_launch(std::string("misaligned access in ") + shadow.kernel + ": "
                + thread_name((uint32_t) race_clock.block, race_clock.thread) + (write ? " writes " : " reads ")
                + std::to_string(size) + " bytes at " + memory_name(address) + (where.empty() ? "" : " at " + where)
                + ", an address that is not a multiple of " + std::to_string(size)
                + " (a GPU faults: CUDA_ERROR_MISALIGNED_ADDRESS)");
}

[[noreturn]] void misaligned(uintptr_t address, unsigned size, bool write, uint32_t pc) {
    fail_misaligned(address, size, write, place(pc));
}

// `aligned`: the compiler took the access for one of its type's alignment, as nvcc does (an access g++ knows may be
// unaligned calls the __tsan_unaligned_ hooks, which nvcc would have compiled to smaller accesses too). `read_only`:
// a read through __ldg, recorded as that besides the plain read the instrumented load itself records.
void access(const void* p, unsigned size, bool write, const void* return_address, bool aligned,
            bool read_only = false) {
    if (!race_clock.checking) {
        return;
    }
    auto address = (uintptr_t) p;
    if (private_to_thread(address)) {
        return;
    }
    auto pc = (uint32_t) ((uintptr_t) return_address - library().base);
    if (aligned && (address & (size - 1)) != 0) {
        misaligned(address, size, write, pc);
    }
    uintptr_t end = address + size;
    for (uintptr_t granule = address & ~(uintptr_t) 3; granule < end; granule += 4) {
        uint8_t bytes = 0;
        for (unsigned b = 0; b < 4; b++) {
            bytes |= granule + b >= address && granule + b < end ? 1u << b : 0u;
        }
        if (read_only) {
            record_read_only(granule, bytes, pc);
        } else {
            record(granule, bytes, write, pc);
        }
    }
}

}  // namespace

// Both emulators: a float2 or float4 copied from or to an address not a multiple of its size (cuda_emu.h).
void misaligned_vector(const void* p, unsigned size, bool write, const char* file, int line) {
    fail_misaligned((uintptr_t) p, size, write, file != nullptr ? std::string(file) + ":" + std::to_string(line) : "");
}

// cuda_emu.h's __ldg in the race-checking build, before its load.
void read_only_load(const void* p, unsigned size) {
    access(p, size, false, __builtin_return_address(0), true, true);
}

void race_begin(Device& device, const char* kernel) {
    shadow.shared_known = false;
    shadow.device = &device;
    shadow.kernel = kernel;
    shadow.cells.clear();
    shadow.last_base = shadow.last_end = 0;
}

}  // namespace gr_emu

// The hooks g++'s -fsanitize=thread calls: a load or store of `size` bytes at p, by the running thread.
#define GR_EMU_HOOK(kind, size, write)                                                          \
    extern "C" GR_EMU_API void __tsan_##kind##size(void* p) {                                   \
        gr_emu::access(p, size, write, __builtin_return_address(0), true);                      \
    }                                                                                           \
    extern "C" GR_EMU_API void __tsan_unaligned_##kind##size(void* p) {                         \
        gr_emu::access(p, size, write, __builtin_return_address(0), false);                     \
    }
GR_EMU_HOOK(read, 1, false)
GR_EMU_HOOK(read, 2, false)
GR_EMU_HOOK(read, 4, false)
GR_EMU_HOOK(read, 8, false)
GR_EMU_HOOK(read, 16, false)
GR_EMU_HOOK(write, 1, true)
GR_EMU_HOOK(write, 2, true)
GR_EMU_HOOK(write, 4, true)
GR_EMU_HOOK(write, 8, true)
GR_EMU_HOOK(write, 16, true)
#undef GR_EMU_HOOK

extern "C" GR_EMU_API void __tsan_read_range(void* p, unsigned long size) {
    gr_emu::access(p, (unsigned) size, false, __builtin_return_address(0), false);
}
extern "C" GR_EMU_API void __tsan_write_range(void* p, unsigned long size) {
    gr_emu::access(p, (unsigned) size, true, __builtin_return_address(0), false);
}
extern "C" GR_EMU_API void __tsan_init() {}
extern "C" GR_EMU_API void __tsan_func_entry(void*) {}
extern "C" GR_EMU_API void __tsan_func_exit() {}
