package dev.lanes;

/**
 * The sqlite-jdbc driver on the class path is one Lanes cannot run on: older than the oldest
 * version Lanes supports, or missing a part of the driver Lanes uses. Thrown by {@link
 * Lanes#open(java.nio.file.Path, DatabaseOptions)} before anything is opened, never later (it is
 * not retryable: the driver must change). Its message names the version found, the supported
 * range, and the Maven and Gradle lines that bring a supported driver in; a Spring Boot
 * application, whose dependency management pins sqlite-jdbc, sets the {@code sqlite-jdbc.version}
 * property instead.
 */
public final class UnsupportedDriverException extends LanesException {
    /** A refusal with this message (what was found, the range, how to upgrade) and no cause. */
    public UnsupportedDriverException(String message) {
        super(ErrorCode.UNSUPPORTED_DRIVER, WriteOutcome.NOT_STARTED, message, null);
    }

    /** A refusal with this message, caused by {@code cause} (null when none). */
    public UnsupportedDriverException(String message, Throwable cause) {
        super(ErrorCode.UNSUPPORTED_DRIVER, WriteOutcome.NOT_STARTED, message, cause);
    }
}
