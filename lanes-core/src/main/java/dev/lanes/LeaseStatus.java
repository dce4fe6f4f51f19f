package dev.lanes;

/**
 * Whether a Lanes runtime, in this process or another, holds a database's lease, as {@link
 * DatabaseFiles#lease(java.nio.file.Path)} found it without taking it.
 *
 * @param lockFile the lock file that holds the lease, {@code .lanes-lock/<xx>} beside the
 *     database, shared by the databases of its directory
 * @param lockOffset the byte of {@code lockFile} whose lock is the lease
 * @param lockFileExists whether it exists (a database Lanes never opened has none)
 * @param held whether a process holds the lease now
 * @param holderPid the process that holds it, when the probe could tell; else null
 * @param probe how it was found: {@code proc-locks} (the kernel's lock table, which opens
 *     nothing), {@code file-lock} (a lock attempt on the file), or {@code no-lock-file}
 */
public record LeaseStatus(
        String lockFile,
        long lockOffset,
        boolean lockFileExists,
        boolean held,
        Long holderPid,
        String probe) {}
