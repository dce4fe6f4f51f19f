package dev.lanes.internal.file;

import dev.lanes.internal.util.PathCopy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * Where the lease of a database lives: one byte of a lock file that the databases of a directory
 * share, {@code <directory>/.lanes-lock/<xx>}, at an offset derived from the database's file
 * name. This is an on-disk contract between every process that may open the database, so the
 * derivation below never changes: the first byte of the SHA-256 of the file name (UTF-8) picks
 * one of {@value #FILES} lock files, the next eight bytes, masked to 62 bits, the offset.
 *
 * <p>Why not one lock file per database: a record lock is held only while a descriptor of its
 * file stays open, so a lock file per database costs a descriptor per open database, and a
 * process could not hold more databases than its descriptor limit however few connections it
 * kept open. Why not one lock file per directory: Linux keeps a file's record locks in one list
 * and scans it on every lock and unlock, so 100,000 locks on one file took 271 s of kernel time
 * to take here; spread over {@value #FILES} files they take well under a second. A directory
 * therefore costs at most {@value #FILES} descriptors, one per lock file that holds a lease.
 *
 * <p>Two different file names of one directory share a slot only if their hashes agree in 70
 * bits; among 100,000 databases the chance is below 10<sup>-11</sup>. Should it ever happen, the
 * second is refused with {@link dev.lanes.DatabaseLockedException} naming the slot, and nothing
 * is lost.
 *
 * <p>{@link dev.lanes.DatabaseFiles} names the directory and the number of files to users.
 *
 * @param lockFile the lock file
 * @param offset the byte of {@code lockFile} whose exclusive lock is the lease
 */
public record LeaseSlot(Path lockFile, long offset) {
    /** The directory, beside the databases, that holds their lock files. */
    public static final String DIRECTORY = ".lanes-lock";

    /** How many lock files a directory's leases spread over: its most descriptors. */
    public static final int FILES = 256;

    /** The slot of {@code database}, a canonical path. */
    public static LeaseSlot of(Path database) {
        Path copy = PathCopy.of(database); // the database's kept path is asked nothing
        Path name = copy.getFileName();
        if (name == null) {
            throw new IllegalArgumentException("not a database file: " + database);
        }
        byte[] hash = sha256(name.toString().getBytes(StandardCharsets.UTF_8));
        long offset = 0;
        for (int i = 1; i <= Long.BYTES; i++) {
            offset = (offset << 8) | (hash[i] & 0xFF);
        }
        Path lockFile = copy.resolveSibling(DIRECTORY)
                .resolve(String.format("%02x", hash[0] & 0xFF));
        return new LeaseSlot(lockFile, offset & ((1L << 62) - 1));
    }

    private static byte[] sha256(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError("every JDK has SHA-256", e);
        }
    }

    @Override
    public String toString() {
        return "byte " + offset + " of " + lockFile;
    }
}
