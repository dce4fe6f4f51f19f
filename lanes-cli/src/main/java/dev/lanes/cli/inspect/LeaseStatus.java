package dev.lanes.cli.inspect;

/**
 * Whether a Lanes runtime holds a database's lease, as {@link LeaseProbe} found it.
 *
 * @param lockFile the lock file beside the database, {@code <database file name>.lanes-lock}
 * @param lockFileExists whether it exists (a database Lanes never opened has none)
 * @param held whether a process holds the lease now
 * @param holderPid the process that holds it, when the probe could tell; else null
 * @param probe how it was found: {@code proc-locks} (the kernel's lock table, which opens
 *     nothing), {@code file-lock} (a lock attempt on the file), or {@code no-lock-file}
 */
public record LeaseStatus(
        String lockFile, boolean lockFileExists, boolean held, Long holderPid, String probe) {}
