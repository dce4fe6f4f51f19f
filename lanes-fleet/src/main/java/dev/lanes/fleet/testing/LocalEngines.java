package dev.lanes.fleet.testing;

import java.nio.file.Path;

/**
 * The engines a fleet runs on, started on 127.0.0.1 for tests and the bench: etcd members
 * ({@link LocalEtcd}), an s3proxy object store ({@link LocalObjectStore}) and the Litestream
 * binary, each found or installed as {@link Tools} says. {@link #close()} stops the processes it
 * started; a start that fails stops what it had started.
 *
 * <p>Concurrency: started, used and closed by one thread at a time.
 */
public final class LocalEngines implements AutoCloseable {
    private final LocalEtcd etcd;
    private final LocalObjectStore store;
    private final Path litestream;

    private LocalEngines(LocalEtcd etcd, LocalObjectStore store, Path litestream) {
        this.etcd = etcd;
        this.store = store;
        this.litestream = litestream;
    }

    /**
     * Starts {@code etcdMembers} etcd members with {@code timing} and s3proxy under {@code dir}
     * ({@code dir/etcd}, {@code dir/s3}), and finds Litestream.
     *
     * @throws Tools.Unavailable when an engine cannot be had here; its message says what to
     *     install, and nothing is left running
     */
    public static LocalEngines start(Path dir, int etcdMembers, LocalEtcd.Timing timing)
            throws Tools.Unavailable {
        Path litestream = Tools.litestream();
        Tools.etcd();
        Tools.s3proxyJar();
        LocalEtcd etcd = LocalEtcd.start(dir.resolve("etcd"), etcdMembers, timing);
        try {
            return new LocalEngines(etcd, LocalObjectStore.start(dir.resolve("s3")), litestream);
        } catch (Tools.Unavailable | RuntimeException e) {
            etcd.close();
            throw e;
        }
    }

    /** The etcd members. */
    public LocalEtcd etcd() {
        return etcd;
    }

    /** The object store. */
    public LocalObjectStore store() {
        return store;
    }

    /** The Litestream binary. */
    public Path litestream() {
        return litestream;
    }

    @Override
    public void close() {
        try {
            store.close();
        } finally {
            etcd.close();
        }
    }
}
