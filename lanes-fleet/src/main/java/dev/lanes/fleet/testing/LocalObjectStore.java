package dev.lanes.fleet.testing;

import dev.lanes.fleet.ObjectStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * An S3-compatible object store on 127.0.0.1 for tests and the bench: s3proxy 2.6.0 as a child
 * JVM with its filesystem provider (the bucket is a directory under the work directory) and
 * fixed credentials. Not for production: any S3, MinIO, R2 or GCS endpoint serves the fleet
 * there.
 *
 * <p>{@link #close()} stops the process; a JVM shutdown hook kills it if nobody did.
 */
public final class LocalObjectStore implements AutoCloseable {
    /** The bucket every local store holds. */
    public static final String BUCKET = "lanes-fleet";
    private static final String KEY = "lanes-local";
    private static final String SECRET = "lanes-local-secret";

    private final Child process;
    private final int port;
    private final Path data;

    private LocalObjectStore(Child process, int port, Path data) {
        this.process = process;
        this.port = port;
        this.data = data;
    }

    /**
     * Starts s3proxy under {@code dir} and waits (at most 90 s) until it accepts connections.
     *
     * @throws Tools.Unavailable when s3proxy's jar cannot be found
     */
    public static LocalObjectStore start(Path dir) throws Tools.Unavailable {
        Path jar = Tools.s3proxyJar();
        int port = Child.freePort();
        Path data = dir.resolve("objects");
        try {
            Files.createDirectories(data.resolve(BUCKET));
            Path properties = dir.resolve("s3proxy.properties");
            Files.writeString(properties, String.join("\n",
                    "s3proxy.endpoint=http://127.0.0.1:" + port,
                    "s3proxy.authorization=aws-v2-or-v4",
                    "s3proxy.identity=" + KEY,
                    "s3proxy.credential=" + SECRET,
                    "jclouds.provider=filesystem",
                    "jclouds.filesystem.basedir=" + data.toAbsolutePath(),
                    ""), StandardCharsets.UTF_8);
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            Child child = Child.start("s3proxy", List.of(java, "-Xmx256m", "-XX:+UseSerialGC",
                    "-XX:TieredStopAtLevel=1", "-jar", jar.toString(),
                    "--properties", properties.toString()), dir.resolve("s3proxy.log"));
            LocalObjectStore store = new LocalObjectStore(child, port, data);
            store.awaitListening();
            return store;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** How the fleet reaches this store. */
    public ObjectStore objectStore() {
        return ObjectStore.builder().endpoint("http://127.0.0.1:" + port).bucket(BUCKET)
                .region("us-east-1").accessKeyId(KEY).secretAccessKey(SECRET).build();
    }

    /** The directory that holds the bucket's objects as files. */
    public Path dataDirectory() {
        return data;
    }

    /** Its process. */
    public Child process() {
        return process;
    }

    private void awaitListening() {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (true) {
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 200);
                return;
            } catch (IOException e) {
                if (!process.alive() || System.nanoTime() > deadline) {
                    close();
                    throw new IllegalStateException("s3proxy did not listen on " + port + ":\n"
                            + process.logTail(30));
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
            }
        }
    }

    @Override
    public void close() {
        if (process.alive()) {
            process.stop(10);
        }
    }
}
