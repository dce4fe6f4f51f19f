package dev.lanes.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.TypeConversionException;

class DurationConverterTest {
    private final DurationConverter converter = new DurationConverter();

    @Test
    void readsDurationsAsPeopleWriteThem() {
        assertThat(converter.convert("500ms")).isEqualTo(Duration.ofMillis(500));
        assertThat(converter.convert("5s")).isEqualTo(Duration.ofSeconds(5));
        assertThat(converter.convert("1.5s")).isEqualTo(Duration.ofMillis(1500));
        assertThat(converter.convert("2m")).isEqualTo(Duration.ofMinutes(2));
        assertThat(converter.convert("PT3S")).isEqualTo(Duration.ofSeconds(3));
    }

    @Test
    void refusesANumberWithoutAUnit() {
        assertThatThrownBy(() -> converter.convert("5"))
                .isInstanceOf(TypeConversionException.class)
                .hasMessageContaining("500ms, 5s");
    }
}
