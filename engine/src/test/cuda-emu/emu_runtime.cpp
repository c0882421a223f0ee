// The host emulator's launches: every thread of a block is a fiber, run cooperatively on the calling OS thread.
//
// Blocks run one after another (x fastest, then y, then z; in a reverse launch, below, the last block first, so that a
// block which reads what another block of the same launch writes finds it written in one order and not in the other,
// as it may or may not on a GPU). A block's threads start in order of their linear id
// (threadIdx.x fastest), each running until it returns or waits at a barrier or warp operation; a barrier releases
// once every thread that has not returned has arrived, a warp operation once every live lane of the warp has.
// Every other launch runs its threads in the reverse order (they start, and a barrier or warp operation releases them,
// from the highest linear id down), so that a kernel which reads what another thread of its block wrote without a
// barrier in between reads it too early in one of the two orders and gives other results, as it would on a GPU,
// instead of always finding the lower threads' writes done. GRIDRUN_EMU_ORDER=forward (or reverse) fixes one order.
// Threads start on a "runner": a fiber that calls the kernel for one thread after another on its own stack, so a
// kernel that never waits runs its whole launch on one fiber without switching. When a thread waits, it keeps the
// runner's stack and the scheduler starts a new runner for the threads not yet started. When nothing can run while
// some thread still waits, that is a deadlock, reported with where each thread waits, never a hang.
#include "cuda_emu.h"
#include "emu_runtime.h"

#include <sys/mman.h>

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <vector>

#if defined(__x86_64__) && !defined(GR_EMU_UCONTEXT)
#define GR_EMU_SWITCH 1  // the hand-written switch below
#else
#include <ucontext.h>
#endif

uint3 threadIdx;
uint3 blockIdx;
dim3 blockDim;
dim3 gridDim;

namespace gr_emu {
namespace {

constexpr unsigned MAX_THREADS = 1024;
constexpr unsigned FULL_MASK = 0xffffffffu;
constexpr size_t STACK_BYTES = 64 << 10;
constexpr size_t GUARD_PAGE = 4096;  // inaccessible, under each stack: a deep overflow faults instead of corrupting
constexpr size_t CANARY_BYTES = 1024;  // at the bottom of each stack: a shallow overflow is reported
constexpr unsigned char CANARY = 0xC5;

// ---- Context switching.
#if GR_EMU_SWITCH
// Saves the callee-saved registers on the current stack, stores the stack pointer in *from, and resumes the stack
// `to` by popping its registers. Unlike swapcontext it makes no sigprocmask system call. MXCSR and the x87 control
// word are callee-saved too, but no kernel changes them, so every fiber shares the caller's.
extern "C" void gr_emu_switch(void** from, void* to);
asm(R"(
    .pushsection .text
    .globl gr_emu_switch
    .hidden gr_emu_switch
    .type gr_emu_switch, @function
gr_emu_switch:
    pushq %rbp
    pushq %rbx
    pushq %r12
    pushq %r13
    pushq %r14
    pushq %r15
    movq %rsp, (%rdi)
    movq %rsi, %rsp
    popq %r15
    popq %r14
    popq %r13
    popq %r12
    popq %rbx
    popq %rbp
    ret
    .size gr_emu_switch, .-gr_emu_switch
    .popsection
)");

struct Context {
    void* sp;
};

void switch_to(Context& from, Context& to) {
    gr_emu_switch(&from.sp, to.sp);
}

// A context that enters `entry` on the stack [base, base + bytes) when switched to; entry never returns.
void prepare(Context& c, char* base, size_t bytes, void (*entry)()) {
    auto** sp = (void**) ((uintptr_t) (base + bytes) & ~(uintptr_t) 15);
    *--sp = nullptr;          // entry's return address, so that it starts with the stack aligned as after a call
    *--sp = (void*) entry;    // where gr_emu_switch returns to
    for (int i = 0; i < 6; i++) {
        *--sp = nullptr;      // rbp, rbx, r12 to r15
    }
    c.sp = sp;
}
#else
struct Context {
    ucontext_t uc;
};

void switch_to(Context& from, Context& to) {
    swapcontext(&from.uc, &to.uc);
}

void prepare(Context& c, char* base, size_t bytes, void (*entry)()) {
    getcontext(&c.uc);
    c.uc.uc_stack.ss_sp = base;
    c.uc.uc_stack.ss_size = bytes;
    c.uc.uc_link = nullptr;
    makecontext(&c.uc, entry, 0);
}
#endif

// ---- The registry the build script fills, one add_kernel per kernel, before the library's first use.
std::vector<Kernel>& registry() {
    static std::vector<Kernel> kernels;
    return kernels;
}

const char* const KIND_NAMES[] = {"ADDRESS", "INT", "FLOAT", "LONG"};
const int KIND_BYTES[] = {8, 4, 4, 8};

std::string format(const char* pattern, ...) __attribute__((format(printf, 1, 2)));
std::string format(const char* pattern, ...) {
    char text[512];
    va_list args;
    va_start(args, pattern);
    std::vsnprintf(text, sizeof text, pattern, args);
    va_end(args);
    return text;
}

bool same_place(const char* file, int line, const char* other_file, int other_line) {
    return line == other_line && (file == other_file || std::strcmp(file, other_file) == 0);
}

std::string where(const char* file, int line) {
    return format("%s:%d", file, line);
}

// ---- Fiber stacks: made when first needed (one region reserved for all), kept for every later launch.
class Stacks {
public:
    Stacks() {
        region_ = (char*) mmap(nullptr, MAX_THREADS * (GUARD_PAGE + STACK_BYTES), PROT_READ | PROT_WRITE,
                               MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (region_ == MAP_FAILED) {
            throw Error("cannot reserve the emulator's fiber stacks");
        }
    }
    ~Stacks() {
        munmap(region_, MAX_THREADS * (GUARD_PAGE + STACK_BYTES));
    }

    // A stack no fiber holds, and its context set to enter `entry`.
    int take(void (*entry)()) {
        if (free_.empty()) {
            char* guard = region_ + made_ * (GUARD_PAGE + STACK_BYTES);
            mprotect(guard, GUARD_PAGE, PROT_NONE);
            std::memset(guard + GUARD_PAGE, CANARY, CANARY_BYTES);
            free_.push_back(made_++);
        }
        int s = free_.back();
        free_.pop_back();
        used_[s] = true;
        prepare(contexts_[s], base(s), STACK_BYTES, entry);
        return s;
    }

    void give(int s) {
        free_.push_back(s);
    }

    // After a launch: every stack is free again; false when a fiber wrote into a canary.
    bool reset() {
        bool intact = true;
        free_.clear();
        for (int s = made_ - 1; s >= 0; s--) {
            for (size_t i = 0; used_[s] && i < CANARY_BYTES; i++) {
                intact &= (unsigned char) base(s)[i] == CANARY;
            }
            used_[s] = false;
            free_.push_back(s);
        }
        return intact;
    }

    Context& context(int s) {
        return contexts_[s];
    }

    // The addresses of every stack, made or not.
    uintptr_t begin() const {
        return (uintptr_t) region_;
    }
    uintptr_t end() const {
        return (uintptr_t) region_ + MAX_THREADS * (GUARD_PAGE + STACK_BYTES);
    }

private:
    char* base(int s) {
        return region_ + s * (GUARD_PAGE + STACK_BYTES) + GUARD_PAGE;
    }

    char* region_;
    int made_ = 0;
    std::vector<int> free_;
    bool used_[MAX_THREADS] = {};
    Context contexts_[MAX_THREADS];
};

// The next threadIdx in the order of linear thread ids.
void step(uint3& i) {
    if (++i.x == blockDim.x) {
        i.x = 0;
        if (++i.y == blockDim.y) {
            i.y = 0;
            i.z++;
        }
    }
}

enum State : uint8_t { UNSTARTED, RUNNING, AT_BARRIER, AT_WARP, READY, DONE };

struct Thread {
    State state;
    int8_t source;   // the lane whose value a warp operation returns to this one
    uint16_t stack;  // the stack the thread runs on
    uint3 index;     // its threadIdx, worked out as threads start (dividing by blockDim costs more than the switch)
    uint64_t value;  // what it gives to a warp operation, then what it gets back
};

struct Warp {
    unsigned arrived;
    unsigned live;
    WarpOp op;
    int width;
    const char* file;
    int line;
};

const char* const OP_NAMES[] = {"__syncwarp", "__shfl_sync", "__shfl_down_sync", "__shfl_xor_sync",
                                "__ballot_sync"};

// Runs one launch at a time; kernels reach it through `active` from the barrier and warp functions.
class Scheduler {
public:
    void run(const Kernel& kernel, const uint64_t* slots, const unsigned grid[3], const unsigned block[3]);

    void barrier(const char* file, int line);
    uint64_t warp(WarpOp op, unsigned mask, uint64_t value, int arg, int width, const char* file, int line);

    static void runner_entry();
    [[noreturn]] void fail(const std::string& message);

private:
    [[noreturn]] void runner(int stack);
    bool next_block();
    void resume(unsigned t);
    void finish(unsigned t);
    void wait(unsigned t);
    void release_barrier();
    void release_warp(Warp& w, unsigned first);
    std::string thread_name(unsigned t) const;
    std::string block_name() const;
    std::string deadlock() const;

    // The ready queue: threads a barrier released, to resume in order; each is in it at most once.
    void push(unsigned t) {
        thread_[t].state = READY;
        ready_[ready_tail_++ % MAX_THREADS] = (uint16_t) t;
    }
    bool any_ready() const {
        return ready_head_ != ready_tail_;
    }
    unsigned pop() {
        return ready_[ready_head_++ % MAX_THREADS];
    }

    Stacks stacks_;
    Context main_;
    int starting_stack_ = -1;

    const Kernel* kernel_ = nullptr;
    const uint64_t* slots_ = nullptr;
    uint64_t blocks_ = 0;
    uint64_t next_block_ = 0;
    unsigned threads_ = 0;
    std::string error_;

    unsigned started_ = 0;
    uint3 next_index_ = {};  // threadIdx of the next thread to start, in forward order
    bool reverse_ = false;   // whether this launch's threads start and resume from the highest linear id down
    uint64_t launches_ = 0;
    unsigned live_ = 0;
    unsigned current_ = 0;
    unsigned at_barrier_ = 0;
    const char* barrier_file_ = nullptr;
    int barrier_line_ = 0;
    unsigned ready_head_ = 0;
    unsigned ready_tail_ = 0;
    uint16_t ready_[MAX_THREADS];
    Thread thread_[MAX_THREADS];
    Warp warp_[MAX_THREADS / 32];
};

// One launch at a time in the process: the scheduler and threadIdx and friends are plain globals, because reading a
// thread-local variable of a dlopen'ed library costs a call (__tls_get_addr), which made a short thread 6 times
// slower.
std::mutex launching;
Scheduler* active;

void Scheduler::run(const Kernel& kernel, const uint64_t* slots, const unsigned grid[3], const unsigned block[3]) {
    kernel_ = &kernel;
    slots_ = slots;
    gridDim = {grid[0], grid[1], grid[2]};
    blockDim = {block[0], block[1], block[2]};
    blocks_ = (uint64_t) grid[0] * grid[1] * grid[2];
    threads_ = block[0] * block[1] * block[2];
    next_block_ = 0;
    static const char* order = std::getenv("GRIDRUN_EMU_ORDER");
    reverse_ = order != nullptr && std::strcmp(order, "forward") == 0 ? false
               : order != nullptr && std::strcmp(order, "reverse") == 0 ? true
                                                                        : (launches_ & 1) != 0;
    launches_++;
    error_.clear();
    race_clock.stacks_begin = stacks_.begin();
    race_clock.stacks_end = stacks_.end();
    next_block();
    active = this;
    race_clock.checking = true;
    while (error_.empty()) {
        if (any_ready()) {
            unsigned t = pop();
            resume(t);
            switch_to(main_, stacks_.context(thread_[t].stack));
        } else if (started_ < threads_) {
            // Every stack taken is held by a waiting thread, fewer than the block's threads: there is a free one.
            starting_stack_ = stacks_.take(&runner_entry);
            switch_to(main_, stacks_.context(starting_stack_));
        } else if (live_ > 0) {
            error_ = deadlock();
        } else if (!next_block()) {
            break;
        }
    }
    active = nullptr;
    race_clock.checking = false;
    if (!stacks_.reset() && error_.empty()) {
        error_ = format("%s used more than %zu KiB of stack in a thread", kernel.name,
                        (STACK_BYTES - CANARY_BYTES) >> 10);
    }
    if (!error_.empty()) {
        throw Error(error_);
    }
}

void Scheduler::runner_entry() {
    active->runner(active->starting_stack_);
}

void Scheduler::runner(int stack) {
    for (;;) {
        while (started_ < threads_) {
            unsigned t = reverse_ ? threads_ - 1 - started_ : started_;
            started_++;
            thread_[t].stack = (uint16_t) stack;
            if (reverse_) {
                thread_[t].index = {t % blockDim.x, t / blockDim.x % blockDim.y, t / (blockDim.x * blockDim.y)};
            } else {
                thread_[t].index = next_index_;
                step(next_index_);
            }
            resume(t);
            kernel_->invoke(kernel_->entry, slots_);
            finish(t);
        }
        // The block is over when its last thread returned here; this runner goes on with the next one.
        if (live_ > 0 || !next_block()) {
            break;
        }
    }
    stacks_.give(stack);
    switch_to(stacks_.context(stack), main_);
    __builtin_unreachable();  // the scheduler never switches back to a runner that gave its stack away
}

bool Scheduler::next_block() {
    if (next_block_ == blocks_) {
        return false;
    }
    uint64_t b = next_block_++;
    if (reverse_) {
        b = blocks_ - 1 - b;
    }
    blockIdx = {(unsigned) (b % gridDim.x), (unsigned) (b / gridDim.x % gridDim.y),
                (unsigned) (b / gridDim.x / gridDim.y)};
    started_ = 0;
    next_index_ = {0, 0, 0};
    live_ = threads_;
    at_barrier_ = 0;
    race_clock.block = b;
    race_clock.barriers = 0;
    std::memset(race_clock.warp_syncs, 0, sizeof race_clock.warp_syncs);
    ready_head_ = ready_tail_ = 0;
    for (unsigned t = 0; t < threads_; t++) {
        thread_[t].state = UNSTARTED;
    }
    for (unsigned w = 0; w * 32 < threads_; w++) {
        warp_[w] = {0, std::min(32u, threads_ - w * 32), SYNCWARP, 0, nullptr, 0};
    }
    return true;
}

void Scheduler::resume(unsigned t) {
    current_ = t;
    race_clock.thread = t;
    thread_[t].state = RUNNING;
    threadIdx = thread_[t].index;
}

void Scheduler::finish(unsigned t) {
    thread_[t].state = DONE;
    live_--;
    Warp& w = warp_[t / 32];
    w.live--;
    if (w.arrived > 0 && w.arrived == w.live) {
        release_warp(w, t & ~31u);
    }
    if (at_barrier_ > 0 && at_barrier_ == live_) {
        release_barrier();
    }
}

// Suspends thread t: straight to the next ready thread when there is one (half the switches of going through the
// scheduler), else back to the scheduler, which starts threads or finds the deadlock.
void Scheduler::wait(unsigned t) {
    Context& from = stacks_.context(thread_[t].stack);
    if (!any_ready()) {
        switch_to(from, main_);
        return;
    }
    unsigned next = pop();
    resume(next);
    switch_to(from, stacks_.context(thread_[next].stack));
}

void Scheduler::fail(const std::string& message) {
    error_ = message;
    switch_to(stacks_.context(thread_[current_].stack), main_);
    __builtin_unreachable();  // a failed launch resumes none of its fibers
}

void Scheduler::barrier(const char* file, int line) {
    unsigned t = current_;
    if (at_barrier_ == 0) {
        barrier_file_ = file;
        barrier_line_ = line;
    } else if (!same_place(file, line, barrier_file_, barrier_line_)) {
        unsigned waiting = 0;
        while (thread_[waiting].state != AT_BARRIER) {
            waiting++;
        }
        fail(format("deadlock in %s, block %s: thread %s reached __syncthreads at %s while thread %s waits at %s "
                    "(every thread of a block must reach the same barrier)",
                    kernel_->name, block_name().c_str(), thread_name(t).c_str(), where(file, line).c_str(),
                    thread_name(waiting).c_str(), where(barrier_file_, barrier_line_).c_str()));
    }
    thread_[t].state = AT_BARRIER;
    if (++at_barrier_ == live_) {
        release_barrier();  // the last to arrive goes on without switching
        thread_[t].state = RUNNING;
        return;
    }
    wait(t);
}

void Scheduler::release_barrier() {
    at_barrier_ = 0;
    race_clock.barriers++;
    for (unsigned k = 0; k < threads_; k++) {
        unsigned u = reverse_ ? threads_ - 1 - k : k;
        if (thread_[u].state == AT_BARRIER && u != current_) {
            push(u);
        }
    }
}

uint64_t Scheduler::warp(WarpOp op, unsigned mask, uint64_t value, int arg, int width, const char* file, int line) {
    unsigned t = current_;
    unsigned lane = t & 31;
    Warp& w = warp_[t / 32];
    if (mask != FULL_MASK || width < 1 || width > 32 || (width & (width - 1)) != 0) {
        fail(format("%s in %s at %s: mask 0x%x, width %d; gridrun kernels use the full mask and a width that is a "
                    "power of 2 up to 32", OP_NAMES[op], kernel_->name, where(file, line).c_str(), mask, width));
    }
    if (w.arrived == 0) {
        w.op = op;
        w.width = width;
        w.file = file;
        w.line = line;
    } else if (op != w.op || width != w.width || !same_place(file, line, w.file, w.line)) {
        unsigned waiting = t & ~31u;
        while (thread_[waiting].state != AT_WARP) {
            waiting++;
        }
        fail(format("deadlock in %s, block %s: thread %s reached %s at %s while thread %s of its warp waits at %s "
                    "at %s (every lane of a warp must reach the same warp operation)",
                    kernel_->name, block_name().c_str(), thread_name(t).c_str(), OP_NAMES[op],
                    where(file, line).c_str(), thread_name(waiting).c_str(), OP_NAMES[w.op],
                    where(w.file, w.line).c_str()));
    }
    // The source lane as the shfl instruction finds it: within the lane's segment of `width` lanes, or itself.
    int b = arg & 31;
    int last = (int) (lane | (width - 1));
    int source = op == SHFL ? (int) (lane & ~(width - 1)) | (b & (width - 1))
                 : op == SHFL_DOWN ? (int) lane + b
                 : op == SHFL_XOR ? (int) (lane ^ b)
                                  : (int) lane;
    thread_[t].source = (int8_t) (source > last ? lane : source);
    thread_[t].value = value;
    thread_[t].state = AT_WARP;
    if (++w.arrived == w.live) {
        release_warp(w, t & ~31u);
        thread_[t].state = RUNNING;
    } else {
        wait(t);
    }
    return thread_[t].value;
}

void Scheduler::release_warp(Warp& w, unsigned first) {
    unsigned end = std::min(first + 32, threads_);
    uint64_t got[32];
    uint64_t ballot = 0;
    if (w.op == BALLOT) {
        for (unsigned u = first; u < end; u++) {
            if (thread_[u].state == AT_WARP && thread_[u].value != 0) {
                ballot |= 1ULL << (u - first);
            }
        }
    }
    for (unsigned u = first; u < end; u++) {
        if (thread_[u].state != AT_WARP) {
            continue;
        }
        if (w.op == BALLOT) {
            got[u - first] = ballot;
            continue;
        }
        unsigned from = first + thread_[u].source;
        if (from >= end || thread_[from].state != AT_WARP) {
            fail(format("%s in %s, block %s at %s: thread %s reads lane %d, which %s (every lane of the warp must "
                        "take part)", OP_NAMES[w.op], kernel_->name, block_name().c_str(),
                        where(w.file, w.line).c_str(), thread_name(u).c_str(), thread_[u].source,
                        from >= end ? "is not in the block" : "has returned"));
        }
        got[u - first] = thread_[from].value;
    }
    w.arrived = 0;
    race_clock.warp_syncs[first / 32] += w.op == SYNCWARP ? 1 : 0;
    for (unsigned k = first; k < end; k++) {
        unsigned u = reverse_ ? end - 1 - (k - first) : k;
        if (thread_[u].state == AT_WARP) {
            thread_[u].value = got[u - first];
            if (u != current_) {
                push(u);
            }
        }
    }
}

std::string Scheduler::thread_name(unsigned t) const {
    return format("(%u,%u,%u)", t % blockDim.x, t / blockDim.x % blockDim.y, t / blockDim.x / blockDim.y);
}

std::string Scheduler::block_name() const {
    return format("(%u,%u,%u)", blockIdx.x, blockIdx.y, blockIdx.z);
}

// Where the waiting threads wait, grouped by place: the first thread and how many more.
std::string Scheduler::deadlock() const {
    struct Group {
        unsigned first, count;
        const char* op;
        const char* file;
        int line;
    };
    std::vector<Group> groups;
    for (unsigned t = 0; t < threads_; t++) {
        State s = thread_[t].state;
        if (s != AT_BARRIER && s != AT_WARP) {
            continue;
        }
        const Warp& w = warp_[t / 32];
        Group g = s == AT_BARRIER ? Group{t, 1, "__syncthreads", barrier_file_, barrier_line_}
                                  : Group{t, 1, OP_NAMES[w.op], w.file, w.line};
        bool known = false;
        for (Group& h : groups) {
            if (h.op == g.op && h.file == g.file && h.line == g.line) {
                h.count++;
                known = true;
            }
        }
        if (!known) {
            groups.push_back(g);
        }
    }
    std::string text = format("deadlock in %s, block %s: no thread can go on;", kernel_->name, block_name().c_str());
    for (const Group& g : groups) {
        std::string more = g.count > 1 ? format(" and %u more wait", g.count - 1) : " waits";
        text += format(" thread %s%s at %s (%s);", thread_name(g.first).c_str(), more.c_str(), g.op,
                       where(g.file, g.line).c_str());
    }
    text.pop_back();
    return text;
}

void check_configuration(const Kernel& k, const unsigned grid[3], const unsigned block[3]) {
    uint64_t threads = (uint64_t) block[0] * block[1] * block[2];
    std::string problem;
    if (grid[0] == 0 || grid[1] == 0 || grid[2] == 0 || block[0] == 0 || block[1] == 0 || block[2] == 0) {
        problem = "no dimension may be 0";
    } else if (threads > MAX_THREADS || block[0] > 1024 || block[1] > 1024 || block[2] > 64) {
        problem = "a block has at most 1024 threads, at most 1024 in x and y and 64 in z";
    } else if (grid[0] > 0x7fffffffu || grid[1] > 65535 || grid[2] > 65535) {
        problem = "a grid has at most 2^31 - 1 blocks in x and 65535 in y and z";
    } else if (threads > k.max_threads) {
        problem = format("its __launch_bounds__ allow at most %u threads a block (a GPU refuses the launch)",
                         k.max_threads);
    }
    if (!problem.empty()) {
        throw Error(format("%s: grid (%u,%u,%u) of blocks (%u,%u,%u): %s", k.name, grid[0], grid[1], grid[2],
                           block[0], block[1], block[2], problem.c_str()));
    }
}

void check_arguments(Device& device, const Kernel& k, int count, const int* kinds, const uint64_t* slots) {
    if (count != k.params) {
        throw Error(format("%s takes %d arguments, got %d", k.name, k.params, count));
    }
    for (int i = 0; i < count; i++) {
        if (kinds[i] < 0 || kinds[i] > LONG) {
            throw Error(format("%s argument %d: unknown kind %d", k.name, i, kinds[i]));
        }
        if (kinds[i] != k.kinds[i]) {
            throw Error(format("%s argument %d: got %s (%d bytes), but parameter %d is %s (%s, %d bytes)", k.name, i,
                               KIND_NAMES[kinds[i]], KIND_BYTES[kinds[i]], i, k.types[i], KIND_NAMES[k.kinds[i]],
                               KIND_BYTES[k.kinds[i]]));
        }
        if (kinds[i] == ADDRESS && slots[i] != 0) {
            at(device, slots[i], 0, format("%s argument %d", k.name, i).c_str());
        }
    }
}

}  // namespace

void add_kernel(const Kernel& kernel) {
    registry().push_back(kernel);
}

int find_kernel(const char* name) {
    for (size_t i = 0; i < registry().size(); i++) {
        if (std::strcmp(registry()[i].name, name) == 0) {
            return (int) i;
        }
    }
    return -1;
}

void launch(Device& device, int kernel, const unsigned grid[3], const unsigned block[3], int count, const int* kinds,
            const uint64_t* slots) {
    if (kernel < 0 || (size_t) kernel >= registry().size()) {
        throw Error(format("no kernel #%d", kernel));
    }
    const Kernel& k = registry()[kernel];
    check_configuration(k, grid, block);
    check_arguments(device, k, count, kinds, slots);
    std::lock_guard<std::mutex> lock(launching);
    static Scheduler* scheduler = new Scheduler();  // its stacks are kept for the life of the process
    std::string failure;
    try {
        race_begin(device, k.name);
        scheduler->run(k, slots, grid, block);
    } catch (const Error& e) {
        failure = e.what();
    }
    // Checked after a failed launch too, so that a later launch is not blamed for this one's writes.
    std::string damaged = check_guards(device, k.name);
    if (!failure.empty() || !damaged.empty()) {
        throw Error(failure.empty() ? damaged : damaged.empty() ? failure : failure + "; " + damaged);
    }
}

void syncthreads(const char* file, int line) {
    active->barrier(file, line);
}

uint64_t warp(WarpOp op, unsigned mask, uint64_t value, int arg, int width, const char* file, int line) {
    return active->warp(op, mask, value, arg, width, file, line);
}

void fail_launch(const std::string& message) {
    active->fail(message);
}

}  // namespace gr_emu
