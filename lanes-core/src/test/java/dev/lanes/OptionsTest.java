package dev.lanes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Option builders reject a bad value at the setter, with a message naming option and value. */
class OptionsTest {

    static Stream<Arguments> badValues() {
        return Stream.of(
                bad("writeQueueCapacity", "0", () -> DatabaseOptions.builder().writeQueueCapacity(0)),
                bad("writeQueueCapacity", "-5", () -> DatabaseOptions.builder().writeQueueCapacity(-5)),
                bad("maxGroupSize", "0", () -> DatabaseOptions.builder().maxGroupSize(0)),
                bad("readers", "0", () -> DatabaseOptions.builder().readers(0)),
                bad("busyTimeout", "PT-0.001S",
                        () -> DatabaseOptions.builder().busyTimeout(Duration.ofMillis(-1))),
                bad("statementCacheSize", "-1", () -> DatabaseOptions.builder().statementCacheSize(-1)),
                bad("closeTimeout", "PT-1S",
                        () -> DatabaseOptions.builder().closeTimeout(Duration.ofSeconds(-1))),
                bad("maxThreads", "0", () -> Lanes.builder().maxThreads(0)),
                bad("threadStackSize", "1000", () -> Lanes.builder().threadStackSize(1000)),
                bad("name", "' '", () -> Lanes.builder().name(" ")),
                bad("writeQueueTimeout", "PT-0.05S",
                        () -> DatabaseOptions.builder().writeQueueTimeout(Duration.ofMillis(-50))),
                bad("enqueueTimeout", "PT-0.05S",
                        () -> WriteOptions.builder().enqueueTimeout(Duration.ofMillis(-50))),
                bad("enqueueTimeout", "PT-0.05S",
                        () -> WriteOptions.enqueueTimeout(Duration.ofMillis(-50))),
                bad("label", "''", () -> WriteOptions.builder().label("")));
    }

    private static Arguments bad(String option, String value, Executable setter) {
        return Arguments.of(option, value, Named.of(option + "=" + value, setter));
    }

    @ParameterizedTest(name = "{2}")
    @MethodSource("badValues")
    void aBadOptionValueIsRejectedAtOnceNamingTheOptionAndTheValue(
            String option, String value, Executable setter) {
        assertThatThrownBy(setter::execute)
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(option)
                .hasMessageContaining(value);
    }

    @Test
    void nullOptionValuesAreRejectedNamingTheOption() {
        assertThatThrownBy(() -> DatabaseOptions.builder().synchronous(null))
                .isInstanceOf(NullPointerException.class)
                .hasMessageContaining("synchronous");
        assertThatThrownBy(() -> DatabaseOptions.builder().busyTimeout(null))
                .isInstanceOf(NullPointerException.class)
                .hasMessageContaining("busyTimeout");
    }

    @Test
    void theDefaultCheckpointModeIsDedicatedButAutoAtFullWhicheverIsSetFirst() {
        assertThat(DatabaseOptions.DEFAULTS.checkpointMode()).isEqualTo(CheckpointMode.DEDICATED);
        assertThat(DatabaseOptions.builder().synchronous(Synchronous.OFF).build()
                .checkpointMode()).isEqualTo(CheckpointMode.DEDICATED);
        DatabaseOptions full = DatabaseOptions.builder().synchronous(Synchronous.FULL).build();
        assertThat(full.checkpointMode()).isEqualTo(CheckpointMode.AUTO);
        assertThat(full.toBuilder().synchronous(Synchronous.NORMAL).build().checkpointMode())
                .as("a default stays a default through toBuilder")
                .isEqualTo(CheckpointMode.DEDICATED);

        DatabaseOptions chosen = DatabaseOptions.builder().checkpointMode(CheckpointMode.DEDICATED)
                .synchronous(Synchronous.FULL).build();
        assertThat(chosen.checkpointMode()).as("a mode chosen is kept at FULL")
                .isEqualTo(CheckpointMode.DEDICATED);
        assertThat(chosen.toBuilder().synchronous(Synchronous.NORMAL).build().checkpointMode())
                .isEqualTo(CheckpointMode.DEDICATED);
        assertThat(DatabaseOptions.builder().checkpointMode(CheckpointMode.AUTO).build()
                .checkpointMode()).isEqualTo(CheckpointMode.AUTO);
        assertThat(DatabaseOptions.builder().checkpointMode(CheckpointMode.DEDICATED).build())
                .as("a chosen mode and the same default differ in what toBuilder keeps")
                .isNotEqualTo(DatabaseOptions.builder().build());
    }

    @Test
    void buildersKeepWhatTheyWereGivenAndTheDefaultsOtherwise() {
        DatabaseOptions o = DatabaseOptions.builder().writeQueueCapacity(7).maxGroupSize(3)
                .synchronous(Synchronous.FULL).busyTimeout(Duration.ofMillis(250)).build();
        assertThat(o.writeQueueCapacity()).isEqualTo(7);
        assertThat(o.maxGroupSize()).isEqualTo(3);
        assertThat(o.synchronous()).isEqualTo(Synchronous.FULL);
        assertThat(o.busyTimeout()).isEqualTo(Duration.ofMillis(250));
        assertThat(o.readers()).isEqualTo(DatabaseOptions.DEFAULTS.readers());
        assertThat(o.toBuilder().maxGroupSize(5).build())
                .isEqualTo(DatabaseOptions.builder().writeQueueCapacity(7).maxGroupSize(5)
                        .synchronous(Synchronous.FULL).busyTimeout(Duration.ofMillis(250)).build());

        WriteOptions w = WriteOptions.builder().label("orders.insert")
                .enqueueTimeout(Duration.ofMillis(50)).replayable(false).build();
        assertThat(w.label()).contains("orders.insert");
        assertThat(w.enqueueTimeout()).contains(Duration.ofMillis(50));
        assertThat(w.replayable()).isFalse();
        assertThat(WriteOptions.DEFAULTS.enqueueTimeout()).isEmpty();
        assertThat(DatabaseOptions.DEFAULTS.writeQueueTimeout()).isEqualTo(Duration.ofSeconds(5));
        assertThat(DatabaseOptions.builder().writeQueueTimeout(Duration.ZERO).build()
                .writeQueueTimeout()).isZero();
        assertThat(WriteOptions.DEFAULTS.replayable()).isTrue();
    }
}
