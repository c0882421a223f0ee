package org.gridrun.engine.backend.cuda;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;

/** What a GPU codec keeps per slot (a worker): made when a slot is first used, freed together. */
final class WorkerSlots<S> {
    private final List<S> slots = new ArrayList<>();
    private final Supplier<S> make;
    private final Consumer<S> free;

    WorkerSlots(Supplier<S> make, Consumer<S> free) {
        this.make = make;
        this.free = free;
    }

    /** Slot {@code slot}'s, made (with those below it) on first use. */
    S get(int slot) {
        while (slots.size() <= slot) {
            slots.add(make.get());
        }
        return slots.get(slot);
    }

    /** Frees every slot's; later uses make them anew. */
    void freeAll() {
        for (S s : slots) {
            free.accept(s);
        }
        slots.clear();
    }
}
