package org.gridrun.engine.train;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInput;
import java.io.DataInputStream;
import java.io.DataOutput;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.zip.CRC32;
import java.util.zip.CheckedOutputStream;
import org.gridrun.engine.run.BadFileException;

/**
 * A trainer's checkpoint file, {@code checkpoint.bin} in the run directory: everything a stopped run needs to
 * continue bit for bit, tied to the configuration it belongs to.
 *
 * <p>The file is binary and big-endian, as {@link DataOutput} writes it:
 * <ol>
 *   <li>header: the magic {@code GRCK} (4 bytes), the format version (int, {@value #VERSION}), the config id of
 *       {@code experiment.yaml} (modified UTF-8), and the step the run had completed (long);</li>
 *   <li>the trainer's state, as {@link Trainer} describes it: parameters, optimizer state, each worker's sampler
 *       and compressor state, the unfinished training-metric interval and the last test-set evaluation;</li>
 *   <li>a CRC-32 of every byte before it (int).</li>
 * </ol>
 *
 * <p>{@link #save} writes a temporary file beside the checkpoint, forces it to disk and moves it over the old one
 * atomically, so a process killed mid-write leaves the previous checkpoint whole. {@link #step()} reads the header
 * only; loading checks magic, version, config id and CRC before the trainer reads anything. A checkpoint of another
 * config id is never loaded: {@code step()} reports none and the next save replaces it. A file that is not a
 * checkpoint this build can read fails with a message that names it and says to delete it.
 */
public final class Checkpoint {
    /** The format version this build writes and reads. */
    public static final int VERSION = 2;

    private static final int MAGIC = 0x4752434B; // "GRCK"
    private static final int CRC_BYTES = 4;

    private final Path file;
    private final String configId;

    /** The checkpoint in {@code file} of the experiment whose config id is {@code configId}; nothing is read yet. */
    public Checkpoint(Path file, String configId) {
        this.file = Objects.requireNonNull(file, "file");
        this.configId = Objects.requireNonNull(configId, "configId");
    }

    public Path file() {
        return file;
    }

    public String configId() {
        return configId;
    }

    /**
     * The step saved in the file when it holds a checkpoint of this config; empty when there is no file or it
     * belongs to another config.
     */
    public OptionalLong step() {
        try (InputStream stream = Files.newInputStream(file)) {
            Header header = Header.read(new DataInputStream(stream), file);
            return header.configId().equals(configId) ? OptionalLong.of(header.step()) : OptionalLong.empty();
        } catch (NoSuchFileException e) {
            return OptionalLong.empty();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read checkpoint " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * The step saved in the file once the whole file has been checked: header, config id and checksum. Empty when
     * there is no file or it belongs to another config; a damaged file fails as {@link #load} does, naming it.
     */
    public OptionalLong verifiedStep() {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            return OptionalLong.empty();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read checkpoint " + file + ": " + e.getMessage(), e);
        }
        Header header = verify(bytes);
        return header.configId().equals(configId) ? OptionalLong.of(header.step()) : OptionalLong.empty();
    }

    /** The header of a checkpoint's {@code bytes} after checking their checksum. */
    private Header verify(byte[] bytes) {
        if (bytes.length < CRC_BYTES) {
            throw unreadable(file, "it ends early", null);
        }
        Header header = Header.read(new DataInputStream(new ByteArrayInputStream(bytes)), file);
        CRC32 crc = new CRC32();
        crc.update(bytes, 0, bytes.length - CRC_BYTES);
        if ((int) crc.getValue() != ByteBuffer.wrap(bytes, bytes.length - CRC_BYTES, CRC_BYTES).getInt()) {
            throw unreadable(file, "its checksum does not match: the file is damaged", null);
        }
        return header;
    }

    /** Saves a checkpoint at {@code step} whose state {@code state} writes, replacing the file atomically. */
    void save(long step, Section state) {
        CRC32 crc = new CRC32();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try {
            DataOutputStream out = new DataOutputStream(new CheckedOutputStream(bytes, crc));
            new Header(configId, step).write(out);
            state.write(out);
            out.writeInt((int) crc.getValue());
            out.flush();
            Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
            try (FileChannel channel = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING)) {
                bytes.writeTo(Channels.newOutputStream(channel));
                channel.force(true);
            }
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot save checkpoint " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * Checks the file and hands its state to {@code state}, which must read all of it; returns the saved step.
     *
     * <p>Fails with a {@link BadFileException} naming the file when it is damaged, of another format version
     * or config, or when its state does not fit the trainer.
     */
    long load(Reader state) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read checkpoint " + file + ": " + e.getMessage(), e);
        }
        Header header = verify(bytes);
        ByteArrayInputStream stream = new ByteArrayInputStream(bytes);
        DataInputStream in = new DataInputStream(stream);
        Header.read(in, file);
        if (!header.configId().equals(configId)) {
            throw unreadable(file, "it belongs to config " + header.configId() + ", not " + configId, null);
        }
        try {
            state.read(in);
        } catch (EOFException e) {
            throw unreadable(file, "its state ends early", e);
        } catch (RuntimeException e) {
            throw unreadable(file, e.getMessage() == null ? "its state does not fit this trainer" : e.getMessage(),
                    e);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read checkpoint " + file + ": " + e.getMessage(), e);
        }
        if (stream.available() != CRC_BYTES) {
            throw unreadable(file, (stream.available() - CRC_BYTES) + " bytes of its state were left unread", null);
        }
        return header.step();
    }

    private static BadFileException unreadable(Path file, String why, Throwable cause) {
        return new BadFileException(file, null, "cannot resume from this checkpoint: " + why,
                "delete it to train from the start", cause);
    }

    /**
     * Writes one part of the state as a length-prefixed section, so that {@link #readSection} can check that its
     * reader took exactly what was written: a plug-in's state cannot shift what follows it.
     */
    static void writeSection(DataOutput out, Section section) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        section.write(new DataOutputStream(bytes));
        out.writeInt(bytes.size());
        out.write(bytes.toByteArray());
    }

    /** Reads a section {@link #writeSection} wrote; {@code what} names it in the error when it is not all read. */
    static void readSection(DataInput in, String what, Reader section) throws IOException {
        byte[] bytes = new byte[in.readInt()];
        in.readFully(bytes);
        ByteArrayInputStream stream = new ByteArrayInputStream(bytes);
        section.read(new DataInputStream(stream));
        if (stream.available() > 0) {
            throw new IllegalStateException(what + " read " + (bytes.length - stream.available()) + " of its "
                    + bytes.length + " saved bytes");
        }
    }

    /** Writes a part of the state. */
    @FunctionalInterface
    interface Section {
        void write(DataOutput out) throws IOException;
    }

    /** Reads a part of the state back. */
    @FunctionalInterface
    interface Reader {
        void read(DataInput in) throws IOException;
    }

    private record Header(String configId, long step) {
        void write(DataOutput out) throws IOException {
            out.writeInt(MAGIC);
            out.writeInt(VERSION);
            out.writeUTF(configId);
            out.writeLong(step);
        }

        /** Reads and checks a header; a file too short for one, or of another magic or version, fails. */
        static Header read(DataInput in, Path file) {
            try {
                if (in.readInt() != MAGIC) {
                    throw unreadable(file, "it is not a gridrun checkpoint", null);
                }
                int version = in.readInt();
                if (version != VERSION) {
                    throw unreadable(file, "it has format version " + version + " and this gridrun reads version "
                            + VERSION, null);
                }
                return new Header(in.readUTF(), in.readLong());
            } catch (java.io.UTFDataFormatException e) {
                throw unreadable(file, "its header's config id is not text", e);
            } catch (EOFException e) {
                throw unreadable(file, "it ends early", e);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read checkpoint " + file + ": " + e.getMessage(), e);
            }
        }
    }
}
