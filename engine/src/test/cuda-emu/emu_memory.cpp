// Device memory of the host emulator: host allocations whose addresses the kernels get as pointers.
//
// New memory is 0xFF bytes, a NaN in every float, so that a kernel that reads what nothing wrote shows it in its
// results. Each allocation sits between two guard zones filled with a known pattern; an out-of-bounds write changes
// them, and since the launcher checks every zone after every launch, the error names the kernel that wrote.
#include "emu_runtime.h"

#include <unistd.h>

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace gr_emu {
namespace {

constexpr uint64_t ALIGN = 256;
constexpr uint64_t GUARD = 4096;
// The guard pattern, by address: byte a of a zone is byte (a mod 8) of this word, so aligned words compare whole.
constexpr uint64_t PATTERN = 0x6a5d3c1e9b2f4807ULL;

uint8_t pattern_byte(uint64_t address) {
    return (uint8_t) (PATTERN >> (8 * (address & 7)));
}

void fill_guard(char* from, char* to) {
    for (; from < to && ((uintptr_t) from & 7); from++) {
        *from = (char) pattern_byte((uintptr_t) from);
    }
    for (; from + 8 <= to; from += 8) {
        std::memcpy(from, &PATTERN, 8);
    }
    for (; from < to; from++) {
        *from = (char) pattern_byte((uintptr_t) from);
    }
}

// Whether [from, to) holds the pattern: a test of every zone after every launch, so the aligned words are compared
// together (the loop vectorises) and only a zone that fails is looked at byte by byte.
bool intact(const char* from, const char* to) {
    for (; from < to && ((uintptr_t) from & 7); from++) {
        if ((uint8_t) *from != pattern_byte((uintptr_t) from)) {
            return false;
        }
    }
    uint64_t diff = 0;
    for (; from + 8 <= to; from += 8) {
        uint64_t word;
        std::memcpy(&word, from, 8);
        diff |= word ^ PATTERN;
    }
    for (; from < to; from++) {
        diff |= (uint8_t) *from ^ pattern_byte((uintptr_t) from);
    }
    return diff == 0;
}

// The first and one past the last changed byte of [from, to).
std::pair<char*, char*> damage(char* from, char* to) {
    char* first = nullptr;
    char* last = nullptr;
    for (char* p = from; p < to; p++) {
        if ((uint8_t) *p != pattern_byte((uintptr_t) p)) {
            first = first ? first : p;
            last = p + 1;
        }
    }
    return {first, last};
}

uint64_t padded(uint64_t bytes) {
    return (bytes + ALIGN - 1) / ALIGN * ALIGN;
}

std::string describe(uint64_t base, const Allocation& a) {
    char text[96];
    std::snprintf(text, sizeof text, "allocation #%" PRIu64 " (%" PRIu64 " bytes at 0x%" PRIx64 ")", a.id, a.bytes,
                  base);
    return text;
}

// What the guard zones of one allocation show, restoring them; empty when intact.
std::string check(uint64_t base, const Allocation& a, const char* culprit) {
    char* start = (char*) base;
    char* end = start + padded(a.bytes) + GUARD;
    std::string found;
    for (auto [from, to] : {std::pair{a.block, start}, std::pair{start + a.bytes, end}}) {
        if (intact(from, to)) {
            continue;
        }
        auto [first, last] = damage(from, to);
        char text[160];
        std::snprintf(text, sizeof text, "%s wrote outside %s: bytes %" PRId64 " to %" PRId64 " from its start",
                      culprit, describe(base, a).c_str(), (int64_t) (first - start), (int64_t) (last - start) - 1);
        found += found.empty() ? text : std::string("; ") + text;
        fill_guard(from, to);
    }
    return found;
}

}  // namespace

uint64_t host_memory() {
    return (uint64_t) sysconf(_SC_PHYS_PAGES) * (uint64_t) sysconf(_SC_PAGE_SIZE);
}

uint64_t allocate(Device& device, uint64_t bytes) {
    if (bytes > host_memory()) {
        return 0;
    }
    uint64_t total = GUARD + padded(bytes) + GUARD;
    auto* block = (char*) std::aligned_alloc(ALIGN, total);
    if (block == nullptr) {
        return 0;
    }
    char* start = block + GUARD;
    fill_guard(block, start);
    std::memset(start, 0xFF, bytes);
    fill_guard(start + bytes, block + total);
    device.allocations[(uint64_t) start] = {bytes, ++device.allocated, block};
    return (uint64_t) start;
}

void release(Device& device, uint64_t address) {
    auto it = device.allocations.find(address);
    if (it == device.allocations.end()) {
        char text[96];
        std::snprintf(text, sizeof text, "free of 0x%" PRIx64 ", which is no live allocation", address);
        throw Error(text);
    }
    std::string damaged = check(it->first, it->second, "something (found at free)");
    std::free(it->second.block);
    device.allocations.erase(it);
    if (!damaged.empty()) {
        throw Error(damaged);
    }
}

void release_all(Device& device) {
    for (auto& [base, a] : device.allocations) {
        std::free(a.block);
    }
    device.allocations.clear();
}

const Allocation* allocation_below(Device& device, uint64_t address, uint64_t* base) {
    auto it = device.allocations.upper_bound(address);
    if (it == device.allocations.begin()) {
        return nullptr;
    }
    --it;
    *base = it->first;
    return &it->second;
}

char* at(Device& device, uint64_t address, uint64_t bytes, const char* what) {
    uint64_t base;
    const Allocation* a = allocation_below(device, address, &base);
    if (a != nullptr && address - base <= a->bytes && bytes <= a->bytes - (address - base)) {
        return (char*) address;
    }
    char text[192];
    std::snprintf(text, sizeof text, "%s: %" PRIu64 " bytes at 0x%" PRIx64 " are not inside one live allocation",
                  what, bytes, address);
    throw Error(text);
}

std::string check_guards(Device& device, const char* culprit) {
    std::string found;
    for (auto& [base, a] : device.allocations) {
        std::string damaged = check(base, a, culprit);
        if (!damaged.empty()) {
            found += found.empty() ? damaged : "; " + damaged;
        }
    }
    return found;
}

}  // namespace gr_emu
