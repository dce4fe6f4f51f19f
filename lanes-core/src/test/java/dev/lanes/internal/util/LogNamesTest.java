package dev.lanes.internal.util;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lanes.LogCapture;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The runtime's logger names are concepts, and the tests that read the log ({@link LogCapture})
 * watch exactly those.
 */
class LogNamesTest {
    private static List<String> names() throws IllegalAccessException {
        List<String> names = new ArrayList<>();
        for (Field f : LogNames.class.getFields()) {
            if (Modifier.isStatic(f.getModifiers()) && f.getType() == String.class) {
                names.add((String) f.get(null));
            }
        }
        return names;
    }

    @Test
    void theTestsWatchExactlyTheRuntimesLoggerNames() throws Exception {
        assertThat(names()).containsExactlyInAnyOrderElementsOf(LogCapture.RUNTIME_LOGGERS);
        assertThat(names()).allSatisfy(n -> assertThat(n).startsWith("dev.lanes.")
                .doesNotContain("internal").matches("dev\\.lanes\\.[a-z]+"));
    }
}
