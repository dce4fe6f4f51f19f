package dev.lanes.iofault;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * libfiu on this machine: {@code fiu-run -x} starts a program with libfiu's POSIX preload library,
 * whose wrappers fail chosen libc calls on demand, and {@code fiu-ctrl} switches those failure
 * points on and off in the running process through named pipes ({@code <prefix>-<pid>.in/.out}).
 *
 * <p>Facts checked on this machine (Debian bookworm, libfiu 1.1): a point fails with the errno
 * given as {@code failinfo} ({@code enable_random name=posix/io/rw/pwrite,probability=0.1,
 * failinfo=5} fails pwrite with EIO), or with a random errno valid for the call when none is
 * given. sqlite-jdbc's SQLite writes with {@code pwrite64} (point {@code posix/io/rw/pwrite}),
 * syncs with {@code fsync} (it is not built with fdatasync; {@code posix/io/sync/fdatasync} is
 * switched on beside it anyway) and truncates with {@code ftruncate}; it never calls {@code
 * write}, which the JVM uses for stdout and stderr. Calls libc makes internally (stdio's own
 * writes) bypass the wrappers. libfiu's remote-control thread is exempt from the failures, so
 * {@code fiu-ctrl} keeps working while they are on. {@code fiu-ctrl} exits 0 even when a command
 * failed and prints why: any output is an error.
 */
final class Libfiu {
    static final String PWRITE = "posix/io/rw/pwrite";
    static final String WRITE = "posix/io/rw/write";
    static final String FSYNC = "posix/io/sync/fsync";
    static final String FDATASYNC = "posix/io/sync/fdatasync";
    static final String FTRUNCATE = "posix/io/rw/ftruncate";
    static final int EIO = 5;
    static final int ENOSPC = 28;

    static final Path POSIX_PRELOAD = Path.of("/usr/lib/fiu/fiu_posix_preload.so");
    private static final long INSTALL_MINUTES = 5;
    private static final long CONTROL_SECONDS = 15;

    private Libfiu() {}

    /** One failure point failing with one errno, at a probability (1 fails every call). */
    record Fault(String point, double probability, int errno) {
        String enable() {
            return probability >= 1
                    ? "enable name=" + point + ",failinfo=" + errno
                    : String.format(Locale.ROOT, "enable_random name=%s,probability=%s,failinfo=%d",
                            point, probability, errno);
        }

        String disable() {
            return "disable name=" + point;
        }

        @Override
        public String toString() {
            String name = point.substring(point.lastIndexOf('/') + 1);
            return name + " " + (errno == EIO ? "EIO" : errno == ENOSPC ? "ENOSPC" : "errno " + errno)
                    + " " + (probability >= 1 ? "always" : String.format(Locale.ROOT, "%.1f%%",
                    probability * 100));
        }
    }

    /** Why libfiu cannot be used here; empty when it can. Installs it once when missing. */
    static Optional<String> unavailable() {
        return Once.REASON;
    }

    /** The probe and install run once per JVM: class initialisation is serialised by the JVM. */
    private static final class Once {
        static final Optional<String> REASON = probe();
    }

    private static Optional<String> probe() {
        if (!System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("linux")) {
            return Optional.of("libfiu's preload library needs Linux");
        }
        if (installed()) {
            return Optional.empty();
        }
        Path script = installScript();
        if (script == null) {
            return Optional.of("libfiu (fiu-run, fiu-ctrl, " + POSIX_PRELOAD + ") is missing, and "
                    + "scripts/install-libfiu.sh was not found to install it");
        }
        try {
            Path log = Files.createTempFile("install-libfiu", ".log");
            try {
                Process install = new ProcessBuilder("bash", script.toString())
                        .redirectErrorStream(true).redirectOutput(log.toFile()).start();
                install.getOutputStream().close();
                if (!install.waitFor(INSTALL_MINUTES, TimeUnit.MINUTES)) {
                    install.destroyForcibly();
                    return Optional.of("installing libfiu with " + script + " took longer than "
                            + INSTALL_MINUTES + " min");
                }
                String text = Files.readString(log).trim();
                if (install.exitValue() != 0 || !installed()) {
                    return Optional.of("libfiu is missing and " + script + " could not install it "
                            + "(exit " + install.exitValue() + "): " + text);
                }
                System.err.println(text);
                return Optional.empty();
            } finally {
                Files.deleteIfExists(log);
            }
        } catch (IOException e) {
            return Optional.of("libfiu is missing and running " + script + " failed: " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.of("interrupted while installing libfiu");
        }
    }

    private static boolean installed() {
        return onPath("fiu-run") && onPath("fiu-ctrl") && Files.isRegularFile(POSIX_PRELOAD);
    }

    private static boolean onPath(String tool) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, tool))) {
                return true;
            }
        }
        return false;
    }

    /** lanes-core/scripts/install-libfiu.sh; surefire runs tests in the module's directory. */
    private static Path installScript() {
        for (String base : new String[] {System.getProperty("basedir"), System.getProperty("user.dir")}) {
            if (base == null) {
                continue;
            }
            for (Path candidate : List.of(Path.of(base, "scripts", "install-libfiu.sh"),
                    Path.of(base, "lanes-core", "scripts", "install-libfiu.sh"))) {
                if (Files.isRegularFile(candidate)) {
                    return candidate;
                }
            }
        }
        return null;
    }

    /** The command line that runs {@code command} under libfiu, remote-controlled at {@code fifos}. */
    static List<String> run(Path fifos, List<String> command) {
        List<String> line = new ArrayList<>(List.of("fiu-run", "-x", "-f", fifos.toString()));
        line.addAll(command);
        return line;
    }

    /** The named pipe libfiu opened for process {@code pid}; it exists once its preload ran. */
    static Path controlPipe(Path fifos, long pid) {
        return Path.of(fifos + "-" + pid + ".out");
    }

    /** Switches {@code faults} on in process {@code pid}. */
    static void enable(Path fifos, long pid, List<Fault> faults) {
        List<String> commands = new ArrayList<>();
        faults.forEach(f -> commands.add(f.enable()));
        control(fifos, pid, commands);
    }

    /** Switches {@code faults} off in process {@code pid}. */
    static void disable(Path fifos, long pid, List<Fault> faults) {
        List<String> commands = new ArrayList<>();
        faults.forEach(f -> commands.add(f.disable()));
        control(fifos, pid, commands);
    }

    private static void control(Path fifos, long pid, List<String> commands) {
        List<String> line = new ArrayList<>(List.of("fiu-ctrl", "-f", fifos.toString()));
        for (String c : commands) {
            line.add("-c");
            line.add(c);
        }
        line.add(Long.toString(pid));
        Process ctrl = null;
        try {
            ctrl = new ProcessBuilder(line).redirectErrorStream(true).start();
            ctrl.getOutputStream().close();
            if (!ctrl.waitFor(CONTROL_SECONDS, TimeUnit.SECONDS)) {
                throw new IllegalStateException("fiu-ctrl did not answer within " + CONTROL_SECONDS
                        + " s: " + line);
            }
            String output = new String(ctrl.getInputStream().readAllBytes(),
                    StandardCharsets.UTF_8).trim();
            if (ctrl.exitValue() != 0 || !output.isEmpty()) {
                throw new IllegalStateException("fiu-ctrl failed (exit " + ctrl.exitValue() + "): "
                        + output + "; command: " + line);
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot run fiu-ctrl: " + line, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running fiu-ctrl", e);
        } finally {
            if (ctrl != null && ctrl.isAlive()) {
                ctrl.descendants().forEach(ProcessHandle::destroyForcibly);
                ctrl.destroyForcibly();
            }
        }
    }
}
